// The predictors by method name, for the CLI, cross-validation and model files.
import { VarmapError } from "../errors.js";
import type { ModelJSON, Predictor, PredictorOptions } from "./estimator.js";
import { LinearRegression } from "./lr.js";
import { LinearShepard } from "./lsp.js";
import { Delaunay } from "./delaunay.js";
import { Mars } from "./mars.js";
import { Rbf } from "./rbf.js";

type Factory = (options: PredictorOptions & Record<string, unknown>) => Predictor;

const factories: Record<string, Factory> = {
  lr: (o) => new LinearRegression(o),
  lsp: (o) => new LinearShepard(o),
  delaunay: (o) => new Delaunay(o),
  mars: (o) => new Mars(o),
  rbf: (o) => new Rbf(o),
};

export const METHOD_NAMES = Object.keys(factories);

export function createPredictor(method: string, options: PredictorOptions & Record<string, unknown> = {}): Predictor {
  const f = factories[method];
  if (!f) throw new VarmapError("E_METHOD", `unknown method '${method}'`, { remedy: `use one of ${METHOD_NAMES.join(", ")}` });
  return f(options);
}

export function predictorFromJSON(json: ModelJSON, options: PredictorOptions = {}): Predictor {
  if (!json || json.format !== "varmap-model")
    throw new VarmapError("E_MODEL_FORMAT", "not a varmap model", { remedy: "pass the JSON written by toJSON() or `varmap fit`" });
  return createPredictor(json.method, { ...json.options, ...options, inputs: json.inputs, response: json.response }).restore(json);
}
