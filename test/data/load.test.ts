import { describe, expect, it } from "vitest";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadDataset } from "../../ts/data/load.js";
import { configStats, quantile7, tQuantile } from "../../ts/data/stats.js";
import { normalizeInputs } from "../../ts/data/maps.js";
import { readConfigTable } from "../../ts/data/read.js";
import { presetOf } from "../../ts/data/presets.js";
import { dataPath, goldenPath, hasShared, readCsv, sharedSkipReason } from "../helpers/shared.js";
import { relErr } from "../helpers/backends.js";

const dir = mkdtempSync(join(tmpdir(), "varmap-load-"));
function file(name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}

describe.skipIf(!hasShared)(`real data (${hasShared ? "../shared present" : sharedSkipReason})`, () => {
  it("moana-cfq-noop-fread.csv: 1 map × 864 configurations × 40 runs; sd and u_* equal the golden map", async () => {
    const { table, maps } = await loadDataset(dataPath("moana-cfq-noop-fread.csv"), { preset: "moana" });
    expect(table.count).toBe(864);
    expect(table.runs.length).toBe(864 * 40);
    expect(maps.length).toBe(1);
    const m = maps[0];
    expect(m.key).toEqual({ host_sched: "CFQ", vm_sched: "NOOP", mode: "fread" });
    expect(m.rows).toBe(864);
    expect(m.inputNames).toEqual(["freq_khz", "threads", "fsize_kb", "rsize_kb"]);
    const golden = readCsv(goldenPath("moana-map.csv"));
    expect(golden.length).toBe(864);
    const u = ["u_freq", "u_threads", "u_fsize", "u_rsize"];
    let worstSd = 0;
    let worstU = 0;
    for (let r = 0; r < 864; r++) {
      const g = golden[r];
      expect(m.ids[r]).toBe(r); // configurations in the golden index order (inputs ascending)
      expect([...m.X.subarray(r * 4, r * 4 + 4)]).toEqual([g.freq_khz, g.threads, g.fsize_kb, g.rsize_kb]);
      expect(table.offsets[r + 1] - table.offsets[r]).toBe(g.n_runs);
      worstSd = Math.max(worstSd, relErr(m.y[r], g.sd as number));
      for (let j = 0; j < 4; j++) worstU = Math.max(worstU, Math.abs(m.U[r * 4 + j] - (g[u[j]] as number)));
    }
    expect(worstSd).toBeLessThanOrEqual(1e-12);
    expect(worstU).toBeLessThanOrEqual(1e-15);
    // The stored normalization maps raw inputs to U again.
    expect(normalizeInputs(m, m.X)).toEqual(m.U);
  });

  it("iozone-2018.csv: 274 configurations with the run counts of mixture-config-stats.csv", async () => {
    const notes: string[] = [];
    const { table, stats } = await loadDataset(dataPath("iozone-2018.csv"), { preset: "iozone", note: (m) => notes.push(m) });
    expect(table.count).toBe(274);
    const golden = readCsv(goldenPath("mixture-config-stats.csv"));
    expect(golden.length).toBe(274);
    const key = (vals: (string | number)[]) => vals.join("|");
    const want = new Map(golden.map((g) => [key([g.dataset, g.host, g.test, g.freq_khz, g.threads, g.fsize_kb, g.rsize_kb]), g]));
    for (let c = 0; c < table.count; c++) {
      const k = key([table.factorValues[0][c], table.factorValues[1][c], table.factorValues[2][c], ...table.inputs.subarray(c * 4, c * 4 + 4)]);
      const g = want.get(k);
      expect(g, k).toBeDefined();
      expect(stats.n[c]).toBe(g!.n);
      expect(relErr(stats.mean[c], g!.mean as number)).toBeLessThan(1e-12);
      expect(relErr(stats.sd[c], g!.sd as number)).toBeLessThan(1e-12);
    }
    expect(notes.some((n) => /15 configuration\(s\) repeat run indices/.test(n))).toBe(true);
  });

  it("grouping by the full key (the hash-collision fallback) gives the same table", async () => {
    const p = presetOf("iozone");
    const a = await readConfigTable(dataPath("iozone-2018.csv"), p.roles, { allowDuplicateRuns: true });
    const b = await readConfigTable(dataPath("iozone-2018.csv"), p.roles, { allowDuplicateRuns: true, groupByFullKey: true });
    expect(b).toEqual(a);
  });

  it("reads an aggregated map (--map --id) and a --where selection", async () => {
    const { maps } = await loadDataset(goldenPath("moana-map.csv"), {
      map: true,
      inputs: ["freq_khz", "threads", "fsize_kb", "rsize_kb"],
      response: "sd",
      id: "index",
    });
    expect(maps[0].rows).toBe(864);
    expect(maps[0].ids.slice(0, 3)).toEqual([0, 1, 2]);
    const golden = readCsv(goldenPath("moana-map.csv"));
    expect(maps[0].y[5]).toBe(golden[5].sd);
    const sel = await loadDataset(dataPath("moana-cfq-noop-fread.csv"), { preset: "moana", where: "threads >= 64 AND freq_khz < 3001000" });
    expect(sel.table.count).toBe(15 * 3 * 6);
  });
});

describe("maps", () => {
  const csv = [
    "site,x,c,k,run,y",
    ...[1, 2, 4, 8].flatMap((x, i) => [1, 2, 3].map((r) => `a,${x},5,${i % 2},${r},${x * 10 + r * r}`)),
    ...[1, 2].flatMap((x) => [1, 2].map((r) => `b,${x},7,1,${r},${x + r}`)),
  ].join("\n");

  it("groups by factors, normalizes to [0,1] or log2 then [0,1], drops constant columns with a note", async () => {
    const notes: string[] = [];
    const { maps } = await loadDataset(file("m.csv", csv), {
      factors: ["site"],
      inputs: ["x", "c", "k"],
      run: "run",
      response: "y",
      logInputs: ["x"],
      note: (m) => notes.push(m),
    });
    expect(maps.map((m) => m.key.site)).toEqual(["a", "b"]);
    const a = maps[0];
    expect(a.inputNames).toEqual(["x", "k"]);
    expect(a.normalization).toEqual({ log2: [true, false], lo: [0, 0], hi: [3, 1] });
    expect([...a.U]).toEqual([0, 0, 1 / 3, 1, 2 / 3, 0, 1, 1]);
    expect(notes.filter((n) => /'c' is constant/.test(n)).length).toBe(2);
    expect(maps[1].inputNames).toEqual(["x"]);
    // sd of runs x*10 + {1,4,9}: sd(1,4,9) regardless of x
    const sd = Math.sqrt(((1 - 14 / 3) ** 2 + (4 - 14 / 3) ** 2 + (9 - 14 / 3) ** 2) / 2);
    for (const v of a.y) expect(relErr(v, sd)).toBeLessThan(1e-15);
  });

  it("orders runs by run index, then file row", async () => {
    const p = file("order.csv", "g,x,run,y\nq,1,3,30\nq,1,1,10\nq,1,2,20\nq,2,1,5\nq,2,1,6\n");
    const { table } = await loadDataset(p, { factors: ["g"], inputs: ["x"], run: "run", response: "y", allowDuplicateRuns: true });
    expect([...table.runs]).toEqual([10, 20, 30, 5, 6]);
    expect([...table.offsets]).toEqual([0, 3, 5]);
  });
});

describe("statistics", () => {
  it("matches hand-computed values", () => {
    const runs = Float64Array.from([10, 2, 1, 4, 3, 7, 7]);
    const s = configStats({ count: 2, runs, offsets: Int32Array.from([0, 5, 7]) });
    expect(s.n[0]).toBe(5);
    expect(s.mean[0]).toBe(4);
    expect(s.var[0]).toBe(12.5);
    expect(s.sd[0]).toBe(Math.sqrt(12.5));
    expect(s.min[0]).toBe(1);
    expect(s.max[0]).toBe(10);
    expect(s.quantiles.q10[0]).toBeCloseTo(1.4, 14);
    expect(s.quantiles.q50[0]).toBe(3);
    expect(s.quantiles.q90[0]).toBeCloseTo(7.6, 14);
    // Adjusted Fisher–Pearson: m2 = 10, m3 = 36 → 36/10^1.5 · √20 / 3
    expect(relErr(s.skewness[0], ((36 / Math.pow(10, 1.5)) * Math.sqrt(20)) / 3)).toBeLessThan(1e-14);
    // scipy.stats.t.ppf(0.95, 4) = 2.1318467863266495
    expect(relErr(s.ci90[0], (2 * 2.1318467863266495 * Math.sqrt(12.5)) / Math.sqrt(5))).toBeLessThan(1e-12);
    expect(s.sd[1]).toBe(0);
    expect(Number.isNaN(s.skewness[1])).toBe(true);
  });

  it("type-7 quantiles and t quantiles agree with R / scipy (t to 1e-12: log-gamma limits it)", () => {
    expect(quantile7([1, 2, 3, 4], 0.25)).toBe(1.75);
    expect(quantile7([5], 0.9)).toBe(5);
    expect(relErr(tQuantile(0.95, 1), 6.313751514675037)).toBeLessThan(1e-12);
    expect(relErr(tQuantile(0.95, 39), 1.6848751217112248)).toBeLessThan(1e-12);
    expect(relErr(tQuantile(0.95, 149), 1.655144533797956)).toBeLessThan(1e-12);
  });
});
