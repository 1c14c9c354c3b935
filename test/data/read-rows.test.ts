// readFileRows, the one reader of small CSV/Parquet tables (predict's configurations, whatif's and the report's
// tables): CSV cells come back as text, exactly as written; a file DuckDB cannot read is an E_READ that names the file
// and what it should have held.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readFileRows } from "../../ts/data/duckdb.js";
import { isVarmapError } from "../../ts/errors.js";

const dir = mkdtempSync(join(tmpdir(), "varmap-read-rows-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("readFileRows", () => {
  it("returns every row of a CSV with its cells as written", async () => {
    const file = join(dir, "t.csv");
    writeFileSync(file, "host,freq,tput\na,0.1000000000000000055511151231257827,12\nb,3e6,\n");
    expect(await readFileRows(file, "the table")).toEqual([
      { host: "a", freq: "0.1000000000000000055511151231257827", tput: "12" },
      { host: "b", freq: "3e6", tput: null },
    ]);
  });

  it("a file it cannot read: E_READ naming the file and what it should hold", async () => {
    const file = join(dir, "missing.parquet");
    const e = await readFileRows(file, "the configurations").catch((x: unknown) => x);
    expect(isVarmapError(e)).toBe(true);
    const err = e as { code: string; message: string; location?: { file?: string } };
    expect(err.code).toBe("E_READ");
    expect(err.message).toContain("cannot read the configurations: ");
    expect(err.location?.file).toBe(file);
  });
});
