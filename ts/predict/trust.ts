// How far to trust a prediction (issue 15, item 3), computed once here for every predictor of the registry, in
// `varmap predict` and in cross-validation alike:
// - extrapolated: the query lies outside the training inputs. Delaunay reports its exact convex-hull test (its
//   simplex search knows); every other method uses the bounding box of the training inputs, a superset of the hull
//   (an exact hull test is a linear program per query: too costly inside cv's hundreds of thousands of
//   predictions). A query inside the box but outside the hull is therefore not flagged for those methods.
// - distance: Euclidean distance to the nearest training point in the model's input space (the inputs after the
//   map's normalization to the unit cube, log2 first where the map says so), so 0.1 means a tenth of an input's range.
// - clamped: a prediction was moved into its admissible range: a negative prediction of a nonnegative statistic
//   (sd, var, ci90, cv: NON_NEGATIVE_STATS) set to 0, or a log-response prediction cut to the safe log range
//   (estimator.ts, logClampBounds), or predicted at a query whose log-scaled input (--log-inputs) lay beyond the
//   training range widened by the same margin, moved onto it (logInputClampBounds). Why clamp and flag rather than only flag: a negative standard deviation is
//   never a usable answer, 0 is the nearest admissible one, and the flag says it was forced.
import type { Matrix } from "./matrix.js";

/**
 * The map statistics that cannot be negative by definition (dispersions; cv = sd/mean of positive runs). Means and
 * quantiles are left alone: a signed metric can have a negative mean, and clamping it would hide a real value.
 */
export const NON_NEGATIVE_STATS: readonly string[] = ["sd", "var", "ci90", "cv"];

/** Whether negative predictions of this map statistic are clamped to 0 (and flagged). */
export function isNonNegativeStat(stat: string | undefined): boolean {
  return stat !== undefined && NON_NEGATIVE_STATS.includes(stat);
}

/** Per query: how far to trust the prediction. */
export interface Trust {
  /** 1 = outside the training inputs (hull for Delaunay, bounding box otherwise). */
  extrapolated: Uint8Array;
  /** Distance to the nearest training point in the model's (normalized) input space; NaN when unknown. */
  distance: Float64Array;
  /** 1 = the value was clamped (negative → 0, or into the safe log range). */
  clamped: Uint8Array;
}

/** Tolerance of the box test in normalized units: a query on the box's face (to rounding) is inside. */
export const BOX_TOLERANCE = 1e-9;

/** 1 for each query outside the bounding box of the training rows (both matrices in the same, normalized space). */
export function outsideBox(train: Matrix, queries: Matrix, tol = BOX_TOLERANCE): Uint8Array {
  const d = train.cols;
  const lo = new Float64Array(d).fill(Infinity);
  const hi = new Float64Array(d).fill(-Infinity);
  for (let i = 0; i < train.rows; i++)
    for (let j = 0; j < d; j++) {
      const v = train.data[i * d + j];
      if (v < lo[j]) lo[j] = v;
      if (v > hi[j]) hi[j] = v;
    }
  return outsideBounds(lo, hi, queries, tol);
}

/**
 * outsideBox(takeRows(Z, train), takeRows(Z, queries)) without gathering the rows: the bounding box of Z's rows
 * `train`, tested at Z's rows `queries` (the same comparisons, so the same flags).
 */
export function outsideBoxOfRows(Z: Matrix, train: ArrayLike<number>, queries: ArrayLike<number>, tol = BOX_TOLERANCE): Uint8Array {
  const d = Z.cols;
  const data = Z.data;
  const lo = new Float64Array(d).fill(Infinity);
  const hi = new Float64Array(d).fill(-Infinity);
  for (let i = 0; i < train.length; i++) {
    const o = train[i] * d;
    for (let j = 0; j < d; j++) {
      const v = data[o + j];
      if (v < lo[j]) lo[j] = v;
      if (v > hi[j]) hi[j] = v;
    }
  }
  const out = new Uint8Array(queries.length);
  for (let i = 0; i < queries.length; i++) {
    const o = queries[i] * d;
    for (let j = 0; j < d; j++) {
      const v = data[o + j];
      if (v < lo[j] - tol || v > hi[j] + tol) {
        out[i] = 1;
        break;
      }
    }
  }
  return out;
}

/** 1 for each query outside [lo, hi] in some coordinate (beyond tol). */
export function outsideBounds(lo: ArrayLike<number>, hi: ArrayLike<number>, queries: Matrix, tol = BOX_TOLERANCE): Uint8Array {
  const d = queries.cols;
  const out = new Uint8Array(queries.rows);
  for (let i = 0; i < queries.rows; i++)
    for (let j = 0; j < d; j++) {
      const v = queries.data[i * d + j];
      if (v < lo[j] - tol || v > hi[j] + tol) {
        out[i] = 1;
        break;
      }
    }
  return out;
}

/** Euclidean distance from each query to its nearest training row (brute force: O(queries × rows × d)). */
export function nearestDistance(train: Matrix, queries: Matrix): Float64Array {
  const d = train.cols;
  const out = new Float64Array(queries.rows);
  for (let q = 0; q < queries.rows; q++) {
    let best = Infinity;
    const qo = q * d;
    for (let i = 0; i < train.rows; i++) {
      const io = i * d;
      let s = 0;
      for (let j = 0; j < d && s < best; j++) {
        const t = queries.data[qo + j] - train.data[io + j];
        s += t * t;
      }
      if (s < best) best = s;
    }
    out[q] = train.rows ? (best < Infinity ? Math.sqrt(best) : scaledNearest(train, queries.data, qo)) : NaN;
  }
  return out;
}

/**
 * Replaces in place each infinite distance of `distance` (one per query: a kernel's squared distances overflowed, a
 * query near ±1e300) by the query's distance to its nearest training row computed without overflow. For a distance to
 * a hull the nearest row is within the hull's diameter of it, nothing at that scale.
 */
export function finiteDistances(train: Matrix, queries: Matrix, distance: Float64Array): Float64Array {
  for (let q = 0; q < distance.length; q++) if (distance[q] === Infinity && train.rows) distance[q] = scaledNearest(train, queries.data, q * train.cols);
  return distance;
}

/** nearestDistance for one query whose squared distances overflow (a query near ±1e300): each scaled by its largest term. */
function scaledNearest(train: Matrix, q: Float64Array, qo: number): number {
  const d = train.cols;
  let best = Infinity;
  for (let i = 0; i < train.rows; i++) {
    let m = 0;
    for (let j = 0; j < d; j++) m = Math.max(m, Math.abs(q[qo + j] - train.data[i * d + j]));
    let s = 0;
    if (m > 0) for (let j = 0; j < d; j++) s += ((q[qo + j] - train.data[i * d + j]) / m) ** 2;
    best = Math.min(best, m * Math.sqrt(s));
  }
  return best;
}

/** Sets negative values to 0 in place; returns the mask of clamped positions (NaN left as it is). */
export function clampNegative(values: Float64Array): Uint8Array {
  const mask = new Uint8Array(values.length);
  for (let i = 0; i < values.length; i++)
    if (values[i] < 0) {
      values[i] = 0;
      mask[i] = 1;
    }
  return mask;
}

/** Warning counts over many predictions (summaries of cv, refit and predict). */
export interface TrustCounts {
  predictions: number;
  extrapolated: number;
  /** Negative predictions of a nonnegative statistic, set to 0. */
  negative: number;
  /** Log-response predictions cut to the safe log range. */
  logClamped: number;
  /** Predictions that are NaN (e.g. Delaunay beyond --max-extrapolation). */
  missing: number;
}

export function emptyCounts(): TrustCounts {
  return { predictions: 0, extrapolated: 0, negative: 0, logClamped: 0, missing: 0 };
}

export function addCounts(a: TrustCounts, b: Partial<TrustCounts>): TrustCounts {
  a.predictions += b.predictions ?? 0;
  a.extrapolated += b.extrapolated ?? 0;
  a.negative += b.negative ?? 0;
  a.logClamped += b.logClamped ?? 0;
  a.missing += b.missing ?? 0;
  return a;
}

function count(mask: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < mask.length; i++) n += mask[i];
  return n;
}

/** Counts of one batch of predictions. */
export function countTrust(values: ArrayLike<number>, extrapolated: Uint8Array, negative: Uint8Array, logClamped: Uint8Array): TrustCounts {
  let missing = 0;
  for (let i = 0; i < values.length; i++) if (Number.isNaN(values[i])) missing++;
  return { predictions: values.length, extrapolated: count(extrapolated), negative: count(negative), logClamped: count(logClamped), missing };
}

const pct = (k: number, n: number): string => `${k.toLocaleString("en")} of ${n.toLocaleString("en")} (${((100 * k) / Math.max(1, n)).toFixed(1)}%)`;

/** The methods whose `extrapolated` is the exact convex-hull test (the others use the bounding box). */
export const HULL_TEST_METHODS: readonly string[] = ["delaunay"];

/**
 * One line per kind of warning that occurred (empty when none did): for stderr, once per run, and the summaries.
 * `method` names the predictor (its extrapolation test is named in the line).
 */
export function trustWarnings(c: TrustCounts, method?: string): string[] {
  const lines: string[] = [];
  const what = method ? `${method} prediction(s)` : "prediction(s)";
  const test = method === undefined ? "" : HULL_TEST_METHODS.includes(method) ? "test: convex hull; " : "test: bounding box; ";
  if (c.extrapolated)
    lines.push(
      `${pct(c.extrapolated, c.predictions)} ${what} extrapolated outside the training inputs (${test}column extrapolated); trust them less the larger their distance`,
    );
  if (c.negative) lines.push(`${pct(c.negative, c.predictions)} ${what} were negative values of a nonnegative statistic, clamped to 0 (column clamped)`);
  if (c.logClamped)
    lines.push(
      `${pct(c.logClamped, c.predictions)} ${what} were cut to the safe range of the training responses, or predicted with a log-scaled input moved into its safe range (column clamped)`,
    );
  if (c.missing) lines.push(`${pct(c.missing, c.predictions)} ${what} are NaN (no prediction: e.g. Delaunay beyond --max-extrapolation)`);
  return lines;
}
