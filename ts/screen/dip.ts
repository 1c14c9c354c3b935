// Hartigans' dip statistic (Hartigan & Hartigan 1985, algorithm AS 217 as corrected in R's diptest: the
// unimodal-loop fix of 1994 and Yong Lu's 2003 parenthesis fix) and its p-value interpolated in a table of dip
// quantiles of uniform samples (ts/screen/dip-table.ts, made by bench/studies/dip-table.ts), the way
// diptest::dip.test interpolates its own table: linearly in n on the √n·D scale, then linearly in probability.
import { DIP_TABLE_N, DIP_TABLE_P, DIP_TABLE_Q } from "./dip-table.js";

/**
 * The dip of a sorted sample (ascending; not checked). Minimum 1/(2n) as R's `dip()` (min.is.0 = FALSE);
 * 1/(2n)... for n < 2 or all values equal. Scratch arrays may be passed to avoid allocation in loops.
 */
export function dipStatistic(x: ArrayLike<number>, scratch?: Int32Array): number {
  const n = x.length;
  if (n < 2 || x[n - 1] === x[0]) return n > 0 ? 1 / (2 * n) : Number.NaN;
  // 1-based index arrays laid out in one buffer: mn, mj, gcm, lcm.
  const buf = scratch && scratch.length >= 4 * (n + 1) ? scratch : new Int32Array(4 * (n + 1));
  const mn = buf.subarray(0, n + 1);
  const mj = buf.subarray(n + 1, 2 * (n + 1));
  const gcm = buf.subarray(2 * (n + 1), 3 * (n + 1));
  const lcm = buf.subarray(3 * (n + 1), 4 * (n + 1));
  const X = (i: number) => x[i - 1];
  let low = 1;
  let high = n;
  let dip = 1;
  // Change points for the greatest convex minorant.
  mn[1] = 1;
  for (let j = 2; j <= n; j++) {
    mn[j] = j - 1;
    for (;;) {
      const mnj = mn[j];
      const mnmnj = mn[mnj];
      if (mnj === 1 || (X(j) - X(mnj)) * (mnj - mnmnj) < (X(mnj) - X(mnmnj)) * (j - mnj)) break;
      mn[j] = mnmnj;
    }
  }
  // Change points for the least concave majorant.
  mj[n] = n;
  for (let k = n - 1; k >= 1; k--) {
    mj[k] = k + 1;
    for (;;) {
      const mjk = mj[k];
      const mjmjk = mj[mjk];
      if (mjk === n || (X(k) - X(mjk)) * (mjk - mjmjk) < (X(mjk) - X(mjmjk)) * (k - mjk)) break;
      mj[k] = mjmjk;
    }
  }
  for (;;) {
    let i: number;
    gcm[1] = high;
    for (i = 1; gcm[i] > low; i++) gcm[i + 1] = mn[gcm[i]];
    const lGcm = i;
    let ig = lGcm;
    let ix = ig - 1;
    lcm[1] = low;
    for (i = 1; lcm[i] < high; i++) lcm[i + 1] = mj[lcm[i]];
    const lLcm = i;
    let ih = lLcm;
    let iv = 2;
    let d = 0;
    if (lGcm !== 2 || lLcm !== 2) {
      do {
        const gcmix = gcm[ix];
        const lcmiv = lcm[iv];
        if (gcmix > lcmiv) {
          const gcmi1 = gcm[ix + 1];
          const dx = lcmiv - gcmi1 + 1 - ((X(lcmiv) - X(gcmi1)) * (gcmix - gcmi1)) / (X(gcmix) - X(gcmi1));
          iv++;
          if (dx >= d) {
            d = dx;
            ig = ix + 1;
            ih = iv - 1;
          }
        } else {
          const lcmiv1 = lcm[iv - 1];
          const dx = ((X(gcmix) - X(lcmiv1)) * (lcmiv - lcmiv1)) / (X(lcmiv) - X(lcmiv1)) - (gcmix - lcmiv1 - 1);
          ix--;
          if (dx >= d) {
            d = dx;
            ig = ix + 1;
            ih = iv;
          }
        }
        if (ix < 1) ix = 1;
        if (iv > lLcm) iv = lLcm;
      } while (gcm[ix] !== lcm[iv]);
    } else {
      d = 1;
    }
    if (d < dip) break;
    // The dips of the convex minorant and of the concave majorant over the current interval.
    let dipL = 0;
    for (let j = ig; j < lGcm; j++) {
      let maxT = 1;
      const jb = gcm[j + 1];
      const je = gcm[j];
      if (je - jb > 1 && X(je) !== X(jb)) {
        const C = (je - jb) / (X(je) - X(jb));
        for (let jj = jb; jj <= je; jj++) {
          const t = jj - jb + 1 - (X(jj) - X(jb)) * C;
          if (maxT < t) maxT = t;
        }
      }
      if (dipL < maxT) dipL = maxT;
    }
    let dipU = 0;
    for (let j = ih; j < lLcm; j++) {
      let maxT = 1;
      const jb = lcm[j];
      const je = lcm[j + 1];
      if (je - jb > 1 && X(je) !== X(jb)) {
        const C = (je - jb) / (X(je) - X(jb));
        for (let jj = jb; jj <= je; jj++) {
          const t = (X(jj) - X(jb)) * C - (jj - jb - 1);
          if (maxT < t) maxT = t;
        }
      }
      if (dipU < maxT) dipU = maxT;
    }
    const dipNew = Math.max(dipU, dipL);
    if (dip < dipNew) dip = dipNew;
    // Without this check the loop may never end on unimodal data (Maechler's fix).
    if (low === gcm[ig] && high === lcm[ih]) break;
    low = gcm[ig];
    high = lcm[ih];
  }
  return dip / (2 * n);
}

/**
 * P-value of the dip `D` of a sample of size n under the uniform null, interpolated in the quantile table as
 * diptest::dip.test does (n ≤ 3: 1; n at or above the table's largest n: that row, the √n·D limit).
 */
export function dipPValue(D: number, n: number): number {
  if (!(n > 3) || !Number.isFinite(D)) return n <= 3 ? 1 : Number.NaN;
  const N = DIP_TABLE_N;
  const last = N.length - 1;
  let i0: number;
  let i1: number;
  let f: number;
  if (n >= N[last]) {
    i0 = i1 = last;
    f = 0;
  } else {
    i0 = 0;
    while (i0 + 1 < N.length && N[i0 + 1] <= n) i0++;
    i1 = i0 + 1;
    f = (n - N[i0]) / (N[i1] - N[i0]);
  }
  const P = DIP_TABLE_P;
  const m = P.length;
  const q0 = DIP_TABLE_Q[i0];
  const q1 = DIP_TABLE_Q[i1];
  const s0 = Math.sqrt(N[i0]);
  const s1 = Math.sqrt(N[i1]);
  const sD = Math.sqrt(n) * D;
  // approx(y, P, xout = sD, rule = 2) with R's default ties = mean: equal abscissae are merged, their P averaged.
  const xs: number[] = [];
  const ps: number[] = [];
  for (let k = 0; k < m; ) {
    const yk = s0 * q0[k] + f * (s1 * q1[k] - s0 * q0[k]);
    let sum = P[k];
    let cnt = 1;
    let k2 = k + 1;
    while (k2 < m && s0 * q0[k2] + f * (s1 * q1[k2] - s0 * q0[k2]) === yk) {
      sum += P[k2];
      cnt++;
      k2++;
    }
    xs.push(yk);
    ps.push(sum / cnt);
    k = k2;
  }
  const last2 = xs.length - 1;
  if (sD <= xs[0]) return 1 - ps[0];
  if (sD >= xs[last2]) return 1 - ps[last2];
  let k = 0;
  while (xs[k + 1] < sD) k++;
  return 1 - (ps[k] + ((sD - xs[k]) / (xs[k + 1] - xs[k])) * (ps[k + 1] - ps[k]));
}

/** The dip test of a sorted sample: statistic and table p-value. */
export function dipTest(sorted: ArrayLike<number>, scratch?: Int32Array): { dip: number; p: number } {
  const dip = dipStatistic(sorted, scratch);
  return { dip, p: dipPValue(dip, sorted.length) };
}
