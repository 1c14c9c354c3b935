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
  runs: Float64Array;
  offsets: Int32Array;
}

export type StatName = "sd" | "var" | "mean" | "q10" | "q90" | "ci90";

/** One variability map: the configurations sharing one combination of factor values. */
export interface VariabilityMap {
  /** Factor name → value; identifies the map. */
  key: Record<string, string>;
  /** Input columns kept (constant ones dropped). */
  inputNames: string[];
  /** rows × inputNames.length, raw values. */
  X: Float64Array;
  /** The same, normalized as `normalization` says. */
  U: Float64Array;
  rows: number;
  normalization: { log2: boolean[]; lo: number[]; hi: number[] };
  stat: StatName;
  y: Float64Array;
  /** Row ids: configuration indices into the ConfigTable, or the --id column of a map table. */
  ids: (number | string)[];
}
