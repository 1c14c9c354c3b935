// Two conditions compared through their GEV fits (seed 002: background traffic multiplies write times by k_t):
// the ratios of locations and of scales (condition b over a) with delta-method intervals and parametric-bootstrap
// percentile intervals, and a likelihood-ratio test of equal shape (separate (μ, σ), common ξ against all separate).
// The covariate model lives in ts/evt/covariates.ts.
import type { KernelBackend } from "../backend/kernel.js";
import { gevFitBatch } from "../backend/kernels/gev.js";
import { counterRng, type RngKey } from "../data/random.js";
import { chi2OneSf, fitGev, gevFitFromBatch, gevNllh, gevQuantile, newtonMinimize, normQuantileUpper, type GevFit, type GevParams } from "./gev.js";

export interface RatioEstimate {
  ratio: number;
  /** Delta-method standard error (independent samples): r·√(v_a/θ_a² + v_b/θ_b²). */
  se: number;
  lo: number;
  hi: number;
  /** Parametric-bootstrap percentile interval (NaN without bootstrap). */
  bootLo: number;
  bootHi: number;
}

export interface GevComparison {
  a: GevFit;
  b: GevFit;
  loc: RatioEstimate;
  scale: RatioEstimate;
  /** Common shape of the restricted model and the LR test of ξ_a = ξ_b (χ²₁). */
  commonShape: number;
  lrShape: number;
  lrShapeP: number;
  /** Bootstrap replicates whose two refits were valid. */
  boot: number;
}

/** Minimum of nllh_a(μa, σa, ξ) + nllh_b(μb, σb, ξ) (5 parameters), from the separate fits. */
export function commonShapeFit(xa: ArrayLike<number>, xb: ArrayLike<number>, pa: GevParams, pb: GevParams): { v: number[]; f: number } | null {
  const fn = (v: number[]) => {
    const ea = gevNllh(xa, { loc: v[0], scale: v[1], shape: v[4] });
    const eb = gevNllh(xb, { loc: v[2], scale: v[3], shape: v[4] });
    const f = ea.f + eb.f;
    if (!Number.isFinite(f)) return { f: Infinity, g: [0, 0, 0, 0, 0], H: new Array(25).fill(0) };
    const H = new Array(25).fill(0);
    const put = (i: number, j: number, x: number) => {
      H[i * 5 + j] += x;
    };
    const ia = [0, 1, 4];
    const ib = [2, 3, 4];
    for (let r = 0; r < 3; r++)
      for (let c = 0; c < 3; c++) {
        put(ia[r], ia[c], ea.H[r * 3 + c]);
        put(ib[r], ib[c], eb.H[r * 3 + c]);
      }
    return { f, g: [ea.g[0], ea.g[1], eb.g[0], eb.g[1], ea.g[2] + eb.g[2]], H };
  };
  const starts = [0.5 * (pa.shape + pb.shape), pa.shape, pb.shape];
  let best: { v: number[]; f: number } | null = null;
  for (const xi of starts) {
    const r = newtonMinimize(fn, [pa.loc, pa.scale, pb.loc, pb.scale, xi], 200);
    if (r && (!best || r.f < best.f)) best = r;
  }
  return best;
}

function ratio(ta: number, va: number, tb: number, vb: number, k: number): RatioEstimate {
  const r = tb / ta;
  const se = Math.abs(r) * Math.sqrt(va / (ta * ta) + vb / (tb * tb));
  return { ratio: r, se, lo: r - k * se, hi: r + k * se, bootLo: Number.NaN, bootHi: Number.NaN };
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return Number.NaN;
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  return sorted[lo] + (h - lo) * (sorted[Math.min(lo + 1, sorted.length - 1)] - sorted[lo]);
}

/**
 * Compares samples xa and xb. `boot` parametric-bootstrap replicates (0: none), keyed by counterRng(seed, ...key, b).
 * Returns null when either fit is not valid (the caller reports the flags).
 */
export function compareGev(
  backend: KernelBackend,
  xa: Float64Array,
  xb: Float64Array,
  opts: { level: number; boot: number; seed: RngKey; key: RngKey[]; maxIter?: number },
): GevComparison | { a: GevFit; b: GevFit; invalid: true } {
  const a = fitGev(backend, xa, opts.maxIter ?? 100);
  const b = fitGev(backend, xb, opts.maxIter ?? 100);
  if (a.status !== "ok" || b.status !== "ok") return { a, b, invalid: true };
  const k = normQuantileUpper(opts.level);
  const loc = ratio(a.params.loc, a.cov[0], b.params.loc, b.cov[0], k);
  const scale = ratio(a.params.scale, a.cov[4], b.params.scale, b.cov[4], k);
  const joint = commonShapeFit(xa, xb, a.params, b.params);
  const lr = joint ? Math.max(0, 2 * (joint.f - a.nllh - b.nllh)) : Number.NaN;
  let valid = 0;
  if (opts.boot > 0) {
    const B = opts.boot;
    const draw = (p: GevParams, n: number, which: string) => {
      const x = new Float64Array(B * n);
      for (let r = 0; r < B; r++) {
        const g = counterRng(opts.seed, "gev-compare", ...opts.key, which, r);
        for (let i = 0; i < n; i++) {
          let u = g.next();
          if (u === 0) u = 2 ** -53;
          x[r * n + i] = gevQuantile(u, p);
        }
      }
      const off = Int32Array.from({ length: B + 1 }, (_, r) => r * n);
      const fit = gevFitBatch(backend, x, off, opts.maxIter ?? 100);
      return Array.from({ length: B }, (_, r) => gevFitFromBatch(fit.out, fit.status, fit.iterations, r, n));
    };
    const fa = draw(a.params, xa.length, "a");
    const fb = draw(b.params, xb.length, "b");
    const rl: number[] = [];
    const rs: number[] = [];
    for (let r = 0; r < B; r++) {
      if (fa[r].status !== "ok" || fb[r].status !== "ok") continue;
      valid++;
      rl.push(fb[r].params.loc / fa[r].params.loc);
      rs.push(fb[r].params.scale / fa[r].params.scale);
    }
    rl.sort((p, q) => p - q);
    rs.sort((p, q) => p - q);
    const tail = (1 - opts.level) / 2;
    loc.bootLo = percentile(rl, tail);
    loc.bootHi = percentile(rl, 1 - tail);
    scale.bootLo = percentile(rs, tail);
    scale.bootHi = percentile(rs, 1 - tail);
  }
  return {
    a,
    b,
    loc,
    scale,
    commonShape: joint ? joint.v[4] : Number.NaN,
    lrShape: lr,
    lrShapeP: Number.isFinite(lr) ? chi2OneSf(lr) : Number.NaN,
    boot: valid,
  };
}
