// summarize's DuckDB aggregate (ts/data/aggregate.ts, issue 46 / issue 44 item 18): the same statistics as the full
// read within the stated tolerance, the same bytes whatever the row order, and the full read's errors (with file
// rows) whenever the input is bad.
import { describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { aggregateConfigs } from "../../ts/data/aggregate.js";
import { loadDataset } from "../../ts/data/load.js";
import { QUANTILE_NAMES } from "../../ts/data/types.js";
import { runSummarize } from "../../ts/verbs/summarize.js";
import { VarmapError } from "../../ts/errors.js";

const dir = mkdtempSync(join(tmpdir(), "varmap-agg-"));
const ROLES = { factors: ["g"], inputs: ["x", "z"], run: "run", response: "y" };

/** Runs of 2 factor values × 6 × 3 configurations, 2..9 runs each, large tightly spread values (a hard case for sums). */
function runs(): string[] {
  const lines: string[] = [];
  let s = 12345;
  const rnd = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (const g of ["a", "b"])
    for (let x = 1; x <= 6; x++)
      for (let z = 0; z < 3; z++) {
        const n = 2 + ((x + z) % 8);
        for (let r = 1; r <= n; r++) lines.push(`${g},${x},${z * 0.5},${r},${(1e6 * x + rnd() * 100 * (z + 1)).toFixed(3)}`);
      }
  return lines;
}

function write(name: string, rows: string[]): string {
  const p = join(dir, name);
  writeFileSync(p, ["g,x,z,run,y", ...rows].join("\n") + "\n");
  return p;
}

describe("summarize's DuckDB aggregate", () => {
  it("gives the full read's statistics: n, min, max, quantiles bit-identical; moments within 1e-12 (skewness: 1e-13·|mean|/sd)", async () => {
    const file = write("runs.csv", runs());
    const agg = await aggregateConfigs(file, ROLES, { stat: "sd", allowDuplicateRuns: false });
    expect(agg).toBeDefined();
    const full = await loadDataset(file, { ...ROLES });
    const a = agg!.stats;
    const b = full.stats;
    expect(agg!.table.count).toBe(full.table.count);
    expect(agg!.runs).toBe(full.table.runs.length);
    expect(agg!.table.factorValues).toEqual(full.table.factorValues);
    expect(Array.from(agg!.table.inputs)).toEqual(Array.from(full.table.inputs));
    expect(Array.from(a.n)).toEqual(Array.from(b.n));
    expect(Array.from(a.min)).toEqual(Array.from(b.min));
    expect(Array.from(a.max)).toEqual(Array.from(b.max));
    for (const q of QUANTILE_NAMES) expect(Array.from(a.quantiles[q])).toEqual(Array.from(b.quantiles[q]));
    const rel = (u: Float64Array, v: Float64Array) =>
      Math.max(...Array.from(u, (x, i) => (Number.isNaN(x) && Number.isNaN(v[i]) ? 0 : Math.abs(x - v[i]) / Math.abs(v[i]))));
    for (const k of ["mean", "sd", "var", "ci90"] as const) expect(rel(a[k], b[k])).toBeLessThan(1e-12);
    // Skewness is dimensionless and may be near 0: absolute, scaled by |mean| / sd (a last-bit change of the mean
    // moves every deviation by |mean|·1e-16, i.e. the skewness by about 3·1e-16·|mean|/sd).
    const worst = Math.max(
      ...Array.from(a.skewness, (x, i) => (Number.isNaN(x) && Number.isNaN(b.skewness[i]) ? 0 : Math.abs(x - b.skewness[i]) / (Math.abs(b.mean[i]) / b.sd[i]))),
    );
    expect(worst).toBeLessThan(1e-13);
    expect(agg!.maps.map((m) => [m.key, m.rows, m.inputNames])).toEqual(full.maps.map((m) => [m.key, m.rows, m.inputNames]));
  });

  it("aggregates in slices of configurations when the file is large: the same statistics", async () => {
    for (const file of [write("slices.csv", runs())]) {
      const one = await aggregateConfigs(file, ROLES, { stat: "sd", allowDuplicateRuns: false });
      const sliced = await aggregateConfigs(file, ROLES, { stat: "sd", allowDuplicateRuns: false, rowsPerPass: 40 });
      expect(sliced!.stats).toEqual(one!.stats);
      expect(sliced!.table.factorValues).toEqual(one!.table.factorValues);
      expect(Array.from(sliced!.table.inputs)).toEqual(Array.from(one!.table.inputs));
    }
  });

  it("writes the same bytes whether the rows are grouped by configuration or shuffled", async () => {
    const rows = runs();
    const shuffled = rows
      .map((r, i) => [(i * 7919) % rows.length, r] as const)
      .sort((p, q) => p[0] - q[0])
      .map((p) => p[1]);
    const outs: string[] = [];
    for (const [name, rs] of [
      ["grouped.csv", rows],
      ["shuffled.csv", shuffled],
    ] as const) {
      const out = join(dir, `${name}.summary.csv`);
      const s = await runSummarize(write(name, rs), { data: { ...ROLES }, out, quiet: true });
      expect(s.runs).toBe(rows.length);
      outs.push(readFileSync(out, "utf8"));
    }
    expect(outs[1]).toBe(outs[0]);
  });

  it("drops configurations with too few runs with the full read's note and count", async () => {
    const file = write("short.csv", [...runs(), "c,1,0,1,5"]);
    const notesA: string[] = [];
    const notesB: string[] = [];
    const a = await aggregateConfigs(file, ROLES, { stat: "sd", allowDuplicateRuns: false, note: (m) => notesA.push(m) });
    const b = await loadDataset(file, { ...ROLES, note: (m) => notesB.push(m) });
    expect(a!.dropped).toBe(1);
    expect(a!.dropped).toBe(b.dropped);
    expect(notesA).toEqual(notesB);
  });

  it("leaves bad input to the full read: repeated run index, bad value, empty factor (errors with their rows)", async () => {
    const base = runs();
    const dup = write("dup.csv", [...base.slice(0, 3), base[0], ...base.slice(3)]);
    expect(await aggregateConfigs(dup, ROLES, { stat: "sd", allowDuplicateRuns: false })).toBeUndefined();
    const e1 = await runSummarize(dup, { data: { ...ROLES }, quiet: true }).catch((e) => e);
    expect(e1).toBeInstanceOf(VarmapError);
    expect([e1.code, e1.location.row]).toEqual(["E_DUPLICATE_RUN", 5]);
    // Allowed repeats: aggregated, noted as the full read notes them.
    const notes: string[] = [];
    const ok = await aggregateConfigs(dup, ROLES, { stat: "sd", allowDuplicateRuns: true, note: (m) => notes.push(m) });
    expect(ok).toBeDefined();
    expect(notes.join("\n")).toMatch(/1 configuration\(s\) repeat run indices in 'run'/);
    const bad = write("bad.csv", [...base.slice(0, 9), "a,1,0,99,fast", ...base.slice(9)]);
    expect(await aggregateConfigs(bad, ROLES, { stat: "sd", allowDuplicateRuns: false })).toBeUndefined();
    const e2 = await runSummarize(bad, { data: { ...ROLES }, quiet: true }).catch((e) => e);
    expect([e2.code, e2.location.row, e2.location.column]).toEqual(["E_BAD_RESPONSE", 11, "y"]);
    const empty = write("empty.csv", [...base.slice(0, 4), ",1,0,77,5", ...base.slice(4)]);
    expect(await aggregateConfigs(empty, ROLES, { stat: "sd", allowDuplicateRuns: false })).toBeUndefined();
    const e3 = await runSummarize(empty, { data: { ...ROLES }, quiet: true }).catch((e) => e);
    expect([e3.code, e3.location.row]).toEqual(["E_EMPTY_FACTOR", 6]);
  });
});

describe("JSON tables written row by row", () => {
  it("are the bytes of JSON.stringify(rows, null, 1), NaN as null, text with quotes and line breaks", async () => {
    const { writeTable } = await import("../../ts/data/write.js");
    const out = join(dir, "t.json");
    const names = ["a", 'b "q"\nc', ""];
    await writeTable(out, [
      { name: "name", values: names },
      { name: "v", values: Float64Array.from([1.5, Number.NaN, -0.1]) },
      { name: "n", values: Int32Array.from([1, 2, 3]) },
    ]);
    const want =
      JSON.stringify(
        names.map((s, i) => ({ name: s, v: [1.5, null, -0.1][i], n: i + 1 })),
        null,
        1,
      ) + "\n";
    expect(readFileSync(out, "utf8")).toBe(want);
    await writeTable(out, [{ name: "x", values: [] }]);
    expect(readFileSync(out, "utf8")).toBe("[]\n");
  });
});
