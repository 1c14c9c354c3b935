// Given train/test divisions (`--splits FILE`): {n, splits: [{p, rep, train: [id…]}]}; test = the rows whose id
// is not in train. Ids are the map's row ids (the --id column of a map table, else row positions).
import { readFileSync } from "node:fs";
import { VarmapError } from "../errors.js";

export interface Split {
  p: number;
  rep: number;
  /** Row ids of the training set as the file gives them. */
  train: (number | string)[];
}

export interface SplitsFile {
  source: string;
  n?: number;
  splits: Split[];
}

const REMEDY = 'give a JSON file {"n": N, "splits": [{"p": 0.5, "rep": 0, "train": [id, …]}, …]}';

export function readSplitsFile(path: string): SplitsFile {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, "utf8"));
  } catch (e) {
    throw new VarmapError("E_SPLITS", `cannot read the splits file: ${(e as Error).message}`, { location: { file: path }, remedy: REMEDY });
  }
  const splits = (json as { splits?: unknown })?.splits;
  if (!Array.isArray(splits) || splits.length === 0)
    throw new VarmapError("E_SPLITS", "the splits file has no list of splits", { location: { file: path }, remedy: REMEDY });
  const labels = new Set<string>();
  splits.forEach((s, i) => {
    if (typeof s?.p !== "number" || typeof s?.rep !== "number" || !Array.isArray(s?.train))
      throw new VarmapError("E_SPLITS", `split ${i} is not {p, rep, train}`, { location: { file: path }, remedy: REMEDY });
    if (!(s.p > 0 && s.p < 1))
      throw new VarmapError("E_SPLITS", `split ${i} has p = ${s.p}, outside (0, 1)`, {
        location: { file: path },
        remedy: "give each split its training fraction p, 0 < p < 1",
      });
    const label = `${s.p}/${s.rep}`;
    if (labels.has(label))
      throw new VarmapError("E_SPLITS", `split ${i} repeats the label p = ${s.p}, rep = ${s.rep} of an earlier split`, {
        location: { file: path },
        remedy: "give every split its own (p, rep)",
      });
    labels.add(label);
    const ids = new Set((s.train as unknown[]).map(String));
    if (ids.size !== s.train.length)
      throw new VarmapError("E_SPLITS", `split ${i} (p=${s.p}, rep=${s.rep}) lists a training id more than once`, {
        location: { file: path },
        remedy: "list each training id once",
      });
  });
  const n = (json as { n?: unknown }).n;
  return { source: path, n: typeof n === "number" ? n : undefined, splits: splits as Split[] };
}

/**
 * Row positions of one split's training and test sets in a map whose row ids are `ids`. Training rows are in
 * ascending row order (the references were given their training points in ascending index order, and LSP's
 * neighbour ties depend on it); test rows in ascending row order too.
 */
export function splitRows(split: Split, ids: readonly (number | string)[], where: { file: string; index: number }): { train: Int32Array; test: Int32Array } {
  const pos = new Map<string, number>();
  ids.forEach((id, r) => pos.set(String(id), r));
  const inTrain = new Uint8Array(ids.length);
  for (const id of split.train) {
    const r = pos.get(String(id));
    if (r === undefined)
      throw new VarmapError("E_SPLITS", `split ${where.index} (p=${split.p}, rep=${split.rep}) names row id ${id}, which the map does not have`, {
        location: { file: where.file },
        remedy: "give splits whose ids are the map's --id values (or row positions 0..n−1 without --id)",
      });
    inTrain[r] = 1;
  }
  const train: number[] = [],
    test: number[] = [];
  for (let r = 0; r < ids.length; r++) (inTrain[r] ? train : test).push(r);
  return { train: Int32Array.from(train), test: Int32Array.from(test) };
}
