// Gaussian-process regression kernels (the gp predictor's O(n³) part): the profile negative log marginal
// likelihood with its gradient, and the predictive mean and variance. Model and formulas: native/include/varmap/gp.h.
import { VarmapError } from "../../errors.js";
import type { StatusError } from "../status.js";
import { arg, type KernelBackend, type KernelSpec } from "../kernel.js";
import { checkStatus } from "../status.js";

/** Correlation families (GP_SQEXP, GP_MATERN52, GP_MATERN32 in the kernels). */
export const GP_KERNEL_CODES = { sqexp: 0, matern52: 1, matern32: 2 } as const;
export type GpKernelName = keyof typeof GP_KERNEL_CODES;

export const GP_NLL: KernelSpec = {
  name: "gp_nll",
  module: "gp",
  // X (n*d), y (n), H (n*p), n, d, p, kernel, theta (d+1, or d+2 with v), want_grad, L (n*n out), alpha (n out), beta (p out),
  // out (d+3 out, d+4 with v), v (nv: per-point noise variances, or empty), nv (0 or n)
  args: [
    arg.f64in,
    arg.f64in,
    arg.f64in,
    arg.int,
    arg.int,
    arg.int,
    arg.int,
    arg.f64in,
    arg.int,
    arg.f64out,
    arg.f64out,
    arg.f64out,
    arg.f64out,
    arg.f64in,
    arg.int,
  ],
  lengths: ([X, y, H, n, d, p, , theta, , L, alpha, beta, out, v, nv]) => {
    const N = n as number,
      D = d as number,
      P = p as number,
      NV = nv as number;
    if (!(N >= 1 && D >= 1 && P >= 0 && (NV === 0 || NV === N))) return false;
    const E = NV ? 1 : 0;
    const len = (a: unknown) => (a as Float64Array).length;
    return (
      len(X) >= N * D &&
      len(y) >= N &&
      len(H) >= N * P &&
      len(theta) >= D + 1 + E &&
      len(L) >= N * N &&
      len(alpha) >= N &&
      len(beta) >= P &&
      len(out) >= D + 3 + E &&
      len(v) >= NV
    );
  },
};

export const GP_PREDICT: KernelSpec = {
  name: "gp_predict",
  module: "gp",
  // X (n*d), n, d, kernel, theta (d+1), L (n*n), alpha (n), Xq (q*d), q, mean (q out), var (q out)
  args: [arg.f64in, arg.int, arg.int, arg.int, arg.f64in, arg.f64in, arg.f64in, arg.f64in, arg.int, arg.f64out, arg.f64out],
  lengths: ([X, n, d, , theta, L, alpha, Xq, q, mean, v]) => {
    const N = n as number,
      D = d as number,
      Q = q as number;
    if (!(N >= 1 && D >= 1 && Q >= 0)) return false;
    const len = (a: unknown) => (a as Float64Array).length;
    return len(X) >= N * D && len(theta) >= D + 1 && len(L) >= N * N && len(alpha) >= N && len(Xq) >= Q * D && len(mean) >= Q && len(v) >= Q;
  },
};

export const GP_LOCAL_PREDICT: KernelSpec = {
  name: "gp_local_predict",
  module: "gp",
  // X (n*d), n, d, kernel, theta (d+1, or d+2 with v), v (nv), nv (0 or n), res (n), nbr (q*m), m, Xq (q*d), q, mean (q out), var (q out)
  args: [arg.f64in, arg.int, arg.int, arg.int, arg.f64in, arg.f64in, arg.int, arg.f64in, arg.i32in, arg.int, arg.f64in, arg.int, arg.f64out, arg.f64out],
  lengths: ([X, n, d, , theta, v, nv, res, nbr, m, Xq, q, mean, variance]) => {
    const N = n as number,
      D = d as number,
      NV = nv as number,
      M = m as number,
      Q = q as number;
    if (!(N >= 1 && D >= 1 && M >= 1 && M <= N && Q >= 0 && (NV === 0 || NV === N))) return false;
    const len = (a: unknown) => (a as Float64Array | Int32Array).length;
    return (
      len(X) >= N * D &&
      len(theta) >= D + 1 + (NV ? 1 : 0) &&
      len(v) >= NV &&
      len(res) >= N &&
      len(nbr) >= Q * M &&
      len(Xq) >= Q * D &&
      len(mean) >= Q &&
      len(variance) >= Q
    );
  },
};

const NO_VARIANCES = new Float64Array(0);

export const GP_NOT_POSITIVE_DEFINITE = 10;
export const GP_SINGULAR_MEAN = 11;

export const GP_STATUS: Record<number, StatusError> = {
  [GP_NOT_POSITIVE_DEFINITE]: [
    "E_GP_NOT_POSITIVE_DEFINITE",
    "the GP covariance matrix is not positive definite in floating point",
    "raise the nugget (--gp-nugget-min) or remove duplicate configurations",
  ],
  [GP_SINGULAR_MEAN]: ["E_GP_SINGULAR_MEAN", "the GP mean basis is singular on the training set", "use --gp-mean constant"],
};

export interface GpLikelihood {
  /** Profile negative log marginal likelihood. */
  nll: number;
  /** Profiled signal variance σ̂². */
  sigma2: number;
  /** ∂nll/∂θ (d + 1 entries, d + 2 with per-point variances; zeros when not asked for). */
  grad: Float64Array;
  /** Lower Cholesky factor of R + g I, n × n row-major. */
  L: Float64Array;
  /** (R + g I)⁻¹ (y − H β). */
  alpha: Float64Array;
  beta: Float64Array;
}

/**
 * The profile likelihood at theta = (log ℓ_1 … log ℓ_d, log g), or with per-point noise variances `v` (n entries)
 * at theta = (log ℓ_1 … log ℓ_d, log g, log τ) with the diagonal 1 + g + τ v_i (native/include/varmap/gp.h); returns the kernel's status instead of throwing
 * for GP_NOT_POSITIVE_DEFINITE and GP_SINGULAR_MEAN (the optimizer treats those hyperparameters as infeasible).
 */
export function gpNll(
  backend: KernelBackend,
  X: Float64Array,
  y: Float64Array,
  H: Float64Array,
  n: number,
  d: number,
  p: number,
  kernel: GpKernelName,
  theta: Float64Array,
  wantGrad: boolean,
  v?: Float64Array,
): GpLikelihood | { status: number } {
  const nv = v ? n : 0;
  if (X.length !== n * d || y.length !== n || H.length !== n * p || theta.length !== d + 1 + (nv ? 1 : 0) || (v && v.length !== n))
    throw new VarmapError("E_KERNEL_ARGUMENT", `gp_nll: buffers do not match n = ${n}, d = ${d}, p = ${p}`, {
      remedy: "this is a bug in the caller; please report it",
    });
  const L = new Float64Array(n * n),
    alpha = new Float64Array(n),
    beta = new Float64Array(p),
    out = new Float64Array(d + 3 + (nv ? 1 : 0));
  const status = backend.run(GP_NLL, [X, y, H, n, d, p, GP_KERNEL_CODES[kernel], theta, wantGrad ? 1 : 0, L, alpha, beta, out, v ?? NO_VARIANCES, nv]);
  if (status === GP_NOT_POSITIVE_DEFINITE || status === GP_SINGULAR_MEAN) return { status };
  checkStatus("gp_nll", status, GP_STATUS);
  return { nll: out[0], sigma2: out[1], grad: out.slice(2), L, alpha, beta };
}

/** Residual mean kᵀα and correlation-scale variance 1 − kᵀ(R + gI)⁻¹k at q queries. */
export function gpPredict(
  backend: KernelBackend,
  X: Float64Array,
  n: number,
  d: number,
  kernel: GpKernelName,
  theta: Float64Array,
  L: Float64Array,
  alpha: Float64Array,
  Xq: Float64Array,
  q: number,
): { mean: Float64Array; variance: Float64Array } {
  if (X.length !== n * d || Xq.length !== q * d || L.length !== n * n || alpha.length !== n)
    throw new VarmapError("E_KERNEL_ARGUMENT", `gp_predict: buffers do not match n = ${n}, d = ${d}, q = ${q}`, {
      remedy: "this is a bug in the caller; please report it",
    });
  const mean = new Float64Array(q),
    variance = new Float64Array(q);
  checkStatus("gp_predict", backend.run(GP_PREDICT, [X, n, d, GP_KERNEL_CODES[kernel], theta, L, alpha, Xq, q, mean, variance]), GP_STATUS);
  return { mean, variance };
}

/**
 * Local prediction at q queries from m neighbours each (`neighbours`, q × m row-major training row indices): residual
 * mean and correlation-scale variance by the exact equations on each query's neighbours alone. `res` holds the
 * training residuals y − Hβ; theta and v as gpNll takes them.
 */
export function gpLocalPredict(
  backend: KernelBackend,
  X: Float64Array,
  n: number,
  d: number,
  kernel: GpKernelName,
  theta: Float64Array,
  res: Float64Array,
  neighbours: Int32Array,
  m: number,
  Xq: Float64Array,
  q: number,
  v?: Float64Array,
): { mean: Float64Array; variance: Float64Array } | { status: number } {
  const nv = v ? n : 0;
  if (X.length !== n * d || Xq.length !== q * d || res.length !== n || neighbours.length !== q * m || theta.length !== d + 1 + (nv ? 1 : 0))
    throw new VarmapError("E_KERNEL_ARGUMENT", `gp_local_predict: buffers do not match n = ${n}, d = ${d}, q = ${q}, m = ${m}`, {
      remedy: "this is a bug in the caller; please report it",
    });
  const mean = new Float64Array(q),
    variance = new Float64Array(q);
  const status = backend.run(GP_LOCAL_PREDICT, [X, n, d, GP_KERNEL_CODES[kernel], theta, v ?? NO_VARIANCES, nv, res, neighbours, m, Xq, q, mean, variance]);
  if (status === GP_NOT_POSITIVE_DEFINITE) return { status };
  checkStatus("gp_local_predict", status, GP_STATUS);
  return { mean, variance };
}
