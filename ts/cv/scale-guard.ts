// Transforms judged per method (issue 41): `--log-inputs auto` and `--log-response auto` are chosen once per run, on
// what suits the smooth global methods (gp, mars, rbf). Linear Shepard interpolation (lsp, the MOANA paper's flagship)
// collapses under them: its local least-squares fits on log2 inputs are rank-deficient near the grid's repeated levels
// and a log response exponentiates their errors. Measured on the fread mean map (`varmap cv … --stat mean --methods
// lsp --p 0.5,0.9 --reps 20`): 901 / 585 % mean ARE with both transforms, 286 / 102 % with linear inputs, 71 / 58 %
// with a linear response, 32 / 35 % with both linear (the paper's setup). So a method listed here keeps the raw scales
// wherever the transforms were left to `auto`; a transform the user names explicitly applies to it as given.
import type { MapData } from "../data/shared-maps.js";

/** Methods that run on the raw scales where a transform was chosen automatically. */
export const RAW_SCALE_METHODS: readonly string[] = ["lsp"];

/** Which automatic transforms a method sets aside. */
export interface ScaleGuard {
  inputs: boolean;
  response: boolean;
}

/** The guards of the methods run, given which transforms were automatic; undefined when none applies. */
export function scaleGuards(methods: readonly string[], auto: ScaleGuard): Record<string, ScaleGuard> | undefined {
  if (!auto.inputs && !auto.response) return undefined;
  const out: Record<string, ScaleGuard> = {};
  for (const m of methods) if (RAW_SCALE_METHODS.includes(m)) out[m] = { ...auto };
  return Object.keys(out).length ? out : undefined;
}

/** The map with its inputs on their raw scales (unit cube over the map's raw range): the normalization without log2. */
const rawMetas = new WeakMap<object, MapData["meta"]>();

/** A normalization without log2: the unit cube over the raw range of the rows × cols inputs X. */
export function rawNormalization(X: ArrayLike<number>, rows: number, cols: number): { log2: boolean[]; lo: number[]; hi: number[] } {
  const lo = new Array<number>(cols).fill(Infinity),
    hi = new Array<number>(cols).fill(-Infinity);
  for (let i = 0; i < rows; i++)
    for (let j = 0; j < cols; j++) {
      const v = X[i * cols + j];
      if (v < lo[j]) lo[j] = v;
      if (v > hi[j]) hi[j] = v;
    }
  return { log2: new Array<boolean>(cols).fill(false), lo, hi };
}

/** The map with its inputs on their raw scales (unit cube over the map's raw range): the normalization without log2. */
export function rawInputsMap(map: MapData): MapData {
  if (!map.meta.normalization.log2.some(Boolean)) return map;
  let meta = rawMetas.get(map.meta);
  if (!meta) rawMetas.set(map.meta, (meta = { ...map.meta, normalization: rawNormalization(map.X, map.rows, map.cols) }));
  return { ...map, meta };
}

/** The (map, response) a method runs on under its guard. */
export function guardedScales(map: MapData, response: "linear" | "log", guard: ScaleGuard | undefined): { map: MapData; response: "linear" | "log" } {
  if (!guard) return { map, response };
  return { map: guard.inputs ? rawInputsMap(map) : map, response: guard.response ? "linear" : response };
}
