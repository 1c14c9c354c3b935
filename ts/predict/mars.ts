// MARS (Friedman 1991; Fast MARS 1993) compatible with R's earth 5.3: the same defaults give the same model.
// The kernel does the fit; this class holds options, the selected terms and a summary() like summary(earth).
import { VarmapError } from "../errors.js";
import { powerOfTwoScale } from "../data/stats.js";
import { earthDefaults, marsFit, marsPredict, type MarsKernelOptions } from "../backend/kernels/mars.js";
import { Predictor, type PredictorOptions } from "./estimator.js";
import type { Matrix } from "./matrix.js";

export interface MarsOptions extends PredictorOptions {
  /** Maximum interaction degree (earth `degree`, default 1). */
  degree?: number;
  /** Maximum number of terms in the forward pass, intercept included (default min(200, max(20, 2·ncol)) + 1). */
  nk?: number;
  /** Forward pass stops when R² improves by less than this, or reaches 1 − thresh (default 0.001). */
  thresh?: number;
  /** GCV cost per knot (default 2 for degree 1, 3 otherwise; −1: knots are free). */
  penalty?: number;
  /** Cases between knots: 0 = Friedman's formula (default), < 0 = number of evenly spaced knots. */
  minspan?: number;
  /** Cases at each end without knots: 0 = Friedman's formula (default). */
  endspan?: number;
  /** Fast MARS parent queue length (earth fast.k, default 20; 0 = every parent). */
  fastK?: number;
  /** Fast MARS ageing coefficient (earth fast.beta, default 1). */
  fastBeta?: number;
  /** Penalty for a predictor entering the model for the first time (earth newvar.penalty, default 0). */
  newvarPenalty?: number;
  /** A best knot at a predictor's minimum enters as a linear term (earth Auto.linpreds, default true). */
  autoLinpreds?: boolean;
  /** Endspan multiplier for interaction terms (earth Adjust.endspan, default 2). */
  adjustEndspan?: number;
  /** Standardize y during the forward pass (earth Scale.y, default true). */
  scaleY?: boolean;
}

/** One selected term: per input 0 unused, 1 max(0, x − cut), −1 max(0, cut − x), 2 x (linear). */
export interface MarsTerm {
  dirs: number[];
  cuts: number[];
  coef: number;
}

export interface MarsState {
  terms: MarsTerm[];
  nForwardTerms: number;
  termCond: number;
  rss: number;
  gcv: number;
  rsq: number;
  grsq: number;
  nTrain: number;
  options: Required<Omit<MarsOptions, keyof PredictorOptions>>;
}

/** Why the forward pass stopped, in earth's words (print.termcond). */
function termination(s: MarsState): string {
  const t = s.options.thresh;
  switch (s.termCond) {
    case 1:
      return `Reached maximum number of terms ${s.options.nk}`;
    case 2:
      return "GRSq -Inf";
    case 3:
      return "Reached minimum GRSq -10";
    case 4:
      return `RSq changed by less than ${t}`;
    case 5:
      return `Reached maximum RSq ${(1 - t).toFixed(4)}`;
    case 6:
      return "No new term increases RSq";
    case 7:
      return `Reached nk ${s.options.nk}`;
    default:
      return "unknown";
  }
}

export class Mars extends Predictor<MarsState, MarsOptions> {
  readonly method = "mars";
  /** No far-query move (FAR_QUERY_RADIUS): hinges and their products: finite at any distance (the response clamp bounds it). */
  protected override farQueryRadius(): number {
    return Infinity;
  }
  private state?: MarsState;

  constructor(options: MarsOptions = {}) {
    super(options);
    checkOptions(options);
  }

  protected override minPoints(): number {
    return 2;
  }

  /** earth's defaults for d inputs, with the user's options on top. */
  resolvedOptions(d: number): Required<Omit<MarsOptions, keyof PredictorOptions>> {
    const o = this.options;
    const base = earthDefaults(d, o.degree ?? 1);
    return {
      degree: base.degree,
      nk: o.nk ?? base.nk,
      thresh: o.thresh ?? base.thresh,
      penalty: o.penalty ?? base.penalty,
      minspan: o.minspan ?? base.minspan,
      endspan: o.endspan ?? base.endspan,
      fastK: o.fastK ?? base.fastK,
      fastBeta: o.fastBeta ?? base.fastBeta,
      newvarPenalty: o.newvarPenalty ?? base.newvarPenalty,
      autoLinpreds: o.autoLinpreds ?? base.autoLinpreds,
      adjustEndspan: o.adjustEndspan ?? base.adjustEndspan,
      scaleY: o.scaleY ?? base.scaleY,
    };
  }

  protected fitScaled(X: Matrix, y: Float64Array): void {
    const opts = this.resolvedOptions(X.cols);
    // MARS is scale-equivariant; responses far from 1 (beyond 2^±256) are fitted divided by a power of 2 (exact),
    // so squared sums cannot overflow or underflow in the kernel, and the coefficients are scaled back.
    const scale = powerOfTwoScale(y, 256);
    const ys = scale === 1 ? y : y.map((v) => v * scale);
    const r = marsFit(this.backend, X.data, ys, X.cols, opts as MarsKernelOptions);
    const d = X.cols;
    const terms: MarsTerm[] = [];
    for (let t = 0; t < r.termFlags.length; t++) {
      if (!(r.termFlags[t] & 2)) continue;
      terms.push({ dirs: Array.from(r.dirs.subarray(t * d, (t + 1) * d)), cuts: Array.from(r.cuts.subarray(t * d, (t + 1) * d)), coef: r.coef[t] / scale });
    }
    const s2 = scale * scale;
    this.state = {
      terms,
      nForwardTerms: r.nFullSet,
      termCond: r.termCond,
      rss: r.rss / s2,
      gcv: r.gcv / s2,
      rsq: r.rsq,
      grsq: r.grsq,
      nTrain: X.rows,
      options: opts,
    };
  }

  protected predictScaled(Xq: Matrix): Float64Array {
    const s = this.requireState();
    const d = this.dim;
    const dirs = Int32Array.from(s.terms.flatMap((t) => t.dirs));
    const cuts = Float64Array.from(s.terms.flatMap((t) => t.cuts));
    const coef = Float64Array.from(s.terms.map((t) => t.coef));
    return marsPredict(this.backend, dirs, cuts, coef, d, Xq.data);
  }

  protected stateJSON(): MarsState {
    return this.requireState();
  }

  protected loadState(state: MarsState): void {
    if (!state || !Array.isArray(state.terms))
      throw new VarmapError("E_MODEL_FORMAT", "the mars model has no terms", { remedy: "pass the JSON written by toJSON() or `varmap fit`" });
    this.state = state;
  }

  /** The selected terms (in forward-pass order, intercept first). */
  get terms(): readonly MarsTerm[] {
    return this.requireState().terms;
  }

  /** Fit statistics on the training data (response on the model scale). */
  get stats(): { rss: number; gcv: number; rsq: number; grsq: number; nForwardTerms: number; termCond: number; termination: string } {
    const s = this.requireState();
    return { rss: s.rss, gcv: s.gcv, rsq: s.rsq, grsq: s.grsq, nForwardTerms: s.nForwardTerms, termCond: s.termCond, termination: termination(s) };
  }

  /** A text summary like R's summary(earth): terms with coefficients, GCV, RSS, R², why the forward pass stopped. */
  summary(names?: readonly string[]): string {
    const s = this.requireState();
    const labels = this.termLabels(names);
    const width = Math.max(...labels.map((l) => l.length), 12);
    const lines = [`${"".padEnd(width)}  coefficients`];
    s.terms.forEach((t, i) => lines.push(`${labels[i].padEnd(width)}  ${t.coef.toPrecision(12)}`));
    const used = new Set<number>();
    for (const t of s.terms) t.dirs.forEach((dir, j) => dir !== 0 && used.add(j));
    const degrees = new Map<number, number>();
    for (const t of s.terms) {
      const k = t.dirs.filter((v) => v !== 0).length;
      degrees.set(k, (degrees.get(k) ?? 0) + 1);
    }
    const maxDeg = Math.max(...degrees.keys());
    lines.push("");
    lines.push(`Selected ${s.terms.length} of ${s.nForwardTerms} terms, and ${used.size} of ${this.dim} predictors`);
    lines.push(`Termination condition: ${termination(s)} at ${s.nForwardTerms} terms`);
    lines.push(
      `Number of terms at each degree of interaction: ${Array.from({ length: maxDeg + 1 }, (_, k) => degrees.get(k) ?? 0).join(" ")}${maxDeg <= 1 ? " (additive model)" : ""}`,
    );
    lines.push(`GCV ${fmt(s.gcv, 15)}    RSS ${fmt(s.rss, 15)}    GRSq ${fmt(s.grsq, 15)}    RSq ${fmt(s.rsq, 15)}`);
    lines.push(
      `Options: degree ${s.options.degree}, nk ${s.options.nk}, penalty ${s.options.penalty}, thresh ${s.options.thresh}, fast.k ${s.options.fastK}, training points ${s.nTrain}`,
    );
    return lines.join("\n");
  }

  /** earth's labels of the selected terms, e.g. "h(0.2-u_fsize)", "u_threads*h(0.2-u_fsize)". */
  termLabels(names?: readonly string[]): string[] {
    const inputNames = names ?? Array.from({ length: this.dim }, (_, j) => `x${j + 1}`);
    return this.requireState().terms.map((t) => this.termName(t, inputNames));
  }

  /** earth's term label, with knots shown in the caller's input units. */
  private termName(t: MarsTerm, names: readonly string[]): string {
    const parts: string[] = [];
    t.dirs.forEach((dir, j) => {
      if (dir === 0) return;
      const cut = fmt(this.unscaleCut(t.cuts[j], j));
      if (dir === 2) parts.push(names[j]);
      else if (dir === 1) parts.push(`h(${names[j]}-${cut})`);
      else parts.push(`h(${cut}-${names[j]})`);
    });
    return parts.length ? parts.join("*") : "(Intercept)";
  }

  private unscaleCut(c: number, j: number): number {
    const sc = this.scaler?.toJSON();
    if (!sc) return c;
    let v = c;
    if (sc.kind === "unit") v = sc.lo[j] + c * (sc.hi[j] - sc.lo[j]);
    if (sc.log2.includes(j)) v = 2 ** v;
    return v;
  }

  private requireState(): MarsState {
    if (!this.state) throw new VarmapError("E_NOT_FITTED", "this mars model has not been fitted", { remedy: "call fit(X, y) first" });
    return this.state;
  }
}

/** Like C's %g with the given significant digits (earth prints knots with 6, statistics with 15). */
function fmt(v: number, digits = 6): string {
  return Number.isFinite(v) ? Number(v.toPrecision(digits)).toString() : String(v);
}

function checkOptions(o: MarsOptions): void {
  const int = (name: keyof MarsOptions, v: unknown, min: number, max: number) => {
    if (v === undefined) return;
    if (typeof v !== "number" || !Number.isInteger(v) || v < min || v > max)
      throw new VarmapError("E_OPTION", `mars option ${name} must be an integer in [${min}, ${max}], got ${String(v)}`, {
        remedy: `pass a valid ${name} or leave it out for earth's default`,
      });
  };
  const num = (name: keyof MarsOptions, v: unknown, min: number) => {
    if (v === undefined) return;
    if (typeof v !== "number" || !Number.isFinite(v) || v < min)
      throw new VarmapError("E_OPTION", `mars option ${name} must be a number ≥ ${min}, got ${String(v)}`, {
        remedy: `pass a valid ${name} or leave it out for earth's default`,
      });
  };
  int("degree", o.degree, 1, 10);
  int("nk", o.nk, 1, 1000);
  num("thresh", o.thresh, 0);
  num("penalty", o.penalty, -1);
  int("minspan", o.minspan, -1e6, 1e9);
  int("endspan", o.endspan, 0, 1e9);
  int("fastK", o.fastK, 0, 1e6);
  num("fastBeta", o.fastBeta, 0);
  num("newvarPenalty", o.newvarPenalty, 0);
  num("adjustEndspan", o.adjustEndspan, 0);
}
