// The models files `varmap fit` writes (one method, one model per map) and `varmap refit` writes (every method of
// every map), as `varmap predict` and `varmap whatif` read them: one ModelsFile per method.
import { readFileSync } from "node:fs";
import { VarmapError } from "../errors.js";
import type { ModelJSON } from "./estimator.js";
import type { ConformalCalibration, GroupedConformal } from "./conformal.js";

export interface MapModel {
  /** Factor name → value. */
  key: Record<string, string>;
  rows: number;
  /** The map's input columns the model uses (constant ones are dropped per map), in model order. */
  inputs: string[];
  model: ModelJSON;
  /** Conformal calibration (`fit --conformal-folds`): cross-validated residuals for `predict --interval`. */
  conformal?: ConformalCalibration | GroupedConformal;
}

export interface ModelsFile {
  format: "varmap-models";
  version: 1;
  method: string;
  source: string;
  stat: string;
  response: "linear" | "log";
  factors: string[];
  /** Every input column of the data. */
  inputs: string[];
  maps: MapModel[];
  /** Maps the method could not fit, with the error code and message (fit skips them instead of failing). */
  skipped?: { key: Record<string, string>; rows: number; code: string; reason: string }[];
}

/** The models of `varmap refit` (models.json in its output directory): every method of every map in one file. */
export interface RefitModelsFile {
  format: "varmap-models";
  version: 1;
  factors: string[];
  response: "linear" | "log";
  /** The map statistic (sd, var, …; absent in files written before it was recorded). */
  stat?: string;
  /** Every input column of the data (absent in files written before predict could read them). */
  inputs?: string[];
  /** `conformal`: with `refit --conformal-folds k`, as MapModel's. */
  models: {
    key: Record<string, string>;
    method: string;
    rows: number;
    inputs?: string[];
    model: ModelJSON;
    conformal?: ConformalCalibration | GroupedConformal;
  }[];
}

const REMEDY = "pass the models.json that `varmap fit --out` or `varmap refit --out` wrote";

/**
 * The JSON path of the first null inside an array of the file, or undefined. varmap writes finite numbers only
 * (JSON has no NaN): a null is an edit or a damaged file, and Float64Array.from would silently read it as 0.
 */
function nullInArrays(v: unknown, at = "$"): string | undefined {
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      if (v[i] === null) return `${at}[${i}]`;
      if (typeof v[i] === "object") {
        const r = nullInArrays(v[i], `${at}[${i}]`);
        if (r) return r;
      }
    }
  } else if (v !== null && typeof v === "object")
    for (const [k, x] of Object.entries(v)) {
      if (typeof x !== "object" || x === null) continue;
      const r = nullInArrays(x, `${at}.${k}`);
      if (r) return r;
    }
  return undefined;
}

/** One models file per method: a `fit` file as it is, a `refit` file split by method (in the order it lists them). */
export function readModelSets(path: string): ModelsFile[] {
  let json: ModelsFile | RefitModelsFile;
  try {
    json = JSON.parse(readFileSync(path, "utf8"));
  } catch (e) {
    throw new VarmapError("E_MODEL_FORMAT", `cannot read the models file: ${(e as Error).message}`, { location: { file: path }, remedy: REMEDY });
  }
  if (json?.format !== "varmap-models" || !Array.isArray(json.factors))
    throw new VarmapError("E_MODEL_FORMAT", "not a varmap models file", { location: { file: path }, remedy: REMEDY });
  const nul = nullInArrays(json);
  if (nul)
    throw new VarmapError("E_MODEL_FORMAT", `the models file holds a null at ${nul}: a number is missing (it is not read as 0)`, {
      location: { file: path },
      remedy: `${REMEDY}, unedited (fit again if a value was removed)`,
    });
  if ("maps" in json && Array.isArray(json.maps) && Array.isArray(json.inputs)) return [json];
  if (!("models" in json) || !Array.isArray(json.models))
    throw new VarmapError("E_MODEL_FORMAT", "not a varmap models file", { location: { file: path }, remedy: REMEDY });
  const refit = json;
  if (!refit.inputs || refit.models.some((m) => !m.inputs))
    throw new VarmapError("E_MODEL_FORMAT", "this refit models file does not name its input columns (written by an older varmap)", {
      location: { file: path },
      remedy: "run the same `varmap refit` again with this version (it resumes and rewrites models.json)",
    });
  const methods = [...new Set(refit.models.map((m) => m.method))];
  return methods.map((method) => ({
    format: "varmap-models",
    version: 1,
    method,
    source: path,
    stat: refit.stat ?? "the map statistic",
    response: refit.response,
    factors: refit.factors,
    inputs: refit.inputs!,
    maps: refit.models
      .filter((m) => m.method === method)
      .map((m) => ({ key: m.key, rows: m.rows, inputs: m.inputs!, model: m.model, ...(m.conformal ? { conformal: m.conformal } : {}) })),
  }));
}

/** A models file of one method (a refit file must then hold only one). */
export function readModelsFile(path: string): ModelsFile {
  const sets = readModelSets(path);
  if (sets.length !== 1)
    throw new VarmapError("E_MODEL_FORMAT", `the models file holds ${sets.length} methods (${sets.map((s) => s.method).join(", ")}), where one is needed`, {
      location: { file: path },
      remedy: "fit the one method with `varmap fit --method M`, or refit with --methods M",
    });
  return sets[0];
}

/** The lookup key of a map from its factor values (in the file's factor order). */
export function mapKey(factors: string[], values: Record<string, string>): string {
  return JSON.stringify(factors.map((f) => values[f]));
}
