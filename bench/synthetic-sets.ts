// The synthetic interpolation sets of ../shared/golden (f = Σ sin(3 x_j), x uniform in [0,1]^d; 1,100 queries, the
// first 1,000 inside the hull), shared by the local-variant workloads (bench/rbf-local-workload.ts,
// bench/gp-local-workload.ts).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { matrix, type Matrix } from "../ts/predict/matrix.js";

function readRows(path: string): number[][] {
  const [, ...lines] = readFileSync(path, "utf8").trim().split("\n");
  return lines.map((l) => l.split(",").map(Number));
}

export interface SyntheticSet {
  /** Training points of the 10,000-point set (the first n of them: data(n)). */
  data(n: number): { X: Matrix; y: Float64Array };
  size: number;
  queries: Matrix;
  truth: number[];
}

export function syntheticSet(golden: string, d: number): SyntheticSet {
  const train = readRows(join(golden, `synthetic-d${d}-n10000-train.csv`));
  const query = readRows(join(golden, `synthetic-d${d}-query.csv`));
  return {
    data: (n) => ({
      X: matrix(Float64Array.from(train.slice(0, n).flatMap((r) => r.slice(1, d + 1))), n, d),
      y: Float64Array.from(train.slice(0, n), (r) => r[d + 1]),
    }),
    size: train.length,
    queries: matrix(Float64Array.from(query.flatMap((r) => r.slice(1, d + 1))), query.length, d),
    truth: query.map((r) => r[d + 2]),
  };
}

/** RMSE and mean relative error at the queries inside the hull (the first 1,000). */
export function accuracy(pred: Float64Array, truth: number[], rows = 1000): string {
  let se = 0,
    re = 0;
  for (let i = 0; i < rows; i++) {
    se += (pred[i] - truth[i]) ** 2;
    re += Math.abs(pred[i] - truth[i]) / Math.abs(truth[i]);
  }
  return `RMSE ${Math.sqrt(se / rows).toExponential(3)}, mean rel. error ${((100 * re) / rows).toFixed(3)} %`;
}

/** Largest relative difference of two predictions at the 1,000 inside queries. */
export function largestRelativeDifference(a: Float64Array, b: Float64Array): number {
  let diff = 0;
  for (let i = 0; i < 1000; i++) diff = Math.max(diff, Math.abs(a[i] - b[i]) / Math.abs(b[i]));
  return diff;
}

export const seconds = (t: { wall: number; cpu: number }): string => `${t.wall.toFixed(2)} s wall / ${t.cpu.toFixed(2)} s CPU`;
