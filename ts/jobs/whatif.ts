// `varmap whatif --holdout p` as a job: for every map and method, hold out a share of the map's configurations
// (drawn from counterRng(seed, "whatif-holdout", map)), fit the mean and spread models on the rest and predict
// the held-out ones (one task per map and method). The writer ranks each method's held-out configurations
// (objective, constraints, Pareto fronts), compares with their measurements and writes whatif.csv and
// whatif-validation.csv. Workers, resume, shards and merge come from the engine; results do not depend on them.
import { autoLogResponse } from "../data/auto-transforms.js";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { isVarmapError, VarmapError } from "../errors.js";
import { mapGroups } from "../cv/groups.js";
import { writeFileAtomic } from "../data/write.js";
import type { JobContext, JobDefinition, JobPlan } from "../pool/job.js";
import { fingerprint, mapView, packMaps, type SharedMaps } from "../data/shared-maps.js";
import { buildMaps } from "../data/maps.js";
import { jackknifeVariances } from "../data/stat-variance.js";
import type { Dataset } from "../data/load.js";
import type { StatName } from "../data/types.js";
import { sharedCopy } from "../pool/threads.js";
import { tableCsv } from "../data/write.js";
import { mapKey } from "../predict/models-file.js";
import { mapInputScaling } from "../cv/split.js";
import { createPredictor } from "../predict/registry.js";
import { matrix, takeRows } from "../predict/matrix.js";
import type { Candidates, Predicted } from "../whatif/candidates.js";
import { predictMap } from "../whatif/models.js";
import { evaluate, type EvaluateOptions, type SpreadKind } from "../whatif/objective.js";
import { candidateColumns, concatTables, outputOrder, validationColumns } from "../whatif/report.js";
import { groupHoldoutRows, holdoutRows, mapLabel, spreadOfStats, summaryOf, validationRows, type ValidationRow } from "../whatif/run.js";
import { RunsNeededTable } from "../whatif/runs.js";

export interface WhatifPlan extends JobPlan {
  verb: "whatif";
  factors: string[];
  /** Every input column of the data (whatif.csv's input columns). */
  inputs: string[];
  /** Per map: factor values, configurations, the inputs the models use. */
  maps: { values: string[]; rows: number; inputs: string[] }[];
  methods: string[];
  response: "linear" | "log";
  /** Share of each map's configurations held out, and the seed of the draw. */
  fraction: number;
  seed: string;
  /** --leave-out COLS (issue 41): whole groups held out; per map, the held-out groups' labels. */
  leaveOut?: { cols: string[]; heldOut: string[][] };
  spreadKind: SpreadKind;
  evaluate: EvaluateOptions;
  /** File name of the candidate table in the output directory (from --out), and --top. */
  table: string;
  top?: number;
}

export interface WhatifTask {
  id: string;
  map: number;
  method: string;
}

export interface WhatifContext extends JobContext<WhatifPlan> {
  /** The maps with the configurations' mean as response; spread: the same maps with the spread statistic. */
  mean: SharedMaps;
  spread: SharedMaps;
  /** Every input of every map row (constant ones included), row-major, maps one after another. */
  allInputs: Float64Array;
  allStart: number[];
  /** --leave-out: per map, the held-out rows. */
  groupTest?: Int32Array[];
}

/** What a task returns for its held-out rows (JSON: NaN travels as null). */
export type HoldoutResult = { rows: number[]; inputs: (number | null)[]; trueMean: (number | null)[]; trueSpread: (number | null)[] } & (
  | { mean: (number | null)[]; spread: (number | null)[]; extrapolated: number[]; distance: (number | null)[] }
  | { error: string; message: string }
);

export function whatifPlanFingerprint(mean: SharedMaps, spread: SharedMaps, allInputs: Float64Array): string {
  const h = createHash("sha256");
  h.update(fingerprint(mean));
  h.update(fingerprint(spread));
  h.update(new Uint8Array(allInputs.buffer, allInputs.byteOffset, allInputs.byteLength));
  return h.digest("hex").slice(0, 32);
}

export function whatifTasks(plan: WhatifPlan): WhatifTask[] {
  const tasks: WhatifTask[] = [];
  for (const method of plan.methods) plan.maps.forEach((_, map) => tasks.push({ id: `whatif/${map}/${method}`, map, method }));
  return tasks;
}

const json = (x: number): number | null => (Number.isFinite(x) ? x : null);
const num = (x: number | null): number => (x === null ? NaN : x);

function complement(test: Int32Array, rows: number): { train: Int32Array; test: Int32Array } {
  const inTest = new Uint8Array(rows);
  for (const r of test) inTest[r] = 1;
  return { train: Int32Array.from({ length: rows }, (_, r) => r).filter((r) => !inTest[r]), test };
}

function runTask(ctx: WhatifContext, task: WhatifTask): HoldoutResult {
  const plan = ctx.plan;
  const pm = plan.maps[task.map];
  const key = Object.fromEntries(plan.factors.map((f, i) => [f, pm.values[i]]));
  const mean = mapView(ctx.mean, task.map);
  const spread = mapView(ctx.spread, task.map);
  const { train, test } = ctx.groupTest
    ? complement(ctx.groupTest[task.map], mean.rows)
    : holdoutRows(mean.rows, plan.fraction, plan.seed, mapKey(plan.factors, key));
  const d = mean.cols;
  const X = matrix(mean.X, mean.rows, d);
  const options = { inputs: mapInputScaling(mean.meta.normalization), response: plan.response };
  const pick = (y: Float64Array, idx: Int32Array) => Float64Array.from(idx, (i) => y[i]);
  const Xt = takeRows(X, train);
  const Xq = takeRows(X, test);
  const da = plan.inputs.length;
  const inputs: (number | null)[] = [];
  for (const r of test) for (let j = 0; j < da; j++) inputs.push(json(ctx.allInputs[(ctx.allStart[task.map] + r) * da + j]));
  const held = { rows: Array.from(test), inputs, trueMean: Array.from(test, (i) => json(mean.y[i])), trueSpread: Array.from(test, (i) => json(spread.y[i])) };
  try {
    // With the runs known, each statistic's measured sampling variance goes along (gp models it as per-point noise).
    const mm = createPredictor(task.method, options).fit(Xt, pick(mean.y, train), mean.yVar && pick(mean.yVar, train));
    const sm = createPredictor(task.method, options).fit(Xt, pick(spread.y, train), spread.yVar && pick(spread.yVar, train));
    // Training box in normalized units (the map's normalization spans all its rows, not only the training ones).
    const lo = new Array<number>(d).fill(Infinity);
    const hi = new Array<number>(d).fill(-Infinity);
    const U = mm.toJSON().inputs;
    for (const i of train)
      for (let j = 0; j < d; j++) {
        let v = mean.X[i * d + j];
        if (U.log2.includes(j)) v = Math.log2(v);
        v = U.hi[j] > U.lo[j] ? (v - U.lo[j]) / (U.hi[j] - U.lo[j]) : 0;
        if (v < lo[j]) lo[j] = v;
        if (v > hi[j]) hi[j] = v;
      }
    const p = predictMap({ key, inputs: mean.meta.inputNames, mean: mm, spread: sm, scaling: U, box: { lo, hi } }, Xq.data, Xq.rows);
    return {
      ...held,
      mean: Array.from(p.mean, json),
      spread: Array.from(p.spread, json),
      extrapolated: Array.from(p.extrapolated),
      distance: Array.from(p.distance, json),
    };
  } catch (e) {
    if (isVarmapError(e)) return { ...held, error: e.code, message: e.message };
    throw e;
  }
}

export const VALIDATION_FILE = "whatif-validation.csv";

export const job: JobDefinition<WhatifPlan, WhatifTask, WhatifContext> = {
  verb: "whatif",
  module: import.meta.url,
  tasks: whatifTasks,
  run: runTask,
  files(plan) {
    return [plan.table, VALIDATION_FILE];
  },
  write(plan, results, dir) {
    const space = {
      factors: plan.factors,
      inputs: plan.inputs,
      maps: plan.maps.map((m) => ({ key: Object.fromEntries(plan.factors.map((f, i) => [f, m.values[i]])) })),
    };
    const runsTable = new RunsNeededTable(plan.evaluate.precision, plan.evaluate.level);
    const tables = [];
    const validation: ValidationRow[] = [];
    const methods: Record<string, unknown>[] = [];
    const failed: { map: string; method: string; error: string; message: string }[] = [];
    const da = plan.inputs.length;
    for (const method of plan.methods) {
      // The held-out configurations of every map, in map order (the same for every method).
      const factorValues: string[][] = plan.factors.map(() => []);
      const inputs: number[] = [];
      const map: number[] = [];
      const p = { mean: [] as number[], spread: [] as number[], extrapolated: [] as number[], distance: [] as number[] };
      const truth = { mean: [] as number[], spread: [] as number[] };
      plan.maps.forEach((pm, mi) => {
        const r = results.get(`whatif/${mi}/${method}`) as HoldoutResult;
        if ("error" in r) failed.push({ map: mapLabel(space.maps[mi].key), method, error: r.error, message: r.message });
        r.rows.forEach((_, k) => {
          plan.factors.forEach((_f, q) => factorValues[q].push(pm.values[q]));
          map.push(mi);
          for (let j = 0; j < da; j++) inputs.push(num(r.inputs[k * da + j]));
          truth.mean.push(num(r.trueMean[k]));
          truth.spread.push(num(r.trueSpread[k]));
          // A failed fit predicts nothing: its rows are invalid predictions, not ranked.
          const ok = !("error" in r);
          p.mean.push(ok ? num(r.mean[k]) : NaN);
          p.spread.push(ok ? num(r.spread[k]) : NaN);
          p.extrapolated.push(ok ? r.extrapolated[k] : 0);
          p.distance.push(ok ? num(r.distance[k]) : NaN);
        });
      });
      const candidates: Candidates = { count: map.length, factorValues, inputs: Float64Array.from(inputs), map: Int32Array.from(map) };
      const predicted: Predicted = {
        mean: Float64Array.from(p.mean),
        spread: Float64Array.from(p.spread),
        extrapolated: Uint8Array.from(p.extrapolated),
        distance: Float64Array.from(p.distance),
      };
      const ranked = { candidates, predicted, evaluation: evaluate(predicted, plan.evaluate, runsTable) };
      validation.push(
        ...validationRows(space, ranked, { mean: Float64Array.from(truth.mean), spread: Float64Array.from(truth.spread) }, plan.evaluate, method, runsTable),
      );
      tables.push(
        candidateColumns(space, candidates, predicted, ranked.evaluation, outputOrder(ranked.evaluation, plan.top), { method, spreadKind: plan.spreadKind }),
      );
      methods.push({ method, ...summaryOf(ranked) });
    }
    writeFileAtomic(join(dir, plan.table), tableCsv(concatTables(tables)));
    writeFileAtomic(join(dir, VALIDATION_FILE), tableCsv(validationColumns(validation)));
    return { runs: methods, metrics: validation, failed };
  },
};

/** The plan and context of a --holdout job over the runs of `data` (loaded by the caller with loadDataset). */
export function holdoutJob(
  data: Dataset,
  o: {
    methods: string[];
    /** auto (`--log-response auto`): log when every mean and every spread value of the maps is positive. */
    response: "linear" | "log" | "auto";
    fraction: number;
    seed: string;
    spreadKind: SpreadKind;
    evaluate: EvaluateOptions;
    table: string;
    top?: number;
    logInputs?: string[];
    source: string;
    /** --leave-out COLS: hold out whole combinations of these inputs/factors. */
    leaveOut?: string[];
  },
): WhatifContext {
  const spreadAll = spreadOfStats(data.stats, o.spreadKind, o.source);
  // From runs (not a --map table), each statistic's jackknife variance goes with it, as in cv and refit (gp models
  // it as per-point noise); quantile spreads go without (their jackknife is inconsistent).
  // The loader's variances serve when they are of the same statistic.
  const varianceOf = (stat: StatName) => (!data.yVar ? undefined : stat === data.maps[0]?.stat ? data.yVar : jackknifeVariances(data.table, stat));
  const spreadStat = o.spreadKind === "sd" || o.spreadKind === "var" || o.spreadKind === "cv" ? o.spreadKind : undefined;
  const meanVar = varianceOf("mean");
  const spreadVar = spreadStat && varianceOf(spreadStat);
  const meanMaps = buildMaps(data.table, data.stats.mean, { stat: "mean", logInputs: o.logInputs, yVar: meanVar });
  const spreadMaps = buildMaps(data.table, spreadAll, { stat: "sd", logInputs: o.logInputs, yVar: spreadVar });
  // Both statistics are modelled on the one scale: a log scale needs every value of both positive.
  const response = o.response === "auto" ? (autoLogResponse([...meanMaps, ...spreadMaps].map((m) => m.y)) ? "log" : "linear") : o.response;
  const t = data.table;
  const da = t.roles.inputs.length;
  const allStart: number[] = [];
  const rows: number[] = [];
  for (const m of meanMaps) {
    allStart.push(rows.length);
    for (const id of m.ids) rows.push(id as number);
  }
  const allInputs = new Float64Array(rows.length * da);
  rows.forEach((c, r) => allInputs.set(t.inputs.subarray(c * da, (c + 1) * da), r * da));
  const mean = packMaps(meanMaps);
  const spread = packMaps(spreadMaps);
  const shared = sharedCopy(allInputs);
  let leaveOut: WhatifPlan["leaveOut"];
  let groupTest: Int32Array[] | undefined;
  if (o.leaveOut) {
    const cols = o.leaveOut;
    const heldOut: string[][] = [];
    groupTest = meanMaps.map((m) => {
      const columns = cols.map((c) => {
        const input = m.inputNames.indexOf(c);
        if (input >= 0) return { name: c, input };
        if (t.roles.factors.includes(c)) return { name: c, value: m.key[c] };
        throw new VarmapError("E_LEAVE_OUT", `--leave-out names '${c}', which is neither an input nor a factor of the data`, {
          remedy: `name inputs (${m.inputNames.join(", ")})${t.roles.factors.length ? ` or factors (${t.roles.factors.join(", ")})` : ""}`,
        });
      });
      const g = mapGroups(m.X, m.rows, m.inputNames.length, columns);
      if (g.labels.length < 2)
        throw new VarmapError(
          "E_LEAVE_OUT",
          `map ${mapKey(t.roles.factors, m.key) || "(all)"} has one combination of ${cols.join(",")}: nothing to train on when it is held out`,
          {
            remedy: "hold out columns that vary within each map (inputs), not only the factors that define the maps",
          },
        );
      const h = groupHoldoutRows(g, o.fraction, o.seed, mapKey(t.roles.factors, m.key));
      heldOut.push(h.groups.map((i) => g.labels[i]));
      return h.test;
    });
    leaveOut = { cols, heldOut };
  }
  const plan: WhatifPlan = {
    format: "varmap-job",
    version: 1,
    verb: "whatif",
    fingerprint: whatifPlanFingerprint(mean, spread, shared),
    factors: t.roles.factors,
    inputs: t.roles.inputs,
    maps: meanMaps.map((m) => ({ values: t.roles.factors.map((f) => m.key[f]), rows: m.rows, inputs: m.inputNames })),
    methods: o.methods,
    response,
    fraction: o.fraction,
    seed: o.seed,
    ...(leaveOut ? { leaveOut } : {}),
    spreadKind: o.spreadKind,
    evaluate: o.evaluate,
    table: o.table,
    ...(o.top === undefined ? {} : { top: o.top }),
  };
  return { plan, mean, spread, allInputs: shared, allStart, ...(groupTest ? { groupTest } : {}) };
}
