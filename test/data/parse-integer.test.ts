// The one integer parser of the flags and the typed options (issue 39): ranges, defaults, one message shape.
import { describe, expect, it } from "vitest";
import { parseInteger, parsePositiveInteger } from "../../ts/data/option-values.js";

const usage = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return e as { code: string; message: string; remedy?: string };
  }
  throw new Error("no error");
};

describe("parseInteger", () => {
  it("takes flag text and numbers, and the default when absent", () => {
    expect(parseInteger("17", "--n", { min: 1, max: 20 })).toBe(17);
    expect(parseInteger(" 3 ", "--n")).toBe(3);
    expect(parseInteger(4, "--n", { min: 1 })).toBe(4);
    expect(parseInteger(undefined, "--n", { default: 9 })).toBe(9);
    expect(parsePositiveInteger(undefined, "--reps", 20)).toBe(20);
  });

  it("refuses fractions, text, empty values and values out of range, naming the flag, the range and the value", () => {
    const e = usage(() => parseInteger("17", "--kmax", { min: 1, max: 16 }));
    expect(e.code).toBe("E_USAGE");
    expect(e.message).toMatch(/--kmax must be an integer from 1 to 16, got '17'/);
    expect(e.remedy).toBe("e.g. --kmax 1");
    expect(usage(() => parseInteger("2.5", "--folds", { min: 2, example: 10 })).message).toMatch(/--folds must be an integer >= 2, got '2.5'/);
    expect(usage(() => parsePositiveInteger("x", "--reps", 20)).message).toMatch(/--reps must be a positive integer, got 'x'/);
    expect(usage(() => parsePositiveInteger("", "--reps", 20)).message).toMatch(/got ''/);
    expect(usage(() => parseInteger("2", "--min-runs", { min: 3, why: "the MLE needs 3 distinct values" })).message).toMatch(
      /--min-runs must be an integer >= 3 \(the MLE needs 3 distinct values\), got '2'/,
    );
    expect(usage(() => parseInteger(2 ** 60, "--seed", { min: 0 })).code).toBe("E_USAGE");
  });
});
