// `--per-level` (spec E.2 method 2, for predictors that give no interpolation weights: lr, mars, full lsp, rbf):
// each quantile level p_j = j/K is a map of its own — the training configurations' type-7 quantiles at p_j,
// fitted and predicted by the chosen predictor — and the K + 1 predictions at a query are then sorted: the
// monotone rearrangement of Chernozhukov, Fernández-Val and Galichon (2010), which never increases the error
// against a monotone target and makes the result a valid quantile function.
import { quantile7 } from "../data/stats.js";
import type { BackendChoice } from "../backend/index.js";
import { VarmapError } from "../errors.js";
import { matrix } from "../predict/matrix.js";
import { createPredictor, METHOD_NAMES } from "../predict/registry.js";
import { QuantileFunction } from "./distributions.js";
import { sortedRunsOf, type ConfigRuns } from "./methods.js";

/** The predictor of the per-level maps and its hyperparameters (the registry's options). */
export interface PerLevelSpec {
  method: string;
  options?: Record<string, unknown>;
  /**
   * The scale the levels are fitted on (default linear, as `quantile` averages: with Delaunay and K = n − 1 the
   * per-level prediction is exactly the `quantile` method's; `--log-response` fits log quantiles instead).
   */
  response?: "linear" | "log";
}

export function checkPerLevel(spec: PerLevelSpec): void {
  if (!METHOD_NAMES.includes(spec.method))
    throw new VarmapError("E_USAGE", `unknown --method '${spec.method}' for --per-level`, { remedy: `use one of ${METHOD_NAMES.join(", ")}` });
}

/** The label of per-level predictions in output tables ("weights" column): per-level:<method>. */
export function perLevelLabel(spec: PerLevelSpec): string {
  return `per-level:${spec.method}`;
}

/**
 * Per-level quantile functions at the queries (normalized inputs, rows × d), on levels j/K, the responses on the
 * spec's scale (log needs every run positive, else linear). A query whose K + 1 predictions are not all finite
 * gets null (E.6: a row flag, `nonfinite`, instead of a distribution).
 */
export function perLevelQuantiles(
  spec: PerLevelSpec,
  train: ConfigRuns,
  trainU: Float64Array,
  queryU: Float64Array,
  d: number,
  K: number,
  backend?: BackendChoice,
): (QuantileFunction | null)[] {
  const n = train.offsets.length - 1,
    nq = queryU.length / d;
  const X = matrix(trainU, n, d),
    Q = matrix(queryU, nq, d);
  let positive = true;
  for (const v of train.runs) if (!(v > 0)) positive = false;
  const levels = Float64Array.from({ length: K + 1 }, (_, j) => (j === K ? 1 : j / K));
  const pred = new Float64Array(nq * (K + 1));
  const y = new Float64Array(n);
  for (let j = 0; j <= K; j++) {
    for (let i = 0; i < n; i++) y[i] = quantile7(sortedRunsOf(train, i), levels[j]);
    const model = createPredictor(spec.method, {
      ...spec.options,
      backend,
      inputs: { kind: "none" },
      response: spec.response === "log" && positive ? "log" : "linear",
    });
    const at = model.fit(X, y).predict(Q);
    for (let q = 0; q < nq; q++) pred[q * (K + 1) + j] = at[q];
  }
  return Array.from({ length: nq }, (_, q) => {
    const v = pred.slice(q * (K + 1), (q + 1) * (K + 1));
    if (!v.every(Number.isFinite)) return null;
    return new QuantileFunction(levels, v.sort());
  });
}
