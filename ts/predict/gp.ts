// Gaussian-process regression ("gp", issue 16): y ~ N(h(x)ᵀβ, σ² (R + g I)) with an ARD correlation R (Matérn 3/2,
// default, Matérn 5/2 or squared exponential; one length scale ℓ_k per normalized input), a constant or linear mean h(x), and
// a nugget g relative to σ². β and σ² are profiled out (generalized least squares); θ = (log ℓ, log g) maximizes
// the profile marginal likelihood by BFGS from several deterministic starts (the `gp_nll` kernel gives the
// likelihood and its gradient; its O(n³) Cholesky and inverse run in C++ or WebAssembly).
//
// Predictions: mean h(x)ᵀβ + kᵀ(R + gI)⁻¹(y − Hβ), and a predictive standard deviation for a new observation
// sd(x) = √(σ² (1 − kᵀ(R + gI)⁻¹k + g)) (plug-in: the uncertainty of β and θ is not added). On a log response the
// interval mean ± z·sd is exponentiated (a log-normal interval).
//
// Measured noise (heteroscedastic GP): when fit is given each training response's sampling variance v_i (a map's
// yVar: the jackknife variance of the configuration's statistic over its runs, on the model scale), point i's noise
// is σ² (g + τ ṽ_i), ṽ_i = v_i / mean(v), and log τ is one more hyperparameter of the search (noise "none", or any
// unknown v_i, gives the one-nugget model above, bit for bit). A new observation's noise is σ² (g + τ), the average.
//
// Size: the hyperparameter search runs on at most `hyperPoints` training points (default GP_HYPER_POINTS, a fixed
// pseudo-random subset keyed by n): each likelihood evaluation is O(n³), and 300 points pin down d + 1
// hyperparameters well; the final solve at the chosen θ uses every point. On a search set of at least twice
// GP_SCREEN_POINTS, the starts are screened on a subset of that size and only the best are refined on the search set
// (issue 46, docs/studies/gp-speed.md). Above GP_MAX_POINTS (or with local: true)
// the final solve is not done: β and σ² come from the subset's solve, and each query is predicted by the exact
// equations on its GP_LOCAL_NEIGHBOURS nearest training points (nearest in the inputs scaled by the fitted length
// scales; nearest-neighbour kriging), O(m³) per query, so fit and prediction stay linear in n (the local solves are
// the gp_local_predict kernel). Bounds: ℓ ∈ [0.01, 100] (inputs are normalized to [0, 1]), g ∈ [nuggetMin, 10].
// When no start converges the best point found is used and `notes` says so; when the full-size covariance is not
// positive definite at the chosen nugget, the nugget is raised ×10 until it is (also noted).
import { counterRng } from "../data/random.js";
import { VarmapError } from "../errors.js";
import { gpLocalPredict, gpNll, gpPredict, type GpKernelName, type GpLikelihood } from "../backend/kernels/gp.js";
import { knn } from "../backend/kernels/neighbors.js";
import { normQuantile } from "../util/special.js";
import { bfgs, type BfgsResult } from "./bfgs.js";
import { Predictor, clampPredictions, modelScaleVariances, type PredictorOptions } from "./estimator.js";
import type { Matrix } from "./matrix.js";
import { fromModelScale } from "./scaling.js";

export type GpMean = "constant" | "linear" | "quadratic";
/**
 * The point prediction on a log response: "are" (default) exp(m − s²), the value that minimizes the expected absolute
 * relative error |ŷ − y|/y when log y ~ N(m, s²) (the 1/y-weighted median of a log-normal); "median" exp(m). On a
 * linear response both are the mean m.
 */
export type GpPoint = "are" | "median";

export interface GpOptions extends PredictorOptions {
  /** Correlation: "matern32" (default: the best on the real fread map, README), "matern52" or "sqexp". */
  kernel?: GpKernelName;
  /** Mean function: "linear" (default: intercept and one slope per input) or "constant". */
  mean?: GpMean;
  /** Number of optimizer starts (default 4): the first from ℓ = 0.3, g = 0.01, the others pseudo-random. */
  restarts?: number;
  /** Smallest nugget g (relative to σ²) the search may choose (default 1e-6). */
  nuggetMin?: number;
  /** Largest subset the hyperparameter search runs on (default GP_HYPER_POINTS). */
  hyperPoints?: number;
  /**
   * Size of the screening subset (default GP_SCREEN_POINTS): when the search set has at least twice as many points,
   * every start runs there first and only the best is refined on the search set.
   */
  screenPoints?: number;
  /**
   * Fixed hyperparameters (log ℓ_1 … log ℓ_d, log g, and log τ with measured noise), as GpState.theta holds them:
   * no search, the final solve only. For re-fitting the same rows with the same options (cv's interval calibration
   * takes the scored fit's θ); not a flag.
   */
  theta?: readonly number[];
  /** Point prediction on a log response (default "are"; see GpPoint). */
  point?: GpPoint;
  /**
   * Per-point noise when fit is given the responses' sampling variances (yVar): "measured" (default) models
   * noise_i = σ² (g + τ v_i) with v_i the variance relative to its training mean and τ fitted with the other
   * hyperparameters (a heteroscedastic GP); "none" ignores them (one nugget for every point).
   */
  noise?: GpNoise;
  /**
   * Local prediction from each query's GP_LOCAL_NEIGHBOURS nearest training points instead of the exact solve on all
   * of them (default: only above GP_MAX_POINTS, where the exact solve is refused); false refuses large training sets.
   */
  local?: boolean;
  /** Training points each local prediction uses (default GP_LOCAL_NEIGHBOURS; all of them when fewer). */
  neighbours?: number;
}

export type GpNoise = "measured" | "none";

export interface GpState {
  kernel: GpKernelName;
  mean: GpMean;
  /** log ℓ_1 … log ℓ_d, log g at the optimum (the nugget as finally used). */
  theta: number[];
  /** Profiled σ² and β at θ on the full training set. */
  sigma2: number;
  beta: number[];
  /** Inputs with a slope in the mean (linear mean: the inputs that vary on the training set). */
  slopes: number[];
  /** Negative log marginal likelihood at θ (full training set; local prediction: the search's subset). */
  nll: number;
  /** Whether the best start's optimizer converged. */
  converged: boolean;
  /** Training inputs (normalized), row-major, and model-scale responses: the solve is redone on load. */
  centers: number[];
  y: number[];
  notes: string[];
  /** With measured noise: each training point's sampling variance relative to their mean (θ then ends with log τ). */
  noise?: number[];
  /** Local prediction: the number of nearest training points each query is predicted from (β and σ² are kept). */
  local?: { neighbours: number };
  /**
   * Responses far from 1 in magnitude (responseExponent): the model is fitted to y / 2^yScale, so `y`, `beta` and
   * `sigma2` here are in those units and predictions are multiplied back by 2^yScale. Absent: unscaled.
   */
  yScale?: number;
}

/**
 * Responses whose largest magnitude lies outside [2^-GP_SAFE_EXPONENT, 2^GP_SAFE_EXPONENT] are fitted divided by
 * a power of two near it (issue 44): σ² is of the order of y², which overflows near y = 1e154 (the kernel failed,
 * E_KERNEL_INTERNAL) and loses precision to subnormals near 1e-154 (the fit degraded). A power of two divides
 * exactly, and responses inside the band are not touched, so the models of every usual scale keep their bits.
 */
export const GP_SAFE_EXPONENT = 64;

/** The power of two a gp divides its model-scale responses by (0: none; see GP_SAFE_EXPONENT). */
export function responseExponent(y: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < y.length; i++) m = Math.max(m, Math.abs(y[i]));
  if (!(m > 0 && m < Infinity)) return 0;
  const e = Math.floor(Math.log2(m));
  return Math.abs(e) > GP_SAFE_EXPONENT ? e : 0;
}

/** y / 2^e, exactly (e within ±1023 + what the responses' range allows); y itself when e is 0. */
function scaleDown(y: Float64Array, e: number): Float64Array {
  if (!e) return y;
  return Float64Array.from(y, (v) => v * 2 ** -e);
}

/** Largest training set of the exact solve (two n × n matrices of doubles: 144 MB at 3,000). */
export const GP_MAX_POINTS = 3000;
/** Training points of a local prediction (each query's nearest, by the fitted length scales). */
export const GP_LOCAL_NEIGHBOURS = 100;
/** Default largest subset of the hyperparameter search. */
export const GP_HYPER_POINTS = 300;
/** Default screening subset: every start's search runs on this many points when the search set has twice as many. */
export const GP_SCREEN_POINTS = 100;
/** BFGS iterations each screened optimum gets on the whole search set (warm), before the best of them continues. */
const GP_PROBE_ITERATIONS = 3;
/** Screened optima closer than this in every unbounded search coordinate are one optimum (probed once). */
const GP_SAME_OPTIMUM = 0.25;
/** Largest number of BFGS iterations of that continuation. */
const GP_REFINE_ITERATIONS = 60;
/** Relative change of the likelihood that ends the continuation (the screened starts keep bfgs's 1e-10). */
const GP_REFINE_FTOL = 1e-8;

/** One stage of the hyperparameter search: its points, starts, likelihood evaluations and BFGS iterations. */
export interface GpSearchStage {
  points: number;
  starts: number;
  evaluations: number;
  iterations: number;
}
/** How the last fit's hyperparameter search went (not saved with the model). */
export interface GpSearchStats {
  stages: GpSearchStage[];
}
const LOG_ELL: [number, number] = [Math.log(0.01), Math.log(100)];
const LOG_NUGGET_MAX = Math.log(10);
/** Bounds of log τ, the weight of the relative measured variances (mean 1) against σ², like the nugget's. */
const LOG_TAU: [number, number] = [Math.log(1e-6), Math.log(10)];

export interface GpPrediction {
  /** Model-scale mean and predictive standard deviation of a new observation. */
  mean: Float64Array;
  sd: Float64Array;
}

export class Gp extends Predictor<GpState, GpOptions> {
  readonly method = "gp";
  private state?: GpState;
  /** The last fit's search: stages, evaluations, iterations (profiling; not part of the saved model). */
  lastSearch?: GpSearchStats;
  private fitted_?: { X: Float64Array; n: number; lik: GpLikelihood } | { X: Float64Array; n: number; local: LocalSolve };

  constructor(options: GpOptions = {}) {
    super(options);
    const { kernel, mean, restarts, nuggetMin, hyperPoints, screenPoints, point, noise, local, neighbours, theta } = options;
    if (theta !== undefined && !(Array.isArray(theta) && theta.every((t) => typeof t === "number")))
      throw new VarmapError("E_OPTION", "gp: theta must be an array of numbers", { remedy: "leave theta unset" });
    if (screenPoints !== undefined && !(Number.isInteger(screenPoints) && screenPoints >= 10))
      throw new VarmapError("E_OPTION", `gp: screenPoints must be an integer >= 10, got ${String(screenPoints)}`, { remedy: "use screenPoints: 100" });
    if (neighbours !== undefined && !(Number.isInteger(neighbours) && neighbours >= 2 && neighbours <= 1000))
      throw new VarmapError("E_OPTION", `gp: neighbours must be an integer in 2…1000, got ${String(neighbours)}`, { remedy: "use neighbours: 100" });
    if (local !== undefined && typeof local !== "boolean")
      throw new VarmapError("E_OPTION", `gp: local must be true or false, got ${String(local)}`, { remedy: "use local: true" });
    if (noise !== undefined && noise !== "measured" && noise !== "none")
      throw new VarmapError("E_OPTION", `gp: noise must be measured or none, got ${String(noise)}`, { remedy: 'use noise: "measured"' });
    if (point !== undefined && point !== "are" && point !== "median")
      throw new VarmapError("E_OPTION", `gp: point must be are or median, got ${String(point)}`, { remedy: 'use point: "are"' });
    if (kernel !== undefined && kernel !== "matern52" && kernel !== "matern32" && kernel !== "sqexp")
      throw new VarmapError("E_OPTION", `gp: kernel must be matern52, matern32 or sqexp, got ${String(kernel)}`, { remedy: 'use kernel: "matern52"' });
    if (mean !== undefined && mean !== "constant" && mean !== "linear" && mean !== "quadratic")
      throw new VarmapError("E_OPTION", `gp: mean must be constant, linear or quadratic, got ${String(mean)}`, { remedy: 'use mean: "linear"' });
    if (restarts !== undefined && !(Number.isInteger(restarts) && restarts >= 1 && restarts <= 100))
      throw new VarmapError("E_OPTION", `gp: restarts must be an integer in 1…100, got ${String(restarts)}`, { remedy: "use restarts: 4" });
    if (nuggetMin !== undefined && !(typeof nuggetMin === "number" && nuggetMin > 0 && nuggetMin < 10))
      throw new VarmapError("E_OPTION", `gp: nuggetMin must be a number in (0, 10), got ${String(nuggetMin)}`, { remedy: "use nuggetMin: 1e-6" });
    if (hyperPoints !== undefined && !(Number.isInteger(hyperPoints) && hyperPoints >= 10))
      throw new VarmapError("E_OPTION", `gp: hyperPoints must be an integer >= 10, got ${String(hyperPoints)}`, { remedy: "use hyperPoints: 300" });
  }

  private get meanKind(): GpMean {
    return this.options.mean ?? "linear";
  }
  private get kernelName(): GpKernelName {
    return this.options.kernel ?? "matern32";
  }

  protected override minPoints(d: number): number {
    return this.meanKind === "constant" ? 2 : this.meanKind === "linear" ? d + 2 : 2 * d + 2;
  }

  protected fitScaled(X: Matrix, yIn: Float64Array, measured?: Float64Array): void {
    const n = X.rows,
      d = X.cols;
    const yScale = responseExponent(yIn);
    const y = scaleDown(yIn, yScale);
    if (n > GP_MAX_POINTS && this.options.local === false)
      throw new VarmapError("E_TOO_MANY_POINTS", `gp: the exact solve takes at most ${GP_MAX_POINTS} training points, got ${n}`, {
        remedy: "allow the local variant (--gp-local yes, or leave --gp-local unset), or use another method",
      });
    const local = this.options.local ?? n > GP_MAX_POINTS;
    const notes: string[] = [];
    const slopes: number[] = [];
    if (this.meanKind !== "constant")
      for (let j = 0; j < d; j++) {
        let lo = Infinity,
          hi = -Infinity;
        for (let i = 0; i < n; i++) (lo = Math.min(lo, X.data[i * d + j])), (hi = Math.max(hi, X.data[i * d + j]));
        if (hi > lo) slopes.push(j);
        else notes.push(`input ${j} is constant on the training set: no slope for it in the mean`);
      }
    const nuggetMin = this.options.nuggetMin ?? 1e-6;
    const bounds: [number, number][] = [...Array.from({ length: d }, () => LOG_ELL), [Math.log(nuggetMin), LOG_NUGGET_MAX]];
    const v = this.options.noise === "none" ? undefined : relativeVariances(measured, notes);
    if (this.variancesLost && this.options.noise !== "none")
      notes.push("the measured variances do not fit in a double at this response scale (beyond 1e±150): one nugget for every point");
    if (v) bounds.push(LOG_TAU);

    // The hyperparameter search, on a subset when the training set is large.
    const hyperPoints = this.options.hyperPoints ?? GP_HYPER_POINTS;
    const sub = n > hyperPoints ? subsetRows(n, hyperPoints) : undefined;
    if (sub) notes.push(`hyperparameters chosen on ${hyperPoints} of the ${n} training points`);
    const Xs = sub ? gather(X.data, sub, d) : X.data;
    const ys = sub ? Float64Array.from(sub, (i) => y[i]) : y;
    const vs = v && sub ? Float64Array.from(sub, (i) => v[i]) : v;
    const ns = sub ? sub.length : n;
    const Hs = basis(Xs, ns, d, slopes, this.meanKind);
    const p = basisColumns(slopes, this.meanKind);
    // The search, unless the hyperparameters are given (θ of an earlier fit on these same rows: no search, one solve).
    const searchTheta = (): { theta: Float64Array; converged: boolean } => {
      const stats: GpSearchStats = { stages: [] };
      this.lastSearch = stats;
      // The likelihood on rows `rows` of the search set (all of them when undefined), in the optimizer's unbounded z.
      const objectiveOn = (rows: Int32Array | undefined, stage: GpSearchStage) => {
        const Xo = rows ? gather(Xs, rows, d) : Xs;
        const yo = rows ? Float64Array.from(rows, (i) => ys[i]) : ys;
        const vo = vs && rows ? Float64Array.from(rows, (i) => vs[i]) : vs;
        const no = rows ? rows.length : ns;
        const Ho = rows ? gather(Hs, rows, p) : Hs;
        return (z: Float64Array) => {
          stage.evaluations++;
          const theta = fromZ(z, bounds);
          const r = gpNll(this.backend, Xo, yo, Ho, no, d, p, this.kernelName, theta, true, vo);
          if ("status" in r) return undefined;
          const grad = Float64Array.from(r.grad, (g, i) => g * dTheta(theta[i], bounds[i]));
          return { f: r.nll, grad };
        };
      };
      const restarts = this.options.restarts ?? 4;
      // Screening (issue 46): on a large search set every start runs on a smaller subset of it first (GP_SCREEN_POINTS,
      // O(m³) per evaluation), and only the best start is refined on the whole search set, warm (its inverse Hessian
      // carried over). Every row involved is a training row of this fit.
      const screenPoints = this.options.screenPoints ?? GP_SCREEN_POINTS;
      const screen = ns >= 2 * screenPoints ? subsetRows(ns, screenPoints) : undefined;
      const first: GpSearchStage = { points: screen ? screen.length : ns, starts: restarts, evaluations: 0, iterations: 0 };
      stats.stages.push(first);
      const objective = objectiveOn(screen, first);
      const found: BfgsResult[] = [];
      let failed = 0;
      for (let s = 0; s < restarts; s++) {
        const theta0 = new Float64Array(bounds.length);
        if (s === 0) {
          theta0.fill(Math.log(0.3));
          theta0[d] = Math.min(Math.max(Math.log(0.01), bounds[d][0]), bounds[d][1]);
          if (v) theta0[d + 1] = Math.log(0.01);
        } else {
          const r = counterRng(0, "gp-start", s);
          for (let k = 0; k <= d; k++) theta0[k] = bounds[k][0] + (bounds[k][1] - bounds[k][0]) * (0.15 + 0.7 * r.next());
          if (v) theta0[d + 1] = bounds[d + 1][0] + (bounds[d + 1][1] - bounds[d + 1][0]) * (0.15 + 0.7 * counterRng(0, "gp-start-tau", s).next());
        }
        const res = bfgs(objective, toZ(theta0, bounds));
        if (!res) {
          failed++;
          continue;
        }
        first.iterations += res.iterations;
        found.push(res);
      }
      let best: BfgsResult | undefined;
      if (screen) {
        // Successive halving on the whole search set: every screened optimum gets GP_PROBE_ITERATIONS iterations there
        // (warm: its inverse Hessian carried over), and the best of them continues to convergence.
        const probe: GpSearchStage = { points: ns, starts: 0, evaluations: 0, iterations: 0 };
        stats.stages.push(probe);
        const full = objectiveOn(undefined, probe);
        let lead: BfgsResult | undefined;
        // The negative log likelihood grows about in proportion to the points: the screened inverse Hessian is scaled
        // down by the ratio. Starts that ended at the same screened optimum (within GP_SAME_OPTIMUM in every
        // unbounded coordinate) are probed once.
        const scale = screen.length / ns;
        const distinct: BfgsResult[] = [];
        for (const r of [...found].sort((a, b) => a.f - b.f))
          if (!distinct.some((q) => q.x.every((z, i) => Math.abs(z - r.x[i]) < GP_SAME_OPTIMUM))) distinct.push(r);
        for (const start of distinct) {
          const res = bfgs(full, start.x, { inverseHessian: start.inverseHessian.map((h) => h * scale), maxIterations: GP_PROBE_ITERATIONS });
          if (!res) continue;
          probe.starts++;
          probe.iterations += res.iterations;
          if (!lead || res.f < lead.f) lead = res;
        }
        if (lead && !lead.converged) {
          const finish: GpSearchStage = { points: ns, starts: 1, evaluations: 0, iterations: 0 };
          stats.stages.push(finish);
          const res = bfgs(objectiveOn(undefined, finish), lead.x, {
            inverseHessian: lead.inverseHessian,
            maxIterations: GP_REFINE_ITERATIONS,
            ftol: GP_REFINE_FTOL,
          });
          if (res) finish.iterations += res.iterations;
          best = res && res.f <= lead.f ? res : lead;
        } else best = lead;
      } else for (const res of found) if (!best || res.f < best.f) best = res;
      if (!best)
        throw new VarmapError("E_GP_FIT_FAILED", `gp: none of the ${restarts} starts gave a positive definite covariance (${n} points)`, {
          remedy: "raise --gp-nugget-min, remove duplicate configurations, or use another method",
        });
      if (failed) notes.push(`${failed} of ${restarts} starts were infeasible (covariance not positive definite)`);
      if (screen) notes.push(`${restarts} starts screened on ${screen.length} of the search's ${ns} points, the best refined on all ${ns}`);
      if (!best.converged) notes.push("the optimizer did not converge from the best start: its best point is used");
      return { theta: fromZ(best.x, bounds), converged: best.converged };
    };
    let theta: Float64Array, converged: boolean;
    const given = this.options.theta;
    if (given) {
      if (given.length !== bounds.length || !given.every((t, i) => Number.isFinite(t) && t >= bounds[i][0] - 1e-9 && t <= bounds[i][1] + 1e-9))
        throw new VarmapError("E_OPTION", `gp: theta must be ${bounds.length} finite log hyperparameters within their bounds, got ${given.length}`, {
          remedy: "pass the theta of a model fitted on the same rows with the same options (or leave theta unset)",
        });
      theta = Float64Array.from(given);
      converged = true;
      this.lastSearch = { stages: [] };
      notes.push("hyperparameters given: no search");
    } else ({ theta, converged } = searchTheta());

    // The final solve on every point (local: on the search's subset, for β and σ²); a nugget too small for the set
    // is raised until the Cholesky succeeds.
    const H = local ? Hs : basis(X.data, n, d, slopes, this.meanKind);
    const solveOn = local ? { X: Xs, y: ys, v: vs, n: ns } : { X: X.data, y, v, n };
    let lik: GpLikelihood | undefined;
    for (let attempt = 0; attempt < 12; attempt++) {
      const r = gpNll(this.backend, solveOn.X, solveOn.y, H, solveOn.n, d, p, this.kernelName, theta, false, solveOn.v);
      if (!("status" in r)) {
        lik = r;
        break;
      }
      if (r.status !== 10) break;
      theta[d] = Math.log(Math.max(Math.exp(theta[d]) * 10, 1e-10));
      notes.push(`nugget raised to ${Math.exp(theta[d])}: the covariance of ${solveOn.n} points was not positive definite`);
    }
    if (!lik)
      throw new VarmapError("E_GP_FIT_FAILED", `gp: the covariance of the ${solveOn.n} training points is singular at the chosen hyperparameters`, {
        remedy: "raise --gp-nugget-min, remove duplicate configurations, or use another method",
      });
    const neighbours = Math.min(this.options.neighbours ?? GP_LOCAL_NEIGHBOURS, n);
    if (local) {
      notes.push(`local prediction: each query from its ${neighbours} nearest of the ${n} training points (β and σ² from ${ns} points)`);
      this.fitted_ = { X: Float64Array.from(X.data), n, local: localSolve(X.data, y, n, d, theta, slopes, this.meanKind, lik.beta, v) };
    } else this.fitted_ = { X: Float64Array.from(X.data), n, lik };
    this.state = {
      kernel: this.kernelName,
      mean: this.meanKind,
      theta: Array.from(theta),
      sigma2: lik.sigma2,
      beta: Array.from(lik.beta),
      slopes,
      nll: lik.nll,
      converged,
      centers: [],
      y: Array.from(y),
      notes,
      ...(v ? { noise: Array.from(v) } : {}),
      ...(local ? { local: { neighbours } } : {}),
      ...(yScale ? { yScale } : {}),
    };
  }

  /** Residual mean and correlation-scale variance at normalized queries: the exact solve's, or the local one's. */
  private residualPrediction(Xq: Matrix, theta: Float64Array): { mean: Float64Array; variance: Float64Array } {
    const s = this.state!,
      f = this.fitted_!;
    const d = Xq.cols;
    if ("lik" in f) return gpPredict(this.backend, f.X, f.n, d, s.kernel, theta, f.lik.L, f.lik.alpha, Xq.data, Xq.rows);
    const m = s.local!.neighbours;
    const scaled = scaleByLengths(Xq.data, d, theta);
    const { indices } = knn(this.backend, f.local.scaled, scaled, d, m);
    // A neighbourhood of near-duplicates the subset did not hold may need more nugget than the fit chose: these
    // queries are then predicted (and their sd computed) with the nugget raised, as the exact fit would have raised it.
    for (let attempt = 0; attempt < 12; attempt++) {
      const r = gpLocalPredict(this.backend, f.X, f.n, d, s.kernel, theta, f.local.res, indices, m, Xq.data, Xq.rows, f.local.noise);
      if (!("status" in r)) return r;
      theta[d] = Math.log(Math.max(Math.exp(theta[d]) * 10, 1e-10));
    }
    throw new VarmapError("E_GP_NOT_POSITIVE_DEFINITE", "gp: a local covariance stays singular even with the nugget raised 12 times", {
      remedy: "remove duplicate configurations, or use another method",
    });
  }

  /** Model-scale mean and predictive sd of a new observation at normalized queries. */
  private meanAndSd(Xq: Matrix): GpPrediction {
    const s = this.state!;
    const d = Xq.cols;
    const theta = Float64Array.from(s.theta);
    const r = this.residualPrediction(Xq, theta);
    const H = basis(Xq.data, Xq.rows, d, s.slopes, s.mean);
    const p = basisColumns(s.slopes, s.mean);
    // A new observation's noise: the nugget, plus with measured noise τ times the average relative variance (1).
    const g = Math.exp(theta[d]) + (s.noise ? Math.exp(theta[d + 1]) : 0);
    const sd = new Float64Array(Xq.rows);
    for (let i = 0; i < Xq.rows; i++) {
      r.mean[i] = plusTrend(r.mean[i], H, i, p, s.beta);
      sd[i] = Math.sqrt(s.sigma2 * (r.variance[i] + g));
    }
    if (s.yScale) {
      const f = 2 ** s.yScale;
      for (let i = 0; i < Xq.rows; i++) (r.mean[i] *= f), (sd[i] *= f);
    }
    return { mean: r.mean, sd };
  }

  protected predictScaled(Xq: Matrix): Float64Array {
    const { mean, sd } = this.meanAndSd(Xq);
    if (this.options.response !== "log" || this.options.point === "median") return mean;
    return Float64Array.from(mean, (m, i) => m - sd[i] * sd[i]);
  }

  /** Predictions on the model scale with their predictive standard deviation (a new observation's). */
  predictWithSd(Xq: Matrix): GpPrediction {
    return this.meanAndSd(this.transformQueries(Xq));
  }

  /**
   * The GP's own central interval of probability `level` for a new observation: mean ± z·sd on the model scale,
   * then back to the response scale (exponentiated on a log response, clamped like the predictions).
   */
  predictInterval(Xq: Matrix, level: number): { lo: Float64Array; hi: Float64Array } {
    if (!(level > 0 && level < 1)) throw new VarmapError("E_OPTION", `gp: interval level must be in (0, 1), got ${level}`, { remedy: "e.g. 0.9" });
    const { mean, sd } = this.predictWithSd(Xq);
    const z = normQuantile(0.5 + level / 2);
    const lo = Float64Array.from(mean, (m, i) => m - z * sd[i]);
    const hi = Float64Array.from(mean, (m, i) => m + z * sd[i]);
    const response = this.options.response ?? "linear";
    const range = this.clampRange;
    if (range) clampPredictions(lo, response, range), clampPredictions(hi, response, range);
    return { lo: fromModelScale(lo, response), hi: fromModelScale(hi, response) };
  }

  /**
   * A model with this one's hyperparameters solved on other training rows, without a new search (the final solve
   * only: O(n³) once instead of the search's hundreds of likelihood evaluations). X and y are given as this model was
   * fitted (raw inputs, response scale, and yVar as fit takes it); the input scaling and the response scale are kept.
   * With measured noise and the rows' variances, τ weighs them relative to their own mean; without them the solve
   * uses the nugget alone. A local model keeps its β and σ² (from its fit's subset) and predicts from the new rows.
   */
  solvedOn(X: Matrix, y: Float64Array, yVar?: ArrayLike<number>): Gp {
    const json = this.toJSON();
    const Z = this.transformQueries(X);
    const response = this.options.response ?? "linear";
    const yModel = scaleDown(response === "log" ? Float64Array.from(y, Math.log) : Float64Array.from(y), json.state.yScale ?? 0);
    const { support: _support, logRange: _logRange, range: _range, ...rest } = json;
    const { noise: _noise, ...solved } = json.state;
    const d = X.cols;
    const v = json.state.noise ? relativeVariances(modelScaleVariances(y, yVar, response), []) : undefined;
    const theta = v ? solved.theta : solved.theta.slice(0, d + 1);
    const state = { ...solved, theta, centers: Array.from(Z.data), y: Array.from(yModel), ...(v ? { noise: Array.from(v) } : {}) };
    return new Gp(this.options).restore({ ...rest, state });
  }

  /** The fitted hyperparameters: length scales (normalized inputs), nugget, σ², β and the fit's notes. */
  get hyperparametersFitted(): {
    lengthScales: number[];
    nugget: number;
    /** τ, the weight of the measured relative variances (measured noise only). */
    noiseScale?: number;
    sigma2: number;
    beta: number[];
    nll: number;
    converged: boolean;
    notes: string[];
  } {
    const s = this.state;
    if (!s) throw new VarmapError("E_NOT_FITTED", "this gp model has not been fitted", { remedy: "call fit(X, y) first" });
    const d = s.theta.length - (s.noise ? 2 : 1);
    const f = 2 ** (s.yScale ?? 0);
    return {
      lengthScales: s.theta.slice(0, d).map(Math.exp),
      nugget: Math.exp(s.theta[d]),
      ...(s.noise ? { noiseScale: Math.exp(s.theta[d + 1]) } : {}),
      sigma2: s.sigma2 * f * f,
      beta: s.beta.map((b) => b * f),
      nll: s.nll,
      converged: s.converged,
      notes: [...s.notes],
    };
  }

  /** The options a saved model records: a given theta is the fit's result (GpState.theta), not a setting. */
  protected override hyperparameters(): Record<string, unknown> {
    const { theta: _theta, ...rest } = super.hyperparameters();
    return rest;
  }

  /** θ as the fit chose it (log ℓ, log g, [log τ]): GpOptions.theta re-fits the same rows without a search. */
  get thetaFitted(): number[] {
    if (!this.state) throw new VarmapError("E_NOT_FITTED", "this gp model has not been fitted", { remedy: "call fit(X, y) first" });
    return [...this.state.theta];
  }

  protected stateJSON(): GpState {
    const s = this.state!;
    return {
      ...s,
      theta: [...s.theta],
      beta: [...s.beta],
      slopes: [...s.slopes],
      centers: Array.from(this.fitted_!.X),
      y: [...s.y],
      notes: [...s.notes],
      ...(s.noise ? { noise: [...s.noise] } : {}),
      ...(s.local ? { local: { ...s.local } } : {}),
    };
  }

  protected loadState(state: GpState): void {
    const d = state.theta.length - (state.noise ? 2 : 1);
    const n = state.y.length;
    const X = Float64Array.from(state.centers);
    const y = Float64Array.from(state.y);
    if (state.local) {
      if (!(Number.isInteger(state.local.neighbours) && state.local.neighbours >= 1 && state.local.neighbours <= n))
        throw new VarmapError("E_MODEL_FORMAT", `gp: local.neighbours must be an integer in 1…${n}`, { remedy: "refit the model" });
      // β and σ² are the fit's (from its subset); only the residuals and the scaled inputs are recomputed.
      this.fitted_ = {
        X,
        n,
        local: localSolve(X, y, n, d, Float64Array.from(state.theta), state.slopes, state.mean, Float64Array.from(state.beta), state.noise),
      };
      this.state = cloneState(state);
      return;
    }
    const H = basis(X, n, d, state.slopes, state.mean);
    const v = state.noise ? Float64Array.from(state.noise) : undefined;
    // The factorization is recomputed from the stored θ (deterministic: the same backend gives the same bits).
    const r = gpNll(this.backend, X, y, H, n, d, basisColumns(state.slopes, state.mean), state.kernel, Float64Array.from(state.theta), false, v);
    if ("status" in r) throw new VarmapError("E_MODEL_FORMAT", "gp: the stored hyperparameters give a singular covariance", { remedy: "refit the model" });
    this.fitted_ = { X, n, lik: r };
    this.state = { ...cloneState(state), beta: Array.from(r.beta), sigma2: r.sigma2 };
  }
}

function cloneState(state: GpState): GpState {
  return {
    ...state,
    theta: [...state.theta],
    beta: [...state.beta],
    centers: [],
    y: [...state.y],
    notes: [...state.notes],
    ...(state.noise ? { noise: [...state.noise] } : {}),
    ...(state.local ? { local: { ...state.local } } : {}),
  };
}

/**
 * What local prediction needs: the training residuals y − Hβ, the inputs scaled by the length scales (for knn) and,
 * with measured noise, the relative variances the kernel reads.
 */
interface LocalSolve {
  res: Float64Array;
  scaled: Float64Array;
  noise?: Float64Array;
}

function localSolve(
  X: Float64Array,
  y: Float64Array,
  n: number,
  d: number,
  theta: Float64Array,
  slopes: readonly number[],
  mean: GpMean,
  beta: Float64Array,
  noise: ArrayLike<number> | undefined,
): LocalSolve {
  const H = basis(X, n, d, slopes, mean);
  const p = basisColumns(slopes, mean);
  const res = Float64Array.from(y, (yi, i) => yi - plusTrend(0, H, i, p, beta));
  return { res, scaled: scaleByLengths(X, d, theta), noise: noise && Float64Array.from(noise) };
}

/** start + h_iᵀβ, the mean basis row i of H (p columns) times β, added term by term. */
function plusTrend(start: number, H: Float64Array, i: number, p: number, beta: ArrayLike<number>): number {
  let m = start;
  for (let c = 0; c < p; c++) m += H[i * p + c] * beta[c];
  return m;
}

/** Inputs divided by their length scales: Euclidean distance there is the correlation's scaled distance r. */
function scaleByLengths(X: Float64Array, d: number, theta: Float64Array): Float64Array {
  const inv = Array.from({ length: d }, (_, k) => Math.exp(-theta[k]));
  return Float64Array.from(X, (x, i) => x * inv[i % d]);
}

/**
 * The measured variances relative to their mean (so τ is on the nugget's scale whatever the response's units), or
 * undefined when there are none or they carry no information (all zero).
 */
function relativeVariances(measured: Float64Array | undefined, notes: string[]): Float64Array | undefined {
  if (!measured || measured.length === 0) return undefined;
  let sum = 0;
  for (let i = 0; i < measured.length; i++) sum += measured[i];
  const mean = sum / measured.length;
  if (!(mean > 0 && Number.isFinite(mean))) {
    notes.push("the measured variances are all zero: one nugget for every point");
    return undefined;
  }
  return Float64Array.from(measured, (x) => x / mean);
}

function basisColumns(slopes: readonly number[], mean: GpMean): number {
  return 1 + (mean === "quadratic" ? 2 : 1) * slopes.length;
}

/** Mean basis rows [1, x_j for j in slopes] (quadratic: also (x_j − ½)² for j in slopes), row-major. */
function basis(X: Float64Array, n: number, d: number, slopes: readonly number[], mean: GpMean): Float64Array {
  const p = basisColumns(slopes, mean);
  const m = slopes.length;
  const H = new Float64Array(n * p);
  for (let i = 0; i < n; i++) {
    H[i * p] = 1;
    slopes.forEach((j, c) => (H[i * p + c + 1] = X[i * d + j]));
    if (mean === "quadratic") slopes.forEach((j, c) => (H[i * p + m + c + 1] = (X[i * d + j] - 0.5) ** 2));
  }
  return H;
}

function gather(X: Float64Array, rows: Int32Array, d: number): Float64Array {
  const out = new Float64Array(rows.length * d);
  rows.forEach((r, i) => out.set(X.subarray(r * d, r * d + d), i * d));
  return out;
}

/** A fixed pseudo-random subset of k of n rows (sorted), keyed by n only. */
function subsetRows(n: number, k: number): Int32Array {
  const idx = Int32Array.from({ length: n }, (_, i) => i);
  const r = counterRng(0, "gp-subset", n);
  for (let i = 0; i < k; i++) {
    const j = i + r.int(n - i);
    const t = idx[i];
    (idx[i] = idx[j]), (idx[j] = t);
  }
  return idx.slice(0, k).sort();
}

// θ in a box through a logistic map of an unconstrained z (the optimizer never leaves the bounds).
function fromZ(z: Float64Array, bounds: readonly [number, number][]): Float64Array {
  return Float64Array.from(z, (v, i) => bounds[i][0] + (bounds[i][1] - bounds[i][0]) / (1 + Math.exp(-v)));
}
function toZ(theta: Float64Array, bounds: readonly [number, number][]): Float64Array {
  return Float64Array.from(theta, (t, i) => {
    const u = Math.min(Math.max((t - bounds[i][0]) / (bounds[i][1] - bounds[i][0]), 1e-9), 1 - 1e-9);
    return Math.log(u / (1 - u));
  });
}
function dTheta(theta: number, [lo, hi]: [number, number]): number {
  return ((theta - lo) * (hi - theta)) / (hi - lo);
}
