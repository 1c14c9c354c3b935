// Configurations' runs for the distribution plots (histogram, probability), selected from a dataset.
import { VarmapError } from "../errors.js";
import type { Dataset } from "../data/load.js";
import { configKey, configLabel } from "./configs.js";

export interface ConfigRuns {
  /** Readable label: "threads=4, freq_khz=1200000". */
  label: string;
  /** Key matching fits tables (see fits.ts). */
  key: string;
  runs: Float64Array;
}

/** The runs of configurations `which` of the dataset (positions in its table). */
export function configRuns(ds: Dataset, which: readonly number[]): ConfigRuns[] {
  const t = ds.table;
  return which.map((c) => ({ label: configLabel(t, c), key: configKey(t, c), runs: t.runs.slice(t.offsets[c], t.offsets[c + 1]) }));
}

/** The first `max` configurations of the dataset (after --where), erroring on none. */
export function firstConfigs(ds: Dataset, max: number): number[] {
  if (!ds.table.count) throw new VarmapError("E_PLOT_EMPTY", "no configurations to plot", { remedy: "check --where" });
  return Array.from({ length: Math.min(max, ds.table.count) }, (_, i) => i);
}
