// Issue 44 item 19d: a message never says "row -1" (an unknown row is left out of the location).
import { describe, expect, it } from "vitest";
import { VarmapError } from "../../ts/errors.js";

describe("error locations", () => {
  it("prints a known row and leaves out an unknown one", () => {
    expect(new VarmapError("E_USAGE", "bad", { location: { file: "a.csv", row: 7 } }).message).toBe("a.csv, row 7: bad");
    for (const row of [-1, 0, Number.NaN, 1.5]) {
      const msg = new VarmapError("E_USAGE", "bad", { location: { file: "a.csv", row, column: "x" } }).message;
      expect(msg).toBe("a.csv, column 'x': bad");
      expect(msg).not.toMatch(/row/);
    }
  });
});
