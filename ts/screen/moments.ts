// Shape and order statistics of one configuration's runs: adjusted skewness G1 and excess kurtosis G2 with their
// standard errors under normality (as SPSS, SAS and e1071::skewness type 2 report), the lag-1 autocorrelation of
// the runs in run order (as R's acf), and the Wald–Wolfowitz runs test above/below the median (as
// randtests::runs.test: values equal to the median are dropped; two-sided normal approximation).
import { normCdf } from "../mixture/families.js";

export interface Shape {
  skewness: number;
  skewnessSe: number;
  kurtosis: number;
  kurtosisSe: number;
}

/** G1, G2 and their SEs for runs x (any order); NaN where n is too small (G1: n < 3, G2: n < 4) or spread is 0. */
export function shape(x: ArrayLike<number>, mean: number): Shape {
  const n = x.length;
  let m2 = 0;
  let m3 = 0;
  let m4 = 0;
  for (let i = 0; i < n; i++) {
    const d = x[i] - mean;
    const d2 = d * d;
    m2 += d2;
    m3 += d2 * d;
    m4 += d2 * d2;
  }
  m2 /= n;
  m3 /= n;
  m4 /= n;
  const ok = m2 > 0 && Number.isFinite(m2);
  const g1 = m3 / m2 ** 1.5;
  const g2 = m4 / (m2 * m2) - 3;
  const skewness = ok && n >= 3 ? (g1 * Math.sqrt(n * (n - 1))) / (n - 2) : Number.NaN;
  const kurtosis = ok && n >= 4 ? (((n + 1) * g2 + 6) * (n - 1)) / ((n - 2) * (n - 3)) : Number.NaN;
  const skewnessSe = n >= 3 ? Math.sqrt((6 * n * (n - 1)) / ((n - 2) * (n + 1) * (n + 3))) : Number.NaN;
  const kurtosisSe = n >= 4 ? 2 * skewnessSe * Math.sqrt((n * n - 1) / ((n - 3) * (n + 5))) : Number.NaN;
  return { skewness, skewnessSe, kurtosis, kurtosisSe };
}

/** Lag-1 autocorrelation Σ(x_t − x̄)(x_{t+1} − x̄) / Σ(x_t − x̄)², runs in run order; NaN for n < 3 or no spread. */
export function lag1(x: ArrayLike<number>, mean: number): number {
  const n = x.length;
  if (n < 3) return Number.NaN;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    const d = x[i] - mean;
    den += d * d;
    if (i + 1 < n) num += d * (x[i + 1] - mean);
  }
  return den > 0 ? num / den : Number.NaN;
}

export interface RunsTest {
  /** Number of runs above/below the median. */
  runs: number;
  z: number;
  /** Two-sided p-value (too few runs: drift or clustering; too many: alternation). */
  p: number;
}

/** Runs test about the median of x (in run order); `median` given. NaN when fewer than 2 values on either side. */
export function runsTest(x: ArrayLike<number>, median: number): RunsTest {
  let n1 = 0;
  let n2 = 0;
  let runs = 0;
  let prev = 0;
  for (let i = 0; i < x.length; i++) {
    const v = x[i];
    if (v === median) continue;
    const s = v > median ? 1 : -1;
    if (s > 0) n1++;
    else n2++;
    if (s !== prev) runs++;
    prev = s;
  }
  const N = n1 + n2;
  if (n1 < 1 || n2 < 1 || N < 3) return { runs, z: Number.NaN, p: Number.NaN };
  const mu = (2 * n1 * n2) / N + 1;
  const v = (2 * n1 * n2 * (2 * n1 * n2 - N)) / (N * N * (N - 1));
  if (!(v > 0)) return { runs, z: Number.NaN, p: Number.NaN };
  const z = (runs - mu) / Math.sqrt(v);
  return { runs, z, p: Math.min(1, 2 * normCdf(-Math.abs(z))) };
}

/** Benjamini–Hochberg adjusted p-values (R's p.adjust(p, "BH"); NaN entries are left out and stay NaN). */
export function bhAdjust(p: ArrayLike<number>): Float64Array {
  const out = new Float64Array(p.length).fill(Number.NaN);
  const idx: number[] = [];
  for (let i = 0; i < p.length; i++) if (!Number.isNaN(p[i])) idx.push(i);
  const m = idx.length;
  idx.sort((a, b) => p[b] - p[a]);
  let run = Number.POSITIVE_INFINITY;
  for (let r = 0; r < m; r++) {
    const i = idx[r];
    const rank = m - r;
    run = Math.min(run, (p[i] * m) / rank);
    out[i] = Math.min(1, run);
  }
  return out;
}
