// `hybrid` (issue 41): the default predictor, chosen on both questions users ask. A query whose combination of
// settings has measured siblings (a random division: the neighbouring thread counts and frequencies were run) is
// answered by gp, the best method there (golden splits: 5.5 % at p = 0.9); a query whose combination was never
// measured (a held-out (file size, record size) pair: the MOANA paper's question, seed 000 §4) by MARS, the best
// method there (gp scores 33-54 % on the interior pairs, MARS 11-15 %). Novelty is a property of the query and the
// training set: with group columns (`groups`, input positions) a query is novel when its combination of their
// levels is absent from training; without, when some pair of inputs is measured densely but never at the query's
// combination (ts/cv/groups.ts novelByPairs). Both inner models see the outer model's scaled inputs and model-scale
// responses (as auto's candidates do).
import { VarmapError } from "../errors.js";
import { novelByGroups, novelByPairs } from "../cv/groups.js";
import { Predictor, type ModelJSON, type PredictorOptions } from "./estimator.js";
import type { Matrix } from "./matrix.js";
import { createPredictor, predictorFromJSON } from "./registry.js";
import { Gp } from "./gp.js";

export interface HybridOptions extends PredictorOptions {
  /** Method for queries with measured siblings (default gp). */
  seen?: string;
  /** Method for novel queries (default mars). */
  novel?: string;
  /** Group columns as input positions: novelty by their combination of levels (default: the dense-pair rule). */
  groups?: number[];
  /**
   * A gp seen model's hyperparameters from an earlier fit of the same rows with the same options (GpOptions.theta:
   * no search; cv's interval calibration passes the scored fit's, Hybrid.seenTheta). Not a flag.
   */
  seenTheta?: readonly number[];
}

export interface HybridState {
  seen: ModelJSON;
  novel: ModelJSON;
  /** Scaled training inputs (row-major), for the novelty test of queries. */
  train: number[];
}

export const HYBRID_SEEN = "gp";
export const HYBRID_NOVEL = "mars";

export class Hybrid extends Predictor<HybridState, HybridOptions> {
  readonly method = "hybrid";
  private seenModel?: Predictor;
  private novelModel?: Predictor;
  private train?: Float64Array;
  /** A gp whose hyperparameters the seen model re-solves on (a conformal fold of a fitted hybrid: foldOn). */
  private reuse?: Gp;
  /** Novelty of the last predict call's queries (1 = novel), for predict's `novel` column. */
  lastNovel?: Uint8Array;

  constructor(options: HybridOptions = {}) {
    super(options);
    for (const m of [options.seen, options.novel]) if (m !== undefined && (m === "hybrid" || m === "auto")) bad(m);
    if (options.seen !== undefined) createPredictor(options.seen, {});
    if (options.novel !== undefined) createPredictor(options.novel, {});
  }

  protected override minPoints(d: number): number {
    return d + 2;
  }

  private inner(): PredictorOptions & Record<string, unknown> {
    return { backend: this.options.backend, inputs: { kind: "none" as const }, response: "linear" as const };
  }

  protected fitScaled(X: Matrix, y: Float64Array, noise?: Float64Array): void {
    const seen = this.options.seen ?? HYBRID_SEEN;
    const novel = this.options.novel ?? HYBRID_NOVEL;
    const theta = seen === "gp" && this.options.seenTheta ? { theta: this.options.seenTheta } : {};
    this.seenModel = this.reuse ? this.reuse.solvedOn(X, y, noise) : createPredictor(seen, { ...this.inner(), ...theta }).fit(X, y, noise);
    this.novelModel = novel === seen ? this.seenModel : createPredictor(novel, this.inner()).fit(X, y, noise);
    this.train = Float64Array.from(X.data);
  }

  /** Per scaled query, 1 when its combination of settings was never measured. */
  private novelty(Xq: Matrix): Uint8Array {
    const n = this.train!.length / Xq.cols;
    const groups = this.options.groups;
    return groups?.length ? novelByGroups(this.train!, n, Xq.data, Xq.rows, Xq.cols, groups) : novelByPairs(this.train!, n, Xq.data, Xq.rows, Xq.cols);
  }

  protected predictScaled(Xq: Matrix): Float64Array {
    const novel = this.novelty(Xq);
    this.lastNovel = novel;
    const out = this.seenPredict(Xq);
    if (novel.indexOf(1) < 0) return out;
    const other = this.novelModel!.predict(Xq);
    for (let i = 0; i < out.length; i++) if (novel[i]) out[i] = other[i];
    return out;
  }

  /**
   * The seen model's model-scale predictions. The inner models see a linear response (the outer model's log scale),
   * so a gp on a log response is asked for its expected-ARE point m − s² here, as gp alone predicts (GpPoint "are").
   */
  private seenPredict(Xq: Matrix): Float64Array {
    const m = this.seenModel!;
    if (!(m instanceof Gp) || this.options.response !== "log") return m.predict(Xq);
    const { mean, sd } = m.predictWithSd(Xq);
    return Float64Array.from(mean, (v, i) => v - sd[i] * sd[i]);
  }

  /** The seen gp's fitted θ (GpOptions.theta), or undefined when the seen model is not a gp. */
  get seenTheta(): number[] | undefined {
    return this.seenModel instanceof Gp ? this.seenModel.thetaFitted : undefined;
  }

  /** The options a saved model records: a given seenTheta is the fit's result (in the seen model), not a setting. */
  protected override hyperparameters(): Record<string, unknown> {
    const { seenTheta: _theta, ...rest } = super.hyperparameters();
    return rest;
  }

  /** Novelty of raw queries (1 = novel combination), as predict decides it. */
  novelOf(Xq: Matrix): Uint8Array {
    return this.novelty(this.transformQueries(Xq));
  }

  /** A conformal fold's model: the seen gp keeps this model's hyperparameters and re-solves on the fold's rows. */
  foldOn(X: Matrix, y: Float64Array, yVar?: Float64Array): Hybrid {
    const h = new Hybrid(this.options);
    if (this.seenModel instanceof Gp) h.reuse = this.seenModel;
    return h.fit(X, y, yVar);
  }

  protected stateJSON(): HybridState {
    return { seen: this.seenModel!.toJSON(), novel: this.novelModel!.toJSON(), train: Array.from(this.train!) };
  }

  protected loadState(state: HybridState): void {
    this.seenModel = predictorFromJSON(state.seen, { backend: this.options.backend });
    this.novelModel = predictorFromJSON(state.novel, { backend: this.options.backend });
    this.train = Float64Array.from(state.train);
  }
}

function bad(m: string): never {
  throw new VarmapError("E_OPTION", `hybrid: ${m} cannot be one of hybrid's own methods`, { remedy: "give seen/novel methods such as gp and mars" });
}
