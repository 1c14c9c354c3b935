// Loads the real MOANA map, its 180 splits and a reference predictions file from ../shared/golden.
import { readFileSync } from "node:fs";
import type { CvMap } from "../../ts/cv/given.js";
import type { SplitsFile } from "../../ts/cv/splits.js";
import { goldenPath, readCsv } from "../helpers/shared.js";

export const MOANA_INPUTS = ["u_freq", "u_threads", "u_fsize", "u_rsize"];

export function moanaMap(): CvMap {
  const rows = readCsv(goldenPath("moana-map.csv"));
  const d = MOANA_INPUTS.length;
  const X = Float64Array.from(rows.flatMap((r) => MOANA_INPUTS.map((c) => r[c] as number)));
  const lo = MOANA_INPUTS.map((_, j) => Math.min(...rows.map((r) => r[MOANA_INPUTS[j]] as number)));
  const hi = MOANA_INPUTS.map((_, j) => Math.max(...rows.map((r) => r[MOANA_INPUTS[j]] as number)));
  return {
    X,
    rows: rows.length,
    cols: d,
    y: Float64Array.from(rows.map((r) => r.sd as number)),
    ids: rows.map((r) => r.index as number),
    normalization: { log2: [false, false, false, false], lo, hi },
  };
}

export function moanaSplits(): SplitsFile {
  const path = goldenPath("moana-splits.json");
  return { source: path, ...JSON.parse(readFileSync(path, "utf8")) };
}

/** Reference predictions keyed by "p,rep,index". */
export function referencePredictions(file: string): Map<string, Record<string, number | string>> {
  const out = new Map<string, Record<string, number | string>>();
  for (const r of readCsv(goldenPath(file))) out.set(`${r.p},${r.rep},${r.index}`, r);
  return out;
}
