// The shapes the data layer hands to everything downstream (issue #3 fills them in; keep these names stable).

/** Which columns play which role. */
export interface ColumnRoles {
  factors: string[];
  inputs: string[];
  response: string;
  run?: string;
}

/** All configurations of a dataset: each configuration's runs are runs[offsets[c] .. offsets[c+1]). */
export interface ConfigTable {
  source: string;
  roles: ColumnRoles;
  count: number;
  /** factorValues[f][c] = value of factor f for configuration c. */
  factorValues: string[][];
  /** count × inputs.length raw input values, row-major. */
  inputs: Float64Array;
  /** Runs of every configuration, each configuration's ordered by run column, then file row. */
  runs: Float64Array;
  offsets: Int32Array;
  /** File row (1-based, header = row 1) of each configuration's first run, for messages. */
  firstRow?: Int32Array;
  /** With --map: the id column's value of each configuration. */
  ids?: (number | string)[];
}

export type StatName = "sd" | "var" | "mean" | "q10" | "q90" | "ci90" | "cv";

/** Quantile levels computed per configuration (type 7), named q05 … q95. */
export const QUANTILE_LEVELS = [0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95] as const;
export const QUANTILE_NAMES = ["q05", "q10", "q25", "q50", "q75", "q90", "q95"] as const;
export type QuantileName = (typeof QUANTILE_NAMES)[number];

/** Statistics of each configuration's runs (one entry per configuration). */
export interface ConfigStats {
  n: Int32Array;
  mean: Float64Array;
  /** Sample standard deviation (n − 1). */
  sd: Float64Array;
  var: Float64Array;
  min: Float64Array;
  max: Float64Array;
  quantiles: Record<QuantileName, Float64Array>;
  /** Adjusted Fisher–Pearson skewness G1 (NaN for n < 3 or zero spread). */
  skewness: Float64Array;
  /** Width of the Student-t 90% confidence interval of the mean: 2 t(0.95, n−1) sd / √n. */
  ci90: Float64Array;
}

/** One variability map: the configurations sharing one combination of factor values. */
export interface VariabilityMap {
  /** Factor name → value; identifies the map. */
  key: Record<string, string>;
  /** Input columns kept (constant ones dropped). */
  inputNames: string[];
  /** rows × inputNames.length, raw values. */
  X: Float64Array;
  /** The same, normalized as `normalization` says: u = (t(x) − lo) / (hi − lo), t = log2 where log2[j]. */
  U: Float64Array;
  rows: number;
  normalization: { log2: boolean[]; lo: number[]; hi: number[] };
  stat: StatName;
  y: Float64Array;
  /** Row ids: configuration indices into the ConfigTable, or the --id column of a map table. */
  ids: (number | string)[];
  /** Sampling variance of each row's y over its runs (ts/data/stat-variance.ts); absent for a map read without runs, NaN where unknown. */
  yVar?: Float64Array;
}
