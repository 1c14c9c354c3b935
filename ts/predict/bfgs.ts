// A small BFGS minimizer with a backtracking (Armijo) line search, for the few smooth hyperparameters of the gp
// predictor. Infeasible points (the objective returns undefined, e.g. a covariance that is not positive definite)
// are treated as +∞, so the line search backs away from them. Deterministic: no randomness, fixed iteration caps.

export type Objective = (x: Float64Array) => { f: number; grad: Float64Array } | undefined;

export interface BfgsResult {
  x: Float64Array;
  f: number;
  iterations: number;
  evaluations: number;
  /** True when the gradient (∞-norm) fell below gtol or f stopped changing; false at the iteration cap. */
  converged: boolean;
  /** The final inverse Hessian approximation (row-major), to warm-start a later search near x. */
  inverseHessian: Float64Array;
}

export interface BfgsOptions {
  maxIterations?: number;
  /** Gradient ∞-norm tolerance (default 1e-5). */
  gtol?: number;
  /** Relative change of f below which the search stops (default 1e-10). */
  ftol?: number;
  /** Largest step (∞-norm) of one line search (default 2). */
  maxStep?: number;
  /** Starting inverse Hessian (row-major n × n; default the identity), e.g. an earlier search's at a nearby point. */
  inverseHessian?: Float64Array;
}

/** Minimizes f from x0; returns undefined when f is infeasible at x0. */
export function bfgs(fn: Objective, x0: Float64Array, options: BfgsOptions = {}): BfgsResult | undefined {
  const maxIterations = options.maxIterations ?? 60,
    gtol = options.gtol ?? 1e-5,
    ftol = options.ftol ?? 1e-10,
    maxStep = options.maxStep ?? 2;
  const n = x0.length;
  let x = Float64Array.from(x0);
  let cur = fn(x);
  let evaluations = 1;
  if (!cur || !Number.isFinite(cur.f)) return undefined;
  // Inverse Hessian approximation, row-major; starts as the identity.
  const Hinv = new Float64Array(n * n);
  if (options.inverseHessian && options.inverseHessian.length === n * n) Hinv.set(options.inverseHessian);
  else for (let i = 0; i < n; i++) Hinv[i * n + i] = 1;
  let converged = false,
    iter = 0;
  for (; iter < maxIterations; iter++) {
    const g = cur.grad;
    if (maxAbs(g) < gtol) {
      converged = true;
      break;
    }
    const dir = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      let s = 0;
      for (let j = 0; j < n; j++) s -= Hinv[i * n + j] * g[j];
      dir[i] = s;
    }
    let slope = dot(dir, g);
    if (!(slope < 0)) {
      // Not a descent direction (curvature lost): restart from steepest descent.
      Hinv.fill(0);
      for (let i = 0; i < n; i++) (Hinv[i * n + i] = 1), (dir[i] = -g[i]);
      slope = -dot(g, g);
    }
    const big = maxAbs(dir);
    let t = big > maxStep ? maxStep / big : 1;
    let next: { f: number; grad: Float64Array } | undefined;
    let xn = x;
    for (let k = 0; k < 30; k++, t /= 2) {
      xn = Float64Array.from(x, (v, i) => v + t * dir[i]);
      next = fn(xn);
      evaluations++;
      if (next && Number.isFinite(next.f) && next.f <= cur.f + 1e-4 * t * slope) break;
      next = undefined;
    }
    if (!next) {
      converged = true; // no decrease along a descent direction: a (numerical) minimum
      break;
    }
    const s = Float64Array.from(xn, (v, i) => v - x[i]);
    const yv = Float64Array.from(next.grad, (v, i) => v - g[i]);
    const sy = dot(s, yv);
    const fPrev = cur.f;
    x = xn;
    cur = next;
    if (Math.abs(fPrev - cur.f) <= ftol * Math.max(1, Math.abs(cur.f))) {
      converged = true;
      iter++;
      break;
    }
    if (sy > 1e-12 * Math.sqrt(dot(s, s) * dot(yv, yv))) {
      // BFGS update of the inverse Hessian: H ← (I − ρ s yᵀ) H (I − ρ y sᵀ) + ρ s sᵀ.
      const rho = 1 / sy;
      const Hy = new Float64Array(n);
      for (let i = 0; i < n; i++) {
        let v = 0;
        for (let j = 0; j < n; j++) v += Hinv[i * n + j] * yv[j];
        Hy[i] = v;
      }
      const yHy = dot(yv, Hy);
      for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) Hinv[i * n + j] += -rho * (Hy[i] * s[j] + s[i] * Hy[j]) + (rho * rho * yHy + rho) * s[i] * s[j];
    }
  }
  return { x, f: cur.f, iterations: iter, evaluations, converged, inverseHessian: Hinv };
}

function dot(a: Float64Array, b: Float64Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

function maxAbs(a: Float64Array): number {
  let m = 0;
  for (const v of a) m = Math.max(m, Math.abs(v));
  return m;
}
