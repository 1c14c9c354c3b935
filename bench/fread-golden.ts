// The real fread map and its golden splits, as issue 16's benchmarks and probes use them: the map read from the runs
// (so gp models each configuration's measured noise), a log response, and the 20 golden splits at a fraction p.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { splitRows, type Split } from "../ts/cv/splits.js";
import { loadDataset } from "../ts/data/load.js";
import { mapView, packMaps, type MapData } from "../ts/data/shared-maps.js";
import type { RowSplit } from "../ts/predict/lsp.js";
import { sharedDir } from "../ts/benchmarks/shared-dir.js";

/** Today's `--log-inputs auto` on the fread runs: every input on a log scale. */
export const FREAD_LOG_INPUTS = ["freq_khz", "threads", "fsize_kb", "rsize_kb"];

export interface FreadGolden {
  map: MapData;
  /** The golden splits with fraction p and rep < reps, as rows of the map. */
  splitsAt(p: number, reps: number): RowSplit[];
}

export async function freadGolden(logInputs: string[] = FREAD_LOG_INPUTS): Promise<FreadGolden> {
  const shared = sharedDir();
  const { maps } = await loadDataset(join(shared, "data", "moana-cfq-noop-fread.csv"), { preset: "moana", logInputs, logResponse: true });
  const file = join(shared, "golden", "moana-splits.json");
  const splits: Split[] = JSON.parse(readFileSync(file, "utf8")).splits;
  return {
    map: mapView(packMaps(maps), 0),
    splitsAt: (p, reps) =>
      splits
        .map((s, index) => ({ s, index }))
        .filter(({ s }) => s.p === p && s.rep < reps)
        .map(({ s, index }) => splitRows(s, maps[0].ids, { file, index })),
  };
}
