// `varmap screen`: per configuration, is the run distribution normal (Shapiro–Wilk), unimodal (Hartigans' dip),
// how skewed and heavy-tailed, and do successive runs drift (lag-1 autocorrelation, runs test)? Per map, the share
// of configurations rejected at a false discovery rate (Benjamini–Hochberg within the map).
import type { ConfigTable } from "../data/types.js";
import { factorGroups } from "../data/maps.js";
import { dipTest } from "./dip.js";
import { bhAdjust, lag1, runsTest, shape } from "./moments.js";
import { shapiroWilk } from "./shapiro.js";

export interface ScreenColumns {
  n: Int32Array;
  distinct: Int32Array;
  mean: Float64Array;
  sd: Float64Array;
  swW: Float64Array;
  swP: Float64Array;
  swQ: Float64Array;
  dip: Float64Array;
  dipP: Float64Array;
  dipQ: Float64Array;
  skewness: Float64Array;
  skewnessSe: Float64Array;
  kurtosis: Float64Array;
  kurtosisSe: Float64Array;
  lag1: Float64Array;
  runs: Int32Array;
  runsZ: Float64Array;
  runsP: Float64Array;
  runsQ: Float64Array;
}

export interface ScreenMapShare {
  /** Factor name → value (empty without factors). */
  key: Record<string, string>;
  configurations: number;
  /** Configurations each test could be run on (SW: 3…5000 runs, > 2 distinct values; dip: > 3 runs; runs: both sides of the median). */
  tested: { normal: number; modes: number; drift: number };
  /** Shares (0…1) of the tested configurations with BH-adjusted p < alpha. */
  notNormal: number;
  multimodal: number;
  drift: number;
  /** Shares with the unadjusted p < alpha (R's shapiro.test / dip.test / runs.test one at a time). */
  notNormalRaw: number;
  multimodalRaw: number;
  driftRaw: number;
}

export interface ScreenResult {
  columns: ScreenColumns;
  maps: ScreenMapShare[];
  /** Over all configurations: shares of the tested with BH-adjusted (within map) p < alpha. */
  overall: { configurations: number; notNormal: number; multimodal: number; drift: number; notNormalRaw: number; multimodalRaw: number; driftRaw: number };
  alpha: number;
}

/** Shapiro–Wilk is left out (NaN) where the runs take at most this many distinct values (ties make W meaningless). */
export const SW_MIN_DISTINCT = 3;

export function screenTable(table: ConfigTable, alpha = 0.05): ScreenResult {
  const C = table.count;
  const f = () => new Float64Array(C).fill(Number.NaN);
  const cols: ScreenColumns = {
    n: new Int32Array(C),
    distinct: new Int32Array(C),
    mean: f(),
    sd: f(),
    swW: f(),
    swP: f(),
    swQ: f(),
    dip: f(),
    dipP: f(),
    dipQ: f(),
    skewness: f(),
    skewnessSe: f(),
    kurtosis: f(),
    kurtosisSe: f(),
    lag1: f(),
    runs: new Int32Array(C),
    runsZ: f(),
    runsP: f(),
    runsQ: f(),
  };
  let maxN = 0;
  for (let c = 0; c < C; c++) maxN = Math.max(maxN, table.offsets[c + 1] - table.offsets[c]);
  const sortedBuf = new Float64Array(maxN);
  const scratch = new Int32Array(4 * (maxN + 1));
  for (let c = 0; c < C; c++) {
    const a = table.offsets[c];
    const n = table.offsets[c + 1] - a;
    const runs = table.runs.subarray(a, a + n);
    const sorted = sortedBuf.subarray(0, n);
    sorted.set(runs);
    sorted.sort();
    let distinct = n > 0 ? 1 : 0;
    for (let i = 1; i < n; i++) if (sorted[i] !== sorted[i - 1]) distinct++;
    let sum = 0;
    for (let i = 0; i < n; i++) sum += runs[i];
    const mean = sum / n;
    let ss = 0;
    for (let i = 0; i < n; i++) ss += (runs[i] - mean) ** 2;
    cols.n[c] = n;
    cols.distinct[c] = distinct;
    cols.mean[c] = mean;
    cols.sd[c] = n > 1 ? Math.sqrt(ss / (n - 1)) : Number.NaN;
    if (distinct >= SW_MIN_DISTINCT) {
      const sw = shapiroWilk(sorted);
      cols.swW[c] = sw.w;
      cols.swP[c] = sw.p;
    }
    if (n > 0) {
      const d = dipTest(sorted, scratch);
      cols.dip[c] = d.dip;
      cols.dipP[c] = d.p;
    }
    const sh = shape(runs, mean);
    cols.skewness[c] = sh.skewness;
    cols.skewnessSe[c] = sh.skewnessSe;
    cols.kurtosis[c] = sh.kurtosis;
    cols.kurtosisSe[c] = sh.kurtosisSe;
    cols.lag1[c] = lag1(runs, mean);
    const median = n % 2 ? sorted[(n - 1) / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    const rt = runsTest(runs, median);
    cols.runs[c] = rt.runs;
    cols.runsZ[c] = rt.z;
    cols.runsP[c] = rt.p;
  }
  const maps: ScreenMapShare[] = [];
  const all = new Counts();
  for (const [k, members] of factorGroups(table, () => true)) {
    const values = JSON.parse(k) as string[];
    const key = Object.fromEntries(table.roles.factors.map((name, i) => [name, values[i]]));
    const adjust = (p: Float64Array, q: Float64Array) => {
      const adj = bhAdjust(members.map((c) => p[c]));
      members.forEach((c, i) => (q[c] = adj[i]));
    };
    adjust(cols.swP, cols.swQ);
    adjust(cols.dipP, cols.dipQ);
    adjust(cols.runsP, cols.runsQ);
    const m = new Counts();
    for (const c of members) {
      m.add(cols, c, alpha);
      all.add(cols, c, alpha);
    }
    maps.push({ key, configurations: members.length, tested: { normal: m.tested[0], modes: m.tested[1], drift: m.tested[2] }, ...m.shares() });
  }
  return { columns: cols, maps, overall: { configurations: C, ...all.shares() }, alpha };
}

class Counts {
  tested = [0, 0, 0];
  adj = [0, 0, 0];
  raw = [0, 0, 0];
  add(cols: ScreenColumns, c: number, alpha: number): void {
    const tests: [Float64Array, Float64Array][] = [
      [cols.swP, cols.swQ],
      [cols.dipP, cols.dipQ],
      [cols.runsP, cols.runsQ],
    ];
    tests.forEach(([p, q], t) => {
      if (Number.isNaN(p[c])) return;
      this.tested[t]++;
      if (q[c] < alpha) this.adj[t]++;
      if (p[c] < alpha) this.raw[t]++;
    });
  }
  shares() {
    const s = (k: number, t: number) => (this.tested[t] ? k / this.tested[t] : Number.NaN);
    return {
      notNormal: s(this.adj[0], 0),
      multimodal: s(this.adj[1], 1),
      drift: s(this.adj[2], 2),
      notNormalRaw: s(this.raw[0], 0),
      multimodalRaw: s(this.raw[1], 1),
      driftRaw: s(this.raw[2], 2),
    };
  }
}

/** "x % of configurations are not normal, y % multimodal, z % drift" (BH-adjusted shares of those tested). */
export function screenHeadline(r: ScreenResult): string {
  const pct = (v: number) => (Number.isNaN(v) ? "n/a" : `${(100 * v).toFixed(1)} %`);
  const o = r.overall;
  return `${pct(o.notNormal)} of configurations are not normal, ${pct(o.multimodal)} multimodal, ${pct(o.drift)} drift (Benjamini–Hochberg within each map, FDR ${r.alpha})`;
}
