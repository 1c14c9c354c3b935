// `fit --target distribution` and `predict` on its models (spec E.4): the models file holds, per map, the
// training configurations' normalized inputs and sorted runs (their order statistics: the quantile grid is
// computed from them exactly), the normalization and the method. It round-trips exactly (plain JSON doubles).
import { readFileSync } from "node:fs";
import { VarmapError, type ErrorLocation } from "../errors.js";
import type { Dataset } from "../data/load.js";
import { fitMixtures, type MixtureFitOptions } from "../mixture/fit.js";
import type { FamilyName } from "../mixture/families.js";
import type { BackendChoice } from "../backend/index.js";
import type { RunDistribution } from "./distributions.js";
import { distributionMaps } from "./data.js";
import {
  DIST_NAMES,
  MOMENT_METHODS,
  needsMoments,
  predictDistribution,
  predictMoments,
  sampleMoments,
  type ConfigRuns,
  type DistName,
  type MomentMethod,
  type PositionsName,
  type SmoothName,
} from "./methods.js";
import { featureScales, scaleInputs, type FeatureWeightsName } from "./feature-weights.js";
import { perLevelQuantiles, type PerLevelSpec } from "./per-level.js";
import { MIN_TRAIN_RUNS, subsetRuns } from "./validate.js";
import { interpolationWeights, WEIGHT_NAMES, type WeightsName } from "./weights.js";
import { mapMixtures, predictParams, subsetMixtures, type FitRow, type MapMixtures } from "./params.js";
import { NormalDistribution } from "./distributions.js";
import { configKey } from "./params.js";

export const DISTRIBUTION_MODELS_FORMAT = "varmap-distribution-models";

export interface DistributionMapModel {
  key: Record<string, string>;
  /** The map's input columns (constant ones dropped), in model order. */
  inputs: string[];
  normalization: { log2: boolean[]; lo: number[]; hi: number[] };
  ids: (number | string)[];
  /** Normalized inputs, rows × inputs.length. */
  U: number[];
  /** Sorted runs of each configuration: runs[offsets[i] .. offsets[i+1]). */
  offsets: number[];
  runs: number[];
  /** --dist params: the map's (family, k) and each configuration's features. */
  mixtures?: MapMixtures;
}

export interface DistributionModelsFile {
  format: typeof DISTRIBUTION_MODELS_FORMAT;
  version: 1;
  dist: DistName;
  weights: WeightsName;
  moments: MomentMethod;
  levels: number;
  /** `cdf` on PCHIP-smoothed EDFs (absent: the EDFs). */
  smooth?: SmoothName;
  /**
   * `quantile` by per-level maps of this predictor on levels j/levels (absent: the weights). The per-level
   * predictors are refitted from the stored order statistics when predicting (deterministic), not stored.
   */
  perLevel?: PerLevelSpec;
  /** quantile and locscale: where order statistics sit on the level axis (absent: type7). */
  positions?: PositionsName;
  /** Inputs stretched by their effect before the weights (absent: none); the scales are recomputed from the stored runs. */
  featureWeights?: FeatureWeightsName;
  source: string;
  factors: string[];
  inputs: string[];
  maps: DistributionMapModel[];
}

export interface DistributionFitOptions {
  dist: DistName;
  weights: WeightsName;
  moments: MomentMethod;
  levels: number;
  smooth?: SmoothName;
  perLevel?: PerLevelSpec;
  positions?: PositionsName;
  featureWeights?: FeatureWeightsName;
}

/** Validates the distribution options (before any data is read): E_USAGE with the remedy. */
export function checkDistributionOptions(o: { dists: string[]; weights: string; moments: string; levels: number; fits?: string; needFits?: boolean }): void {
  for (const d of o.dists) {
    if (!(DIST_NAMES as readonly string[]).includes(d)) throw new VarmapError("E_USAGE", `unknown --dist '${d}'`, { remedy: `use ${DIST_NAMES.join(", ")}` });
    if (d === "params" && o.needFits && !o.fits)
      throw new VarmapError("E_USAGE", "--dist params interpolates mixture parameters and needs --fits", {
        remedy: "fit them first: varmap mixture <runs> … --out fits.csv, then pass --fits fits.csv",
      });
  }
  if (!o.dists.length) throw new VarmapError("E_USAGE", "no distribution method given", { remedy: "e.g. --dists quantile,cdf,locscale,normal" });
  if (!(WEIGHT_NAMES as readonly string[]).includes(o.weights))
    throw new VarmapError("E_USAGE", `unknown --weights '${o.weights}'`, { remedy: `use ${WEIGHT_NAMES.join(", ")}` });
  if (!(MOMENT_METHODS as readonly string[]).includes(o.moments))
    throw new VarmapError("E_USAGE", `unknown --moments '${o.moments}'`, { remedy: `use ${MOMENT_METHODS.join(", ")}` });
  if (!(Number.isInteger(o.levels) && o.levels >= 10 && o.levels <= 10_000))
    throw new VarmapError("E_USAGE", `--levels ${o.levels} is out of range`, {
      remedy: "give a whole number of quantile levels from 10 to 10,000 (default 200)",
    });
}

/** Training configurations need MIN_TRAIN_RUNS runs: the others are left out with a note (spec E.6). */
export function fitDistributionModels(
  data: Dataset,
  source: string,
  o: DistributionFitOptions,
  note?: (m: string) => void,
  fits?: FitRow[],
): DistributionModelsFile {
  const t = data.table,
    nIn = t.roles.inputs.length;
  const maps = distributionMaps(data).map(({ map, U, d, rows, runs }) => {
    const keep = Array.from({ length: rows }, (_, r) => r).filter((r) => runs.offsets[r + 1] - runs.offsets[r] >= MIN_TRAIN_RUNS);
    if (keep.length < rows)
      note?.(`map ${Object.values(map.key).join("/") || "(all)"}: ${rows - keep.length} configuration(s) with fewer than ${MIN_TRAIN_RUNS} runs skipped`);
    const sub = subsetRuns(runs, keep);
    return {
      key: map.key,
      inputs: map.inputNames,
      normalization: map.normalization,
      ids: keep.map((r) => map.ids[r]),
      U: keep.flatMap((r) => Array.from(U.subarray(r * d, r * d + d))),
      offsets: Array.from(sub.offsets),
      runs: Array.from(sub.runs),
      ...(o.dist === "params" && fits
        ? {
            mixtures: subsetMixtures(
              mapMixtures(
                fits,
                map.ids.map((id) => configKey(t, Number(id), nIn)),
                Object.values(map.key).join("/") || "(all)",
              ),
              keep,
            ),
          }
        : {}),
    };
  });
  const { smooth, perLevel, positions, featureWeights, ...rest } = o;
  const extra = {
    ...(smooth && smooth !== "none" ? { smooth } : {}),
    ...(perLevel ? { perLevel } : {}),
    ...(positions && positions !== "type7" ? { positions } : {}),
    ...(featureWeights && featureWeights !== "none" ? { featureWeights } : {}),
  };
  return {
    format: DISTRIBUTION_MODELS_FORMAT,
    version: 1,
    ...rest,
    ...extra,
    source,
    factors: data.table.roles.factors,
    inputs: data.table.roles.inputs,
    maps,
  };
}

export function isDistributionModelsFile(path: string): boolean {
  try {
    return JSON.parse(readFileSync(path, "utf8"))?.format === DISTRIBUTION_MODELS_FORMAT;
  } catch {
    return false;
  }
}

export function readDistributionModels(path: string): DistributionModelsFile {
  let json: DistributionModelsFile;
  try {
    json = JSON.parse(readFileSync(path, "utf8"));
  } catch (e) {
    throw new VarmapError("E_MODEL_FORMAT", `cannot read the models file: ${(e as Error).message}`, {
      location: { file: path },
      remedy: "pass the JSON file `varmap fit --target distribution --out` wrote",
    });
  }
  if (json?.format !== DISTRIBUTION_MODELS_FORMAT || !Array.isArray(json.maps))
    throw new VarmapError("E_MODEL_FORMAT", "not a varmap distribution models file", {
      location: { file: path },
      remedy: "pass the JSON file `varmap fit --target distribution --out` wrote",
    });
  return json;
}

/** Raw inputs (rows × inputs) to the map's normalized coordinates. */
export function normalizeInputs(m: DistributionMapModel, X: Float64Array): Float64Array {
  const d = m.inputs.length,
    { log2, lo, hi } = m.normalization;
  return Float64Array.from(X, (v, i) => {
    const j = i % d;
    return ((log2[j] ? Math.log2(v) : v) - lo[j]) / (hi[j] - lo[j]);
  });
}

export interface DistributionPrediction {
  dists: RunDistribution[];
  extrapolated: Uint8Array;
  distance: Float64Array;
  /** --dist params: 1 where a predicted weight or scale came out invalid; --per-level: 1 where a level came out non-finite (the distribution is NaN). */
  paramsInvalid: Uint8Array;
}

/** Predicted distributions at raw inputs X (rows × m.inputs.length) of one map. */
export function predictMapDistributions(
  file: Pick<DistributionModelsFile, "dist" | "weights" | "moments" | "levels" | "smooth" | "perLevel" | "positions" | "featureWeights">,
  m: DistributionMapModel,
  X: Float64Array,
  backend?: BackendChoice,
): DistributionPrediction {
  const d = m.inputs.length;
  const Q = normalizeInputs(m, X);
  const U = Float64Array.from(m.U);
  const runs = modelRuns(m);
  const scales = file.featureWeights === "lr" ? featureScales(U, d, runs) : undefined;
  const ws = scales
    ? interpolationWeights(file.weights, scaleInputs(U, scales, d), scaleInputs(Q, scales, d), d, { backend })
    : interpolationWeights(file.weights, U, Q, d, { backend });
  const moments = needsMoments([file.dist]) ? predictMoments(file.moments, runs, ws, U, Q, d, backend) : undefined;
  const nq = Q.length / d;
  const paramsInvalid = new Uint8Array(nq);
  const perLevel = file.perLevel && file.dist === "quantile" ? perLevelQuantiles(file.perLevel, runs, U, Q, d, file.levels, backend) : undefined;
  const one = (q: number): RunDistribution => {
    if (perLevel) {
      // A level predicted non-finite: flagged (nonfinite), NaN distribution.
      if (perLevel[q]) return perLevel[q]!;
      paramsInvalid[q] = 1;
      return new NormalDistribution(NaN, NaN);
    }
    if (file.dist !== "params") return predictDistribution(file.dist, runs, ws, q, moments, file.smooth, file.positions);
    if (!m.mixtures) throw new VarmapError("E_MODEL_FORMAT", "a params model without mixture features", { remedy: "refit with --dist params --fits fits.csv" });
    const F = predictParams(m.mixtures, ws, q);
    if (F) return F;
    paramsInvalid[q] = 1;
    return new NormalDistribution(NaN, NaN);
  };
  return { dists: Array.from({ length: nq }, (_, q) => one(q)), extrapolated: ws.extrapolated, distance: ws.distance, paramsInvalid };
}

function modelRuns(m: DistributionMapModel): ConfigRuns {
  const n = m.offsets.length - 1;
  const runs = Float64Array.from(m.runs),
    offsets = Int32Array.from(m.offsets);
  const mean = new Float64Array(n),
    sd = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    // Without over- or underflow for runs near 1e±300 (issue 44): the same bits otherwise.
    [mean[i], sd[i]] = sampleMoments(runs.subarray(offsets[i], offsets[i + 1]));
  }
  return { runs, offsets, mean, sd };
}

/**
 * Parametric output (`--output mixture`, spec E.2): varmap's EM and BIC on the K + 1 predicted quantiles at
 * levels j/K as a pseudo-sample (the normal's 0 and 1 quantiles are infinite: levels (j + ½)/(K + 1) instead).
 */
export function mixtureOutputs(
  dists: readonly RunDistribution[],
  levels: number,
  opts: { families: FamilyName[]; kmax: number; seed: number; location?: (query: number) => ErrorLocation },
): ReturnType<typeof fitMixtures> {
  const offsets = Int32Array.from({ length: dists.length + 1 }, (_, i) => i * (levels + 1));
  const runs = new Float64Array(dists.length * (levels + 1));
  dists.forEach((F, i) => {
    for (let j = 0; j <= levels; j++) {
      const x = F.quantile(j / levels);
      const p = Number.isFinite(x) ? j / levels : (j + 0.5) / (levels + 1);
      const v = (runs[i * (levels + 1) + j] = Number.isFinite(x) ? x : F.quantile(p));
      // The families are for positive measurements: say which prediction cannot be one, not "a run" (issue 44).
      if (!(v > 0))
        throw new VarmapError(
          Number.isNaN(v) ? "E_NONFINITE" : "E_MIXTURE_NONPOSITIVE",
          `query ${i + 1}'s predicted distribution has the quantile ${v} at level ${p}: ${Number.isNaN(v) ? "no prediction there" : "the mixture families are fitted to positive values"}`,
          {
            location: opts.location?.(i),
            remedy: Number.isNaN(v)
              ? "write --output quantiles (its summary marks the queries without a prediction)"
              : "write --output quantiles or cdf; a normal prediction's lower tail goes below 0 (fit with --dist quantile or locscale for a positive support)",
          },
        );
    }
  });
  const o: MixtureFitOptions = { families: opts.families, kmax: opts.kmax, seed: opts.seed };
  return fitMixtures(runs, offsets, o);
}
