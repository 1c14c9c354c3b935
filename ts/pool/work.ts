// What a worker does with a task: pure functions of (context, task), shared by the Piscina worker and the
// in-process path (--workers 0, tests), so a result cannot depend on where it ran.
import { isVarmapError } from "../errors.js";
import { createPredictor } from "../predict/registry.js";
import { matrix } from "../predict/matrix.js";
import { roundResult } from "./files.js";
import type { CvPlan, Plan, Task } from "./plan.js";
import { divisionStream, randomDivision } from "./random.js";
import { mapLabel, mapView, type SharedMaps } from "./shared-maps.js";
import { mapSplitPredictor, scoreSplits, SplitPredictorCache, type MapData } from "./split.js";
import { mapInputScaling } from "../cv/split.js";
import { fitMixtureChunk, type MixResult } from "./mixtures.js";

export interface WorkContext {
  maps: SharedMaps;
  plan: Plan;
  /** Given splits (--splits): training row positions per map and split. */
  givenTrain?: number[][][];
  /** Every configuration's runs (refit with mixtures), in shared memory, and each configuration's key columns. */
  runs?: { runs: Float64Array; offsets: Int32Array; keys: string[][] };
  /** Row ids (the --id column) per map, for predictions.csv; default the row positions. */
  ids?: (number | string)[][];
}

export interface CvResult {
  /** ARE per repetition (or given split), rounded as files.ts documents; null where the method failed. */
  are: (number | null)[];
  /** Error codes of failed repetitions, by position in `are`. */
  errors?: Record<string, string>;
  /** Given splits with predictions requested: predictions at each split's test rows, rounded likewise. */
  pred?: number[][];
  /** The test rows' ids matching `pred`. */
  rows?: (number | string)[][];
}

export type FitResult = { model: unknown } | { error: string; message: string };

// Per worker context, its recent split predictors (LSP's neighbour table of a map serves all its tasks).
const predictorCaches = new WeakMap<WorkContext, SplitPredictorCache>();

function cachedPredictor(ctx: WorkContext, map: MapData, mapIndex: number, method: string, hyper: Record<string, unknown>) {
  let cache = predictorCaches.get(ctx);
  if (!cache) predictorCaches.set(ctx, (cache = new SplitPredictorCache()));
  const response = ctx.plan.response;
  // Every split of this map and method in the job, across the worker's tasks.
  const plan = ctx.plan as CvPlan;
  const splits = plan.given ? plan.given.labels.length : plan.generated!.ps.length * plan.generated!.reps;
  return cache.get(JSON.stringify([mapIndex, method, response, hyper]), () => mapSplitPredictor(map, method, response, hyper, splits));
}

function mapData(ctx: WorkContext, m: number): MapData {
  return { ...mapView(ctx.maps, m), meta: ctx.maps.meta[m] };
}

export function runTask(ctx: WorkContext, task: Task): CvResult | FitResult | MixResult {
  const plan = ctx.plan;
  if (task.kind === "mix") return fitMixtureChunk(ctx, task);
  const map = mapData(ctx, task.map);
  if (task.kind === "fit") {
    try {
      const model = createPredictor(task.method, { ...(plan.methodOptions?.[task.method] ?? {}), inputs: mapInputScaling(map.meta.normalization), response: plan.response }).fit(matrix(map.X, map.rows, map.cols), map.y);
      return { model: model.toJSON() };
    } catch (e) {
      if (isVarmapError(e)) return { error: e.code, message: e.message };
      throw e;
    }
  }
  if (plan.verb !== "cv") throw new Error(`internal: task ${task.id} does not belong to a ${plan.verb} job`);
  const out: CvResult = { are: [] };
  const hyper = plan.methodOptions?.[task.method] ?? {};
  const predictorFor = () => (task.method === "mean" ? undefined : cachedPredictor(ctx, map, task.map, task.method, hyper));
  const fail = (i: number, code: string): void => {
    out.are.push(null);
    (out.errors ??= {})[String(i)] = code;
  };
  if (task.kind === "cv-gen") {
    const g = plan.generated!;
    const p = g.ps[task.pIndex];
    const label = mapLabel(Object.fromEntries(plan.factors.map((f, i) => [f, plan.maps[task.map].values[i]])));
    const divisions = [];
    for (let rep = task.r0; rep < task.r1; rep++) {
      // Keyed by the map's name, p and rep, not by method: every method sees the same divisions (paired comparison).
      const stream = divisionStream(g.seed, label, p, rep);
      divisions.push(randomDivision(map.rows, p, stream));
    }
    const scores = scoreSplits(map, divisions, task.method, plan.response, hyper, predictorFor());
    scores.forEach((r, i) => ("error" in r ? fail(i, r.error) : out.are.push(roundResult(r.are))));
    return out;
  }
  const want = plan.given!.predictions;
  if (want) (out.pred = []), (out.rows = []);
  const ids = ctx.ids?.[task.map];
  const divisions = [];
  for (let s = task.s0; s < task.s1; s++) {
    const trainList = ctx.givenTrain![task.map][s];
    const inTrain = new Uint8Array(map.rows);
    for (const i of trainList) inTrain[i] = 1;
    const train = Int32Array.from(trainList).sort();
    const test = new Int32Array(map.rows - train.length);
    for (let i = 0, k = 0; i < map.rows; i++) if (!inTrain[i]) test[k++] = i;
    divisions.push({ train, test });
  }
  const scores = scoreSplits(map, divisions, task.method, plan.response, hyper, predictorFor());
  for (let s = task.s0; s < task.s1; s++) {
    const r = scores[s - task.s0], test = divisions[s - task.s0].test;
    if ("error" in r) {
      fail(s - task.s0, r.error);
      if (want) out.pred!.push([]), out.rows!.push([]);
    } else {
      out.are.push(roundResult(r.are));
      if (want) {
        out.pred!.push(Array.from(r.pred, roundResult));
        out.rows!.push(Array.from(test, (i) => (ids ? ids[i] : i)));
      }
    }
  }
  return out;
}
