// A GEV whose location (and optionally log-scale) is linear in covariates, fitted to the pooled runs by maximum
// likelihood: μ_i = β₀ + Σ β_j m_ij, σ_i = exp(γ₀ + Σ γ_j s_ij), ξ constant — R ismev's gev.fit(ydat, mul, sigl,
// siglink = exp) and evd's fgev(nsloc = …) (location only). Newton on the analytic gradient and Hessian (chain rule
// from the per-run GEV derivatives), started at the stationary fit; SEs from the inverse observed information; the
// LR test against the stationary GEV.
import type { KernelBackend } from "../backend/kernel.js";
import { fitGev, gevNllh, newtonMinimize, spdInverse } from "./gev.js";

export interface GevCovariateFit {
  /** Location coefficients: intercept, then one per location covariate. */
  loc: number[];
  /** Log-scale coefficients: intercept, then one per scale covariate. */
  logScale: number[];
  shape: number;
  /** Standard errors in the same order: loc…, logScale…, shape. */
  se: number[];
  nllh: number;
  /** The stationary GEV's nllh, and the LR test of all covariate coefficients = 0 (χ² with `df` degrees). */
  stationaryNllh: number;
  lr: number;
  df: number;
  lrP: number;
  converged: boolean;
  n: number;
}

/** Upper tail of χ²_k at s: Q(k/2, s/2), the regularized upper incomplete gamma (series / continued fraction). */
export function chi2Sf(s: number, k: number): number {
  if (!(s > 0)) return 1;
  const a = k / 2;
  const x = s / 2;
  const lg = lnGamma(a);
  if (x < a + 1) {
    let sum = 1 / a;
    let term = sum;
    for (let n = 1; n < 1000; n++) {
      term *= x / (a + n);
      sum += term;
      if (Math.abs(term) < Math.abs(sum) * 1e-16) break;
    }
    return 1 - Math.exp(-x + a * Math.log(x) - lg) * sum;
  }
  let b = x + 1 - a;
  let c = 1e300;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < 1000; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < 1e-300) d = 1e-300;
    c = b + an / c;
    if (Math.abs(c) < 1e-300) c = 1e-300;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < 1e-16) break;
  }
  return Math.exp(-x + a * Math.log(x) - lg) * h;
}

function lnGamma(x: number): number {
  const c = [76.18009172947146, -86.50532032941677, 24.01409824083091, -1.231739572450155, 0.1208650973866179e-2, -0.5395239384953e-5];
  let y = x;
  const t = x + 5.5 - (x + 0.5) * Math.log(x + 5.5);
  let ser = 1.000000000190015;
  for (const ci of c) ser += ci / ++y;
  return -t + Math.log((2.5066282746310005 * ser) / x);
}

/**
 * Fits y (n runs) with location covariates M (n × pl, row-major) and scale covariates S (n × ps). Returns null
 * when the stationary start fails.
 */
export function fitGevCovariates(backend: KernelBackend, y: Float64Array, M: Float64Array, pl: number, S: Float64Array, ps: number): GevCovariateFit | null {
  const n = y.length;
  const st = fitGev(backend, y);
  if (st.status !== "ok") return null;
  const P = 1 + pl + 1 + ps + 1;
  const iXi = P - 1;
  const one = new Float64Array(1);
  const fn = (v: number[]) => {
    const g = new Array(P).fill(0);
    const H = new Array(P * P).fill(0);
    let f = 0;
    const xi = v[iXi];
    const dl = new Array(1 + pl);
    const ds = new Array(1 + ps);
    for (let i = 0; i < n; i++) {
      let mu = v[0];
      for (let j = 0; j < pl; j++) mu += v[1 + j] * M[i * pl + j];
      let ls = v[1 + pl];
      for (let j = 0; j < ps; j++) ls += v[2 + pl + j] * S[i * ps + j];
      const sigma = Math.exp(ls);
      one[0] = y[i];
      const e = gevNllh(one, { loc: mu, scale: sigma, shape: xi });
      if (!Number.isFinite(e.f)) return { f: Infinity, g, H };
      f += e.f;
      // d(μ)/d(loc coefs) = (1, m_i…); d(σ)/d(log-scale coefs) = σ (1, s_i…).
      dl[0] = 1;
      for (let j = 0; j < pl; j++) dl[1 + j] = M[i * pl + j];
      ds[0] = sigma;
      for (let j = 0; j < ps; j++) ds[1 + j] = sigma * S[i * ps + j];
      const idx: number[] = [];
      const grad: number[] = [];
      const kind: number[] = [];
      for (let j = 0; j <= pl; j++) {
        idx.push(j);
        grad.push(dl[j]);
        kind.push(0);
      }
      for (let j = 0; j <= ps; j++) {
        idx.push(1 + pl + j);
        grad.push(ds[j]);
        kind.push(1);
      }
      idx.push(iXi);
      grad.push(1);
      kind.push(2);
      for (let r = 0; r < idx.length; r++) {
        g[idx[r]] += e.g[kind[r]] * grad[r];
        for (let c = 0; c < idx.length; c++) H[idx[r] * P + idx[c]] += e.H[kind[r] * 3 + kind[c]] * grad[r] * grad[c];
      }
      // Second derivative of σ = exp(ls) with respect to two log-scale coefficients: σ s_j s_k, times ∂nllh/∂σ.
      for (let r = 0; r <= ps; r++)
        for (let c = 0; c <= ps; c++) {
          const sr = r === 0 ? 1 : S[i * ps + r - 1];
          const sc = c === 0 ? 1 : S[i * ps + c - 1];
          H[(1 + pl + r) * P + (1 + pl + c)] += e.g[1] * sigma * sr * sc;
        }
    }
    return { f, g, H };
  };
  const v0 = new Array(P).fill(0);
  v0[0] = st.params.loc;
  v0[1 + pl] = Math.log(st.params.scale);
  v0[iXi] = st.params.shape;
  const r = newtonMinimize(fn, v0, 500);
  if (!r) return null;
  const e = fn(r.v);
  const cov = spdInverse(e.H, P);
  const se = cov ? Array.from({ length: P }, (_, i) => Math.sqrt(cov[i * P + i])) : new Array(P).fill(Number.NaN);
  const df = pl + ps;
  const lr = Math.max(0, 2 * (st.nllh - r.f));
  return {
    loc: r.v.slice(0, 1 + pl),
    logScale: r.v.slice(1 + pl, 2 + pl + ps),
    shape: r.v[iXi],
    se,
    nllh: r.f,
    stationaryNllh: st.nllh,
    lr,
    df,
    lrP: df > 0 ? chi2Sf(lr, df) : Number.NaN,
    converged: true,
    n,
  };
}
