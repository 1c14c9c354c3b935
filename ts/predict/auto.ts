// `--methods auto` (issue 16): per map (per training set), the method is chosen by an inner K-fold cross-validation
// on the training data only, so the choice never sees the points it is later scored on. The score is the mean
// absolute relative error on the response scale (the cv measure), computed from the candidates' model-scale
// predictions. The transforms are not chosen here: the map's own (`--log-inputs`, `--log-response`, or their
// `auto` rules) apply to every candidate. The chosen model is fitted on all training points and kept in the state.
import { VarmapError, isVarmapError } from "../errors.js";
import { balancedFolds, counterRng } from "../data/random.js";
import { Predictor, type ModelJSON, type PredictorOptions } from "./estimator.js";
import { takeRows, type Matrix } from "./matrix.js";
import { createPredictor, foldModel, predictorFromJSON } from "./registry.js";

/**
 * The default candidates: every model of the default set (hybrid: gp for queries with measured siblings, mars for
 * novel combinations, issue 41). gp's (and hybrid's gp's) hyperparameters are searched once on the whole training
 * part and its inner folds are solved at them (Gp.solvedOn), so gp costs one fit plus K solves here; the others are
 * refitted per fold.
 */
export const AUTO_CANDIDATES = ["lr", "lsp", "delaunay", "mars", "rbf", "hybrid"];
export const AUTO_FOLDS = 5;

export interface AutoOptions extends PredictorOptions {
  /** Methods to choose from (default AUTO_CANDIDATES; "auto" itself is not allowed). */
  candidates?: string[];
  /** Inner cross-validation folds (default 5). */
  folds?: number;
}

export interface AutoState {
  chosen: string;
  /** Inner-CV mean ARE per candidate (null: it failed on some fold). */
  scores: Record<string, number | null>;
  model: ModelJSON;
}

export class AutoMethod extends Predictor<AutoState, AutoOptions> {
  readonly method = "auto";
  private state?: AutoState;
  private inner?: Predictor;

  constructor(options: AutoOptions = {}) {
    super(options);
    const { candidates, folds } = options;
    if (candidates !== undefined && (!Array.isArray(candidates) || candidates.length === 0 || candidates.includes("auto")))
      throw new VarmapError("E_OPTION", `auto: candidates must be a non-empty list of methods other than auto`, { remedy: 'e.g. candidates: ["mars", "rbf"]' });
    for (const c of candidates ?? []) createPredictor(c, {}); // unknown names fail here (E_METHOD)
    if (folds !== undefined && !(Number.isInteger(folds) && folds >= 2 && folds <= 20))
      throw new VarmapError("E_OPTION", `auto: folds must be an integer in 2…20, got ${String(folds)}`, { remedy: "use folds: 5" });
  }

  protected override minPoints(d: number): number {
    return d + 2;
  }

  protected fitScaled(X: Matrix, y: Float64Array, noise?: Float64Array): void {
    const n = X.rows;
    const log = this.options.response === "log";
    const candidates = this.options.candidates ?? AUTO_CANDIDATES;
    const K = Math.min(this.options.folds ?? AUTO_FOLDS, n);
    // Inner folds: a fixed pseudo-random partition keyed by n (the same for every candidate: a paired comparison).
    const fold = balancedFolds(n, K, counterRng(0, "auto-folds", n));
    // Inner models see the outer model's scaled inputs and model-scale responses as they are.
    const innerOptions = { backend: this.options.backend, inputs: { kind: "none" as const }, response: "linear" as const };
    const scores: Record<string, number | null> = {};
    // Candidates fitted on the whole training part already (gp: its hyperparameters serve the folds and the final model).
    const whole = new Map<string, Predictor>();
    for (const c of candidates) {
      let sum = 0;
      try {
        // Inner responses are on the model scale already, so the known variances (noise) pass as they are.
        const full = c === "gp" || c === "hybrid" ? createPredictor(c, innerOptions).fit(X, y, noise) : undefined;
        if (full) whole.set(c, full);
        for (let k = 0; k < K; k++) {
          const train: number[] = [],
            test: number[] = [];
          for (let i = 0; i < n; i++) (fold[i] === k ? test : train).push(i);
          const Xk = takeRows(X, train),
            yk = Float64Array.from(train, (i) => y[i]),
            vk = noise && Float64Array.from(train, (i) => noise[i]);
          const model = foldModel(c, innerOptions, Xk, yk, vk, full);
          const pred = model.predict(takeRows(X, test));
          test.forEach((i, t) => (sum += log ? Math.abs(Math.expm1(pred[t] - y[i])) : Math.abs(pred[t] - y[i]) / Math.abs(y[i])));
        }
        scores[c] = Number.isFinite(sum) ? sum / n : null;
      } catch (e) {
        if (!isVarmapError(e)) throw e;
        scores[c] = null;
      }
    }
    const ranked = candidates.filter((c) => scores[c] !== null).sort((a, b) => scores[a]! - scores[b]!);
    // No candidate survived every fold (a tiny map): fall back to the candidates in order on the whole set.
    const order = ranked.length ? ranked : candidates;
    for (const c of order) {
      try {
        const model = whole.get(c) ?? createPredictor(c, innerOptions).fit(X, y, noise);
        this.inner = model;
        this.state = { chosen: c, scores, model: model.toJSON() };
        return;
      } catch (e) {
        if (!isVarmapError(e)) throw e;
      }
    }
    throw new VarmapError("E_TOO_FEW_POINTS", `auto: none of ${candidates.join(", ")} can fit these ${n} training points`, {
      remedy: "add configurations, or give candidates that need fewer points (lr)",
    });
  }

  protected predictScaled(Xq: Matrix): Float64Array {
    return this.inner!.predict(Xq);
  }

  /** The chosen method and the inner-CV scores of every candidate. */
  get choice(): { chosen: string; scores: Record<string, number | null> } {
    if (!this.state) throw new VarmapError("E_NOT_FITTED", "this auto model has not been fitted", { remedy: "call fit(X, y) first" });
    return { chosen: this.state.chosen, scores: { ...this.state.scores } };
  }

  protected stateJSON(): AutoState {
    return JSON.parse(JSON.stringify(this.state));
  }

  protected loadState(state: AutoState): void {
    this.state = JSON.parse(JSON.stringify(state));
    this.inner = predictorFromJSON(state.model, { backend: this.options.backend });
  }
}
