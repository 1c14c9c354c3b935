// The file `varmap fit` writes and `varmap predict` reads: one fitted model per map.
import { readFileSync } from "node:fs";
import { VarmapError } from "../errors.js";
import type { ModelJSON } from "../predict/estimator.js";

export interface MapModel {
  /** Factor name → value. */
  key: Record<string, string>;
  rows: number;
  /** The map's input columns the model uses (constant ones are dropped per map), in model order. */
  inputs: string[];
  model: ModelJSON;
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
}

export function readModelsFile(path: string): ModelsFile {
  let json: ModelsFile;
  try {
    json = JSON.parse(readFileSync(path, "utf8"));
  } catch (e) {
    throw new VarmapError("E_MODEL_FORMAT", `cannot read the models file: ${(e as Error).message}`, { location: { file: path }, remedy: "pass the JSON file `varmap fit --out` wrote" });
  }
  if (json?.format !== "varmap-models" || !Array.isArray(json.maps) || !Array.isArray(json.factors) || !Array.isArray(json.inputs))
    throw new VarmapError("E_MODEL_FORMAT", "not a varmap models file", { location: { file: path }, remedy: "pass the JSON file `varmap fit --out` wrote" });
  return json;
}

/** The lookup key of a map from its factor values (in the file's factor order). */
export function mapKey(factors: string[], values: Record<string, string>): string {
  return JSON.stringify(factors.map((f) => values[f]));
}
