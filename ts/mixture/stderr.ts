// Standard errors of a fitted mixture's parameters from the observed information (issue 17, item 4).
//
// The log-likelihood is differentiated twice numerically (central differences) in an unconstrained
// parameterization: weight logits relative to the last component, locations as they are (normal mean, mu of log x),
// and the log of every positive parameter (sd, sigma, gamma shape and scale). The observed information is minus that
// Hessian; its inverse is the covariance of the unconstrained estimates, carried to the reported parameters
// (w, a, b on the original scale) by the delta method, Cov = J C Jᵀ. For a single normal this gives the textbook
// se(mean) = sd/√n and se(sd) = sd/√(2n). At a MAP fit (prior strength > 0) it is the likelihood's curvature at the
// MAP estimate (the prior's few pseudo-runs left out). A Hessian that is not negative definite (a component at the
// tie floor, a flat direction) gives no standard errors (NaN).
import type { Mixture } from "./model.js";

/** Standard errors of w, a and b of each component (NaN where the observed information is not positive definite). */
export interface MixtureStdErrors {
  w: number[];
  a: number[];
  b: number[];
}

/** Which of the family's two parameters are positive (and so differentiated on the log scale). */
const positiveA = (m: Mixture) => m.family.name === "gamma";

/** Unconstrained vector θ: k−1 logits, then a (or log a), then log b, per component. */
function toTheta(m: Mixture): Float64Array {
  const k = m.k;
  const th = new Float64Array(3 * k - 1);
  for (let j = 0; j < k - 1; j++) th[j] = Math.log(m.w[j]) - Math.log(m.w[k - 1]);
  for (let j = 0; j < k; j++) {
    th[k - 1 + j] = positiveA(m) ? Math.log(m.a[j]) : m.a[j];
    th[2 * k - 1 + j] = Math.log(m.b[j]);
  }
  return th;
}

/** Log-likelihood of x at θ (same family and k as m), with the weights' softmax. */
function loglikAt(m: Mixture, th: Float64Array, x: ArrayLike<number>): number {
  const k = m.k;
  const lw = new Float64Array(k);
  let mx = 0;
  for (let j = 0; j < k - 1; j++) mx = Math.max(mx, th[j]);
  let s = Math.exp(-mx);
  for (let j = 0; j < k - 1; j++) s += Math.exp(th[j] - mx);
  const lse = mx + Math.log(s);
  for (let j = 0; j < k; j++) lw[j] = (j < k - 1 ? th[j] : 0) - lse;
  const a = Array.from({ length: k }, (_, j) => (positiveA(m) ? Math.exp(th[k - 1 + j]) : th[k - 1 + j]));
  const b = Array.from({ length: k }, (_, j) => Math.exp(th[2 * k - 1 + j]));
  const lp = new Float64Array(k);
  let total = 0;
  for (let i = 0; i < x.length; i++) {
    let top = -Infinity;
    for (let j = 0; j < k; j++) {
      lp[j] = lw[j] + m.family.logpdf(x[i], a[j], b[j]);
      if (lp[j] > top) top = lp[j];
    }
    if (top === -Infinity) return -Infinity;
    let e = 0;
    for (let j = 0; j < k; j++) e += Math.exp(lp[j] - top);
    total += top + Math.log(e);
  }
  return total;
}

/** Step of each θ coordinate: 1e-3 in logits and logs, 1e-3 of the component's scale for a location. */
function steps(m: Mixture, th: Float64Array): Float64Array {
  const k = m.k;
  const h = new Float64Array(th.length).fill(1e-3);
  // a location (normal mean, mu of log x) moves on the component's own scale b
  if (!positiveA(m)) for (let j = 0; j < k; j++) h[k - 1 + j] = 1e-3 * m.b[j];
  return h;
}

/**
 * Inverse of a symmetric positive definite matrix by Cholesky; null when it is not positive definite, or so near
 * singular (a pivot below 1e-10 of its diagonal entry, below the central differences' noise) that it is not usable.
 */
export function invertSpd(a: Float64Array, p: number): Float64Array | null {
  const L = new Float64Array(p * p);
  for (let i = 0; i < p; i++)
    for (let j = 0; j <= i; j++) {
      let s = a[i * p + j];
      for (let t = 0; t < j; t++) s -= L[i * p + t] * L[j * p + t];
      if (i === j) {
        if (!(s > 0 && s > 1e-10 * a[i * p + i])) return null;
        L[i * p + i] = Math.sqrt(s);
      } else L[i * p + j] = s / L[j * p + j];
    }
  // inverse of L (lower triangular), then A⁻¹ = L⁻ᵀ L⁻¹
  const Li = new Float64Array(p * p);
  for (let j = 0; j < p; j++) {
    Li[j * p + j] = 1 / L[j * p + j];
    for (let i = j + 1; i < p; i++) {
      let s = 0;
      for (let t = j; t < i; t++) s -= L[i * p + t] * Li[t * p + j];
      Li[i * p + j] = s / L[i * p + i];
    }
  }
  const inv = new Float64Array(p * p);
  for (let i = 0; i < p; i++)
    for (let j = 0; j <= i; j++) {
      let s = 0;
      for (let t = i; t < p; t++) s += Li[t * p + i] * Li[t * p + j];
      inv[i * p + j] = inv[j * p + i] = s;
    }
  return inv;
}

/** Observed information −∂²ℓ/∂θ∂θᵀ at the fitted parameters (central differences). */
export function observedInformation(m: Mixture, x: ArrayLike<number>): { theta: Float64Array; info: Float64Array } {
  const th = toTheta(m);
  const p = th.length;
  const h = steps(m, th);
  const f = (d: Float64Array) => loglikAt(m, d, x);
  const f0 = f(th);
  const info = new Float64Array(p * p);
  const t = Float64Array.from(th);
  for (let i = 0; i < p; i++) {
    t[i] = th[i] + h[i];
    const fp = f(t);
    t[i] = th[i] - h[i];
    const fm = f(t);
    t[i] = th[i];
    info[i * p + i] = -(fp - 2 * f0 + fm) / (h[i] * h[i]);
    for (let j = 0; j < i; j++) {
      let s = 0;
      for (const [si, sj] of [
        [1, 1],
        [1, -1],
        [-1, 1],
        [-1, -1],
      ]) {
        t[i] = th[i] + si * h[i];
        t[j] = th[j] + sj * h[j];
        s += si * sj * f(t);
      }
      t[i] = th[i];
      t[j] = th[j];
      info[i * p + j] = info[j * p + i] = -s / (4 * h[i] * h[j]);
    }
  }
  return { theta: th, info };
}

/** Standard errors of every reported parameter of m fitted to x, by the delta method from the observed information. */
export function mixtureStdErrors(m: Mixture, x: ArrayLike<number>): MixtureStdErrors {
  const k = m.k;
  const nan = () => Array.from({ length: k }, () => NaN);
  const { info } = observedInformation(m, x);
  const p = 3 * k - 1;
  const C = info.every(Number.isFinite) ? invertSpd(info, p) : null;
  if (!C) return { w: nan(), a: nan(), b: nan() };
  // Jacobian rows of the reported parameters (w_1..w_k, a_1..a_k, b_1..b_k) with respect to θ
  const J = new Float64Array(3 * k * p);
  for (let j = 0; j < k; j++) for (let l = 0; l < k - 1; l++) J[j * p + l] = m.w[j] * ((j === l ? 1 : 0) - m.w[l]); // ∂w_j/∂logit_l
  for (let j = 0; j < k; j++) {
    J[(k + j) * p + (k - 1 + j)] = positiveA(m) ? m.a[j] : 1;
    J[(2 * k + j) * p + (2 * k - 1 + j)] = m.b[j];
  }
  const se = new Float64Array(3 * k);
  for (let r = 0; r < 3 * k; r++) {
    let v = 0;
    for (let u = 0; u < p; u++) {
      const ju = J[r * p + u];
      if (ju === 0) continue;
      for (let s = 0; s < p; s++) v += ju * C[u * p + s] * J[r * p + s];
    }
    se[r] = v >= 0 ? Math.sqrt(v) : NaN;
  }
  return { w: Array.from(se.subarray(0, k)), a: Array.from(se.subarray(k, 2 * k)), b: Array.from(se.subarray(2 * k)) };
}
