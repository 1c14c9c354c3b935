// The MOANA map, its 180 splits and R earth's predictions and fit times (../shared/golden), for the MARS benchmarks.
import { readFileSync } from "node:fs";
import { join } from "node:path";

export interface Split {
  p: number;
  rep: number;
  train: number[];
}

export const INPUTS = ["u_freq", "u_threads", "u_fsize", "u_rsize"];

function csv(path: string): { cols: string[]; rows: string[][] } {
  const lines = readFileSync(path, "utf8")
    .split(/\r?\n/)
    .filter((l) => l.length > 0);
  return { cols: lines[0].split(","), rows: lines.slice(1).map((l) => l.split(",")) };
}

export function loadMoana(shared: string) {
  const map = csv(join(shared, "golden", "moana-map.csv"));
  const ci = INPUTS.map((c) => map.cols.indexOf(c));
  const sdCol = map.cols.indexOf("sd");
  const X = map.rows.map((r) => ci.map((c) => Number(r[c])));
  const y = map.rows.map((r) => Number(r[sdCol]));
  const splits: Split[] = JSON.parse(readFileSync(join(shared, "golden", "moana-splits.json"), "utf8")).splits;
  const pred = csv(join(shared, "golden", "mars-earth-predictions.csv"));
  const col = (name: string) => pred.cols.indexOf(name.replace(/"/g, ""));
  const earth = new Map<string, number>(); // `${variant}/${p}/${rep}/${index}` -> prediction
  const [cp, cr, ci2, cv, cvar] = ["p", "rep", "index", "prediction", "variant"].map(col);
  for (const r of pred.rows) earth.set(`${r[cvar].replace(/"/g, "")}/${Number(r[cp])}/${Number(r[cr])}/${Number(r[ci2])}`, Number(r[cv]));
  // earth's fit times (R, single thread): wall_min per split, by variant
  const times = csv(join(shared, "golden", "regressors-fit-times.csv"));
  const [tp, tm, tw] = ["p", "model", "wall_min"].map((c) => times.cols.map((x) => x.replace(/"/g, "")).indexOf(c));
  const earthMs = new Map<string, number[]>(); // `${variant}/${p}` -> ms per split
  for (const r of times.rows) {
    const model = r[tm].replace(/"/g, "");
    if (!model.startsWith("earth_")) continue;
    const key = `${model.slice(6)}/${Number(r[tp])}`;
    earthMs.set(key, [...(earthMs.get(key) ?? []), 1000 * Number(r[tw])]);
  }
  return { X, y, splits, earth, earthMs };
}
