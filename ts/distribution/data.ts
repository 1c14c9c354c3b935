// From the data layer's maps to what distribution prediction needs: each map's normalized inputs and the sorted
// runs of its configurations (rows in map order, so split ids resolve as for scalar cross-validation).
import type { Dataset } from "../data/load.js";
import type { VariabilityMap } from "../data/types.js";
import { configRuns } from "./methods.js";
import type { DistributionMap } from "./validate.js";

export interface LoadedDistributionMap extends DistributionMap {
  map: VariabilityMap;
}

/** One DistributionMap per map of a runs dataset (not a --map table: distributions need the runs). */
export function distributionMaps(data: Dataset): LoadedDistributionMap[] {
  const t = data.table;
  return data.maps.map((map) => {
    const offsets = [0];
    const runs: number[] = [];
    for (const id of map.ids) {
      const c = Number(id);
      for (let k = t.offsets[c]; k < t.offsets[c + 1]; k++) runs.push(t.runs[k]);
      offsets.push(runs.length);
    }
    return { map, U: map.U, d: map.inputNames.length, rows: map.rows, runs: configRuns(runs, offsets) };
  });
}

/** A map's label in output tables: its factor values joined by "/", or "(all)". */
export function mapLabel(key: Record<string, string>): string {
  const v = Object.values(key);
  return v.length ? v.join("/") : "(all)";
}
