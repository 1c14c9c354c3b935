// Tab-separated (.tsv / .tab) and gzip-compressed (.csv.gz, .tsv.gz) input: read like the same table written plainly
// with commas, by every reader (the runs loader, the small-table reader behind predict --at); malformed rows are
// located on the file's own line (in the decompressed text) and the message names the separator.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { csvScan, delimiterOf, readFileRows } from "../../ts/data/duckdb.js";
import { loadDataset, type LoadOptions } from "../../ts/data/load.js";
import { headOfFile } from "../../ts/data/csv-lines.js";
import { isVarmapError } from "../../ts/errors.js";

const dir = mkdtempSync(join(tmpdir(), "varmap-tsv-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const ROLES: LoadOptions = { factors: ["g"], inputs: ["x", "z"], run: "run", response: "y" };

function rows(): string[][] {
  const out: string[][] = [];
  for (const g of ["a", "b"])
    for (let x = 1; x <= 3; x++)
      for (let z = 1; z <= 2; z++)
        for (let run = 1; run <= 4; run++) out.push([g, String(x), String(z * 0.5), String(run), String(x * 10 + z + run * (g === "a" ? 1 : 3))]);
  return out;
}

/** The table with a header, `sep`-separated; `blank`: an empty line after the header (file lines ≠ record numbers). */
function text(sep: string, body: string[][], blank = false): string {
  const lines = [["g", "x", "z", "run", "y"], ...body].map((r) => r.join(sep));
  if (blank) lines.splice(1, 0, "");
  return lines.join("\n") + "\n";
}

function write(name: string, sep: string, body: string[][], blank = false): string {
  const file = join(dir, name);
  writeFileSync(file, /\.gz$/.test(name) ? gzipSync(text(sep, body, blank)) : text(sep, body, blank));
  return file;
}

describe("tab-separated files", () => {
  it("the separator follows the extension: tab for .tsv and .tab (any case), comma otherwise", () => {
    expect(delimiterOf("runs.tsv")).toBe("\t");
    expect(delimiterOf("RUNS.TAB")).toBe("\t");
    expect(delimiterOf("runs.csv")).toBe(",");
    expect(delimiterOf("runs.txt")).toBe(",");
    expect(csvScan("r.tsv", "all_varchar = true")).toBe("read_csv('r.tsv', header = true, delim = '\\t', all_varchar = true)");
    expect(csvScan("r.csv", "all_varchar = true", true)).toBe("read_csv('r.csv', header = true, all_varchar = true)");
  });

  it("loads the same dataset as the comma-separated file", async () => {
    const csv = (await loadDataset(write("runs.csv", ",", rows()), ROLES)).table;
    const tsv = (await loadDataset(write("runs.tsv", "\t", rows()), ROLES)).table;
    expect(tsv.count).toBe(12);
    expect(Array.from(tsv.runs)).toEqual(Array.from(csv.runs));
    expect(Array.from(tsv.offsets)).toEqual(Array.from(csv.offsets));
    expect(Array.from(tsv.inputs)).toEqual(Array.from(csv.inputs));
  });

  it("a ragged row: E_BAD_CSV on its file line, the remedy naming tab-separated fields", async () => {
    const body = rows();
    body[6] = [...body[6], "99"];
    const e = await loadDataset(write("ragged.tsv", "\t", body), ROLES).catch((x: unknown) => x);
    expect(isVarmapError(e)).toBe(true);
    const err = e as { code: string; remedy?: string; location?: { row?: number } };
    expect(err.code).toBe("E_BAD_CSV");
    expect(err.location?.row).toBe(8);
    expect(err.remedy).toContain("tab-separated");
  });

  it("a non-numeric input is located by file line and column", async () => {
    const body = rows();
    body[3][1] = "three";
    const e = await loadDataset(write("text.tsv", "\t", body), ROLES).catch((x: unknown) => x);
    const err = e as { code: string; location?: { row?: number; column?: string } };
    expect(err.code).toBe("E_NON_NUMERIC");
    expect(err.location).toMatchObject({ row: 5, column: "x" });
  });

  it("a file of another separator under .csv: the missing-column error says which and how to fix it", async () => {
    for (const [name, sep, hint] of [
      ["semi.csv", ";", /semicolon-separated.*tr ';' ','/],
      ["tabbed.csv", "\t", /tab-separated.*rename it to \.tsv/],
    ] as const) {
      const e = await loadDataset(write(name, sep, rows()), ROLES).catch((x: unknown) => x);
      expect(e).toMatchObject({ code: "E_MISSING_COLUMN" });
      expect((e as { remedy: string }).remedy).toMatch(hint);
    }
    const plain = await loadDataset(write("other.csv", ",", rows()), { ...ROLES, response: "tput" }).catch((x: unknown) => x);
    expect((plain as { remedy: string }).remedy).toMatch(/^name existing columns/);
  });

  it("small tables (predict --at, whatif --at; DuckDB sniffed tabs here before, now they are told): cells as written", async () => {
    const file = join(dir, "at.tab");
    writeFileSync(file, "g\tx\tz\na\t1.5\t0.25\nb\t3e0\t\n");
    expect(await readFileRows(file, "the configurations")).toEqual([
      { g: "a", x: "1.5", z: "0.25" },
      { g: "b", x: "3e0", z: null },
    ]);
  });
});

describe("gzip-compressed files", () => {
  it("load like the plain file, file lines included (a blank line shifts them)", async () => {
    const plain = (await loadDataset(write("blank.csv", ",", rows(), true), ROLES)).table;
    for (const [name, sep] of [
      ["blank.csv.gz", ","],
      ["blank.tsv.gz", "\t"],
    ]) {
      const gz = (await loadDataset(write(name, sep, rows(), true), ROLES)).table;
      expect(Array.from(gz.runs)).toEqual(Array.from(plain.runs));
      expect(Array.from(gz.inputs)).toEqual(Array.from(plain.inputs));
      expect(Array.from(gz.firstRow ?? [])).toEqual(Array.from(plain.firstRow ?? []));
    }
    expect(plain.firstRow?.[0]).toBe(3); // header, blank line, then the first run
  });

  it("a bad row is located on its line of the decompressed text", async () => {
    const body = rows();
    body[3][4] = "fast";
    const e = await loadDataset(write("bad.csv.gz", ",", body, true), ROLES).catch((x: unknown) => x);
    expect(isVarmapError(e)).toBe(true);
    expect((e as { location?: { row?: number } }).location?.row).toBe(6);
    const ragged = rows();
    ragged[6] = [...ragged[6], "99"];
    const r = await loadDataset(write("ragged.tsv.gz", "\t", ragged), ROLES).catch((x: unknown) => x);
    expect(r).toMatchObject({ code: "E_BAD_CSV", location: { row: 8 } });
  });

  it("headOfFile gives the text of a gzip file's first bytes, even cut short", () => {
    const file = write("head.csv.gz", ",", rows());
    const whole = readFileSync(file);
    writeFileSync(join(dir, "cut.csv.gz"), whole.subarray(0, Math.ceil(whole.length / 2)));
    expect(headOfFile(join(dir, "cut.csv.gz"))?.toString("utf8").split("\n")[0]).toBe("g,x,z,run,y");
    expect(headOfFile(file)?.toString("utf8")).toBe(text(",", rows()));
    expect(headOfFile(join(dir, "r.csv.zst"))).toBeUndefined();
  });
});
