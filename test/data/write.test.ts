import { describe, expect, it } from "vitest";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeAtomic, writeJsonAtomic, writeTable } from "../../ts/data/write.js";
import { openDb, queryRows } from "../../ts/data/duckdb.js";

const dir = mkdtempSync(join(tmpdir(), "varmap-write-"));
const nums = [0.1 + 0.2, 1e-300, -0, 123456789.123456789, Math.PI, NaN, -Infinity, 2 ** 53 + 2, 5e-324];
const strs = ["plain", "with,comma", 'with "quote"', "", "a\nb", "x", "y", "z", "w"];

async function readBack(path: string, fmt: string): Promise<Record<string, unknown>[]> {
  const db = await openDb();
  try {
    return await queryRows(
      db.con,
      fmt === "parquet" ? `SELECT * FROM read_parquet('${path}')` : `SELECT * FROM read_csv('${path}', header = true, types = {'v': 'DOUBLE', 's': 'VARCHAR'})`,
    );
  } finally {
    db.close();
  }
}

describe("writeTable", () => {
  it.each(["csv", "parquet"])("%s round-trips doubles exactly", async (fmt) => {
    const path = join(dir, `t.${fmt}`);
    await writeTable(path, [
      { name: "v", values: nums },
      { name: "s", values: strs },
      { name: "n", values: Int32Array.from(nums.map((_, i) => i)) },
    ]);
    const rows = await readBack(path, fmt);
    expect(rows.length).toBe(nums.length);
    rows.forEach((r, i) => {
      if (Number.isNaN(nums[i])) expect(Number.isNaN(r.v as number)).toBe(true);
      else expect(Object.is(r.v, nums[i]) || (r.v === 0 && nums[i] === 0)).toBe(true);
      expect(r.s ?? "").toBe(strs[i]);
      expect(Number(r.n)).toBe(i);
    });
  });

  it("csv numbers use the shortest round-trip form", async () => {
    const path = join(dir, "s.csv");
    await writeTable(path, [{ name: "v", values: [0.1 + 0.2, 1 / 3, 100] }]);
    expect(readFileSync(path, "utf8")).toBe("v\n0.30000000000000004\n0.3333333333333333\n100\n");
  });

  it("json: array of row objects, non-finite numbers as null", async () => {
    const path = join(dir, "t.json");
    await writeTable(path, [
      { name: "a", values: [1.5, NaN] },
      { name: "b", values: ["x", "y"] },
    ]);
    expect(JSON.parse(readFileSync(path, "utf8"))).toEqual([
      { a: 1.5, b: "x" },
      { a: null, b: "y" },
    ]);
    await writeJsonAtomic(join(dir, "o.json"), { k: [1, 2] });
    expect(JSON.parse(readFileSync(join(dir, "o.json"), "utf8"))).toEqual({ k: [1, 2] });
  });

  it("a failure leaves neither the output nor a temporary file", async () => {
    const sub = mkdtempSync(join(dir, "fail-"));
    const path = join(sub, "out.csv");
    await expect(
      writeAtomic(path, () => {
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(existsSync(path)).toBe(false);
    expect(readdirSync(sub)).toEqual([]);
    await expect(writeTable(join(sub, "x.txt"), [{ name: "a", values: [1] }])).rejects.toThrow(/\.csv, \.tsv, \.json or \.parquet/);
    expect(readdirSync(sub)).toEqual([]);
  });
});
