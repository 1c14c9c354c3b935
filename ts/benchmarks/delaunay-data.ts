// Inputs of the Delaunay benchmarks: the synthetic interpolation problems and the MOANA map with its 180 splits
// from ../shared/golden (VARMAP_SHARED overrides the path), or, without them, generated problems of the same
// shape (x uniform in [0,1]^d; inside queries are convex combinations of data points, outside ones leave the cube).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { uniform } from "./inputs.js";
import { sharedDir } from "./shared-dir.js";

export const sharedGolden = join(sharedDir(), "golden");

function readNumbers(path: string): { cols: string[]; rows: number[][] } {
  const [head, ...lines] = readFileSync(path, "utf8")
    .split(/\r?\n/)
    .filter((l) => l.length > 0);
  return { cols: head.split(","), rows: lines.map((l) => l.split(",").map(Number)) };
}

export interface SyntheticProblem {
  d: number;
  n: number;
  X: Float64Array;
  /** 1,000 inside the hull then 100 outside. */
  Q: Float64Array;
  source: "golden" | "generated";
}

export function syntheticProblem(d: number, n: number): SyntheticProblem {
  const train = join(sharedGolden, `synthetic-d${d}-n${n}-train.csv`);
  const query = join(sharedGolden, `synthetic-d${d}-query.csv`);
  if (existsSync(train) && existsSync(query)) {
    const t = readNumbers(train);
    const q = readNumbers(query);
    const tc = t.cols.indexOf("x1");
    const qc = q.cols.indexOf("x1");
    const X = new Float64Array(t.rows.length * d);
    t.rows.forEach((r, i) => X.set(r.slice(tc, tc + d), i * d));
    const Q = new Float64Array(q.rows.length * d);
    q.rows.forEach((r, i) => Q.set(r.slice(qc, qc + d), i * d));
    return { d, n, X, Q, source: "golden" };
  }
  const X = uniform(n * d, 1000 + d);
  const r = uniform(1100 * (d + 3), 2000 + d);
  const Q = new Float64Array(1100 * d);
  for (let i = 0; i < 1100; i++) {
    const a = Math.floor(r[i * 3] * n);
    const b = Math.floor(r[i * 3 + 1] * n);
    const s = r[i * 3 + 2];
    for (let k = 0; k < d; k++)
      Q[i * d + k] = i < 1000 ? s * X[a * d + k] + (1 - s) * X[b * d + k] : k === i % d ? 1.05 + r[3300 + i * d + k] * 0.2 : X[a * d + k];
  }
  return { d, n, X, Q, source: "generated" };
}

/** The first `inside` inside queries and the first `outside` outside ones. */
export function querySubset(p: SyntheticProblem, inside: number, outside: number): Float64Array {
  const out = new Float64Array((inside + outside) * p.d);
  out.set(p.Q.subarray(0, inside * p.d));
  out.set(p.Q.subarray(1000 * p.d, (1000 + outside) * p.d), inside * p.d);
  return out;
}

export interface MoanaSplits {
  X: Float64Array;
  y: Float64Array;
  n: number;
  splits: { p: number; rep: number; train: number[] }[];
}

/** The 864-configuration map (u_* inputs, sd) and its 180 splits, or undefined without ../shared. */
export function moanaSplits(): MoanaSplits | undefined {
  const mapPath = join(sharedGolden, "moana-map.csv");
  const splitPath = join(sharedGolden, "moana-splits.json");
  if (!existsSync(mapPath) || !existsSync(splitPath)) return undefined;
  const m = readNumbers(mapPath);
  const cols = ["u_freq", "u_threads", "u_fsize", "u_rsize"].map((c) => m.cols.map((x) => x.trim()).indexOf(c));
  const sd = m.cols.map((x) => x.trim()).indexOf("sd");
  const X = new Float64Array(m.rows.length * 4);
  const y = new Float64Array(m.rows.length);
  m.rows.forEach((r, i) => {
    cols.forEach((c, k) => (X[i * 4 + k] = r[c]));
    y[i] = r[sd];
  });
  const splits = (JSON.parse(readFileSync(splitPath, "utf8")) as MoanaSplits).splits;
  return { X, y, n: m.rows.length, splits };
}

/** Training and test inputs of one split (training rows in ascending index order, as DelaunaySparse got them). */
export function splitInputs(m: MoanaSplits, train: number[]): { Xt: Float64Array; Xq: Float64Array; test: number[] } {
  const inTrain = new Set(train);
  const test: number[] = [];
  for (let i = 0; i < m.n; i++) if (!inTrain.has(i)) test.push(i);
  const Xt = new Float64Array(train.length * 4);
  train.forEach((t, i) => Xt.set(m.X.subarray(t * 4, t * 4 + 4), i * 4));
  const Xq = new Float64Array(test.length * 4);
  test.forEach((t, i) => Xq.set(m.X.subarray(t * 4, t * 4 + 4), i * 4));
  return { Xt, Xq, test };
}
