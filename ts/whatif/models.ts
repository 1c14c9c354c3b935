// The fitted maps `whatif` predicts with: per map a mean model, a spread model and optionally a runs-needed model,
// read from `varmap fit` models files (checked to describe the same maps, inputs and normalizations) or fitted in
// memory (--holdout). Predictions are batched: one predict() per map and model over all of the map's candidates.
import { VarmapError } from "../errors.js";
import { matrix, type Matrix } from "../predict/matrix.js";
import { predictorFromJSON } from "../predict/registry.js";
import { Delaunay, QueryStatus, type DelaunayLocation } from "../predict/delaunay.js";
import { fromModelScale } from "../predict/scaling.js";
import type { Predictor } from "../predict/estimator.js";
import type { InputScalerJSON } from "../predict/scaling.js";
import { mapKey, readModelsFile, type ModelsFile } from "../predict/models-file.js";
import type { SpreadKind } from "./objective.js";

export interface MapModels {
  key: Record<string, string>;
  /** The input columns the map's models use (constant ones dropped), in model order. */
  inputs: string[];
  mean: Predictor;
  spread: Predictor;
  runs?: Predictor;
  /** Input normalization of the models (shared by all three). */
  scaling: InputScalerJSON;
  /** Bounding box of the training inputs in normalized units (default the unit cube: the map's range). */
  box?: { lo: number[]; hi: number[] };
}

export interface ModelSet {
  factors: string[];
  /** Every input column of the data. */
  inputs: string[];
  spreadKind: SpreadKind;
  /** Method names of the mean and spread models (for messages, the validation's method column, --cv-dir). */
  meanMethod: string;
  spreadMethod: string;
  maps: MapModels[];
  /** mapKey(factors, key) → index into maps. */
  index: Map<string, number>;
}

/** The spread kind of a models file's statistic (sd, var, cv or a quantile). */
export function spreadKindOf(stat: string, path: string): SpreadKind {
  if (stat === "sd" || stat === "var" || stat === "cv" || /^q\d+$/.test(stat)) return stat as SpreadKind;
  throw new VarmapError("E_MODEL_FORMAT", `the spread models predict '${stat}', not sd, var, cv or a quantile`, {
    location: { file: path },
    remedy: "fit the spread models with --stat sd (or var, q10, q90)",
  });
}

/** Reads and cross-checks the models files of `--mean`, `--spread` and `--runs-model`. */
export function loadModelFiles(meanPath: string, spreadPath: string, runsPath?: string): ModelSet {
  const mean = readModelsFile(meanPath);
  const spread = readModelsFile(spreadPath);
  const runs = runsPath ? readModelsFile(runsPath) : undefined;
  if (mean.stat !== "mean")
    throw new VarmapError("E_MODEL_FORMAT", `--mean models predict '${mean.stat}', not the mean`, {
      location: { file: meanPath },
      remedy: "fit them with --stat mean",
    });
  const spreadKind = spreadKindOf(spread.stat, spreadPath);
  checkSame(mean, meanPath, spread, spreadPath);
  if (runs && runsPath) checkSame(mean, meanPath, runs, runsPath);
  const byKey = (f: ModelsFile) => new Map(f.maps.map((m) => [mapKey(f.factors, m.key), m]));
  const spreadMaps = byKey(spread);
  const runsMaps = runs ? byKey(runs) : undefined;
  const maps: MapModels[] = mean.maps.map((m) => {
    const k = mapKey(mean.factors, m.key);
    const s = spreadMaps.get(k)!;
    const r = runsMaps?.get(k);
    return {
      key: m.key,
      inputs: m.inputs,
      mean: predictorFromJSON(m.model),
      spread: predictorFromJSON(s.model),
      runs: r ? predictorFromJSON(r.model) : undefined,
      scaling: m.model.inputs,
    };
  });
  return buildModelSet(mean.factors, mean.inputs, spreadKind, mean.method, spread.method, maps);
}

export function buildModelSet(
  factors: string[],
  inputs: string[],
  spreadKind: SpreadKind,
  meanMethod: string,
  spreadMethod: string,
  maps: MapModels[],
): ModelSet {
  return { factors, inputs, spreadKind, meanMethod, spreadMethod, maps, index: new Map(maps.map((m, i) => [mapKey(factors, m.key), i])) };
}

/** E_MODEL_FORMAT naming the first difference between two models files (factors, inputs, maps, normalizations). */
function checkSame(a: ModelsFile, pa: string, b: ModelsFile, pb: string): void {
  const fail = (what: string): never => {
    throw new VarmapError("E_MODEL_FORMAT", `${pa} and ${pb} do not describe the same maps: ${what}`, {
      location: { file: pb },
      remedy: "fit every models file from the same data with the same --log-inputs (only --stat and --method may differ)",
    });
  };
  if (JSON.stringify(a.factors) !== JSON.stringify(b.factors)) fail(`factors ${a.factors.join(",")} vs ${b.factors.join(",")}`);
  if (JSON.stringify(a.inputs) !== JSON.stringify(b.inputs)) fail(`inputs ${a.inputs.join(",")} vs ${b.inputs.join(",")}`);
  const bm = new Map(b.maps.map((m) => [mapKey(b.factors, m.key), m]));
  if (a.maps.length !== b.maps.length) fail(`${a.maps.length} vs ${b.maps.length} maps`);
  for (const m of a.maps) {
    const name =
      Object.entries(m.key)
        .map(([k, v]) => `${k}=${v}`)
        .join(",") || "(the only map)";
    const o = bm.get(mapKey(a.factors, m.key));
    if (!o) fail(`map ${name} is missing from ${pb}`);
    if (JSON.stringify(m.inputs) !== JSON.stringify(o!.inputs)) fail(`map ${name} uses inputs ${m.inputs.join(",")} vs ${o!.inputs.join(",")}`);
    const s1 = m.model.inputs;
    const s2 = o!.model.inputs;
    if (s1.kind !== s2.kind || JSON.stringify(s1.log2) !== JSON.stringify(s2.log2) || !sameNumbers(s1.lo, s2.lo) || !sameNumbers(s1.hi, s2.hi))
      fail(`map ${name} normalizes its inputs differently (${JSON.stringify(s1)} vs ${JSON.stringify(s2)})`);
  }
}

function sameNumbers(a: number[], b: number[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

export interface MapPrediction {
  mean: Float64Array;
  spread: Float64Array;
  runs?: Float64Array;
  extrapolated: Uint8Array;
  /** Distance from the training inputs' hull (Delaunay) or bounding box (other methods), normalized units. */
  distance: Float64Array;
}

/**
 * Predicts a map's candidates: X is rows × map.inputs.length raw inputs. One predict() per model (a batch). When
 * the models are Delaunay interpolants of the same training inputs (the usual mean + sd pair), one locate() serves
 * them all: the simplices and weights are the same, each model only combines its own responses.
 */
export function predictMap(map: MapModels, X: Float64Array, rows: number): MapPrediction {
  const Q: Matrix = matrix(X, rows, map.inputs.length);
  const extrapolated = new Uint8Array(rows);
  const distance = new Float64Array(rows);
  const del = map.mean instanceof Delaunay ? map.mean : map.spread instanceof Delaunay ? map.spread : undefined;
  if (!del) {
    boxDistances(map, X, rows, extrapolated, distance);
    return { mean: map.mean.predict(Q), spread: map.spread.predict(Q), runs: map.runs?.predict(Q), extrapolated, distance };
  }
  const loc = del.locate(Q);
  for (let i = 0; i < rows; i++) {
    extrapolated[i] = loc.extrapolated[i] ? 1 : 0;
    distance[i] = loc.extrapolated[i] ? loc.rnorm[i] : 0;
  }
  const shared = sharedLocation(del);
  const predict = (p: Predictor): Float64Array => shared(p, loc) ?? p.predict(Q);
  return { mean: predict(map.mean), spread: predict(map.spread), runs: map.runs ? predict(map.runs) : undefined, extrapolated, distance };
}

/**
 * For a Delaunay model `ref`: a function that predicts another model from ref's location of the queries, when
 * that model is a Delaunay interpolant of the very same training inputs and options (else undefined). Same sum,
 * in the same order, as Delaunay.predict, so the values are identical.
 */
function sharedLocation(ref: Delaunay): (p: Predictor, loc: DelaunayLocation) => Float64Array | undefined {
  const rj = ref.toJSON();
  return (p, loc) => {
    if (!(p instanceof Delaunay)) return undefined;
    const pj = p === ref ? rj : p.toJSON();
    if (
      JSON.stringify(pj.options) !== JSON.stringify(rj.options) ||
      JSON.stringify(pj.inputs) !== JSON.stringify(rj.inputs) ||
      !sameNumbers(pj.state.X, rj.state.X)
    )
      return undefined;
    const y = pj.state.y;
    const m = pj.dim + 1;
    const rows = loc.status.length;
    const out = new Float64Array(rows);
    for (let i = 0; i < rows; i++) {
      if (loc.status[i] === QueryStatus.TOO_FAR) {
        out[i] = NaN;
        continue;
      }
      let s = 0;
      for (let k = 0; k < m; k++) s += loc.weights[i * m + k] * y[loc.simplices[i * m + k]];
      out[i] = s;
    }
    return fromModelScale(out, pj.response);
  };
}

/** Outside the training inputs' bounding box (normalized as the models normalize), and the distance to it. */
function boxDistances(map: MapModels, X: Float64Array, rows: number, extrapolated: Uint8Array, distance: Float64Array): void {
  const d = map.inputs.length;
  const { kind, log2, lo, hi } = map.scaling;
  const logCol = new Uint8Array(d);
  for (const j of log2) logCol[j] = 1;
  const bl = map.box?.lo ?? new Array(d).fill(0);
  const bh = map.box?.hi ?? new Array(d).fill(1);
  for (let i = 0; i < rows; i++) {
    let s = 0;
    for (let j = 0; j < d; j++) {
      let v = X[i * d + j];
      if (logCol[j]) v = Math.log2(v);
      if (kind === "unit") v = hi[j] > lo[j] ? (v - lo[j]) / (hi[j] - lo[j]) : 0;
      const out = v < bl[j] ? bl[j] - v : v > bh[j] ? v - bh[j] : 0;
      s += out * out;
    }
    // A hair outside from rounding (a grid value equal to a bound) is inside.
    const dist = Math.sqrt(s);
    extrapolated[i] = dist > 1e-12 ? 1 : 0;
    distance[i] = extrapolated[i] ? dist : 0;
  }
}
