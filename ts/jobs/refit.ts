// `varmap refit` as a job: every map fitted with every chosen predictor (one task per map and method) and, with
// mixtures, every configuration's runs (chunks of configurations). Writes models.json (the fitted models,
// restorable with predictorFromJSON), distributions.csv and a short summary.
import { join } from "node:path";
import { isVarmapError } from "../errors.js";
import { csvText, writeFileAtomic } from "../data/write.js";
import type { JobContext, JobDefinition } from "../pool/job.js";
import { mapView, type SharedMaps } from "../data/shared-maps.js";
import { mapInputScaling } from "../cv/split.js";
import { createPredictor } from "../predict/registry.js";
import { matrix } from "../predict/matrix.js";
import type { MixtureStarts } from "../backend/kernels/mixture.js";
import { fitMixtureChunk, type MixResult, type MixRuns } from "./mixture.js";
import { mapsPlanBase, type MapsPlan } from "./maps-plan.js";
import type { GuardSetting } from "../mixture/select.js";
import { flatParamNames, flatParamValues, paramNameColumns } from "../mixture/flat-params.js";
import { countFlags, flagAdvice, mixtureFlags, type ChosenFit, type MixtureFlagCounts } from "../mixture/flags.js";
import { isNonNegativeStat } from "../predict/trust.js";
import { guardedScales, scaleGuards, type ScaleGuard } from "../cv/scale-guard.js";
import { calibrate, calibrateForGroups, type ConformalCalibration } from "../predict/conformal.js";

/** What refit fits to every configuration's runs. */
export interface RefitMixturePlan {
  families: string[];
  kmax: number;
  seed: number;
  /** Start strategy (absent in plans written before it existed: full). */
  starts?: MixtureStarts;
  /** MAP EM prior strength (issue 17; absent in older plans: 0, maximum likelihood). */
  priorStrength?: number;
  /** Degeneracy guard at selection (issue 17; absent in older plans: off, BIC over every fit). */
  guard?: GuardSetting;
  /** Configurations in the dataset, and the names of the columns that identify one (factors, then inputs). */
  configs: number;
  columns: string[];
}

export interface RefitPlan extends MapsPlan {
  verb: "refit";
  /** Mixture models of every configuration's runs (seed 001), in chunks of configurations. */
  mixtures?: RefitMixturePlan & { chunk: number };
  /** `--conformal-folds k`: each model also carries its k-fold conformal calibration (for `predict --interval`), as `fit` does. */
  conformalFolds?: number;
  /** `--conformal-groups COLS` (issue 41): the calibration also holds leave-group-out residuals for novel combinations. */
  conformalGroups?: string[];
  /** Methods that set aside automatic transforms (ts/cv/scale-guard.ts). */
  scaleGuards?: Record<string, ScaleGuard>;
}

export type RefitTask = { id: string; kind: "fit"; map: number; method: string } | { id: string; kind: "mix"; map: -1; c0: number; c1: number };

export interface RefitContext extends JobContext<RefitPlan> {
  maps: SharedMaps;
  /** Every configuration's runs (with mixtures), in shared memory, and each configuration's key columns. */
  runs?: MixRuns;
}

/** A fitted model, with (nonnegative statistic) how many of its in-sample predictions are negative; or the fit's error. */
export type FitResult = { model: unknown; negative?: number; conformal?: ConformalCalibration } | { error: string; message: string };

/** Configurations per mixture task: one kernel call per family fits them all. */
export const MIX_CHUNK = 64;

export function refitPlan(
  maps: SharedMaps,
  o: {
    methods: string[];
    methodOptions?: Record<string, Record<string, unknown>>;
    response: "linear" | "log";
    stat?: string;
    mixtures?: RefitMixturePlan;
    conformalFolds?: number;
    conformalGroups?: string[];
    autoTransforms?: ScaleGuard;
  },
): RefitPlan {
  const guards = o.autoTransforms && scaleGuards(o.methods, o.autoTransforms);
  return {
    ...(o.mixtures ? { mixtures: { ...o.mixtures, chunk: MIX_CHUNK } } : {}),
    ...mapsPlanBase(maps, o),
    verb: "refit",
    // Only when asked: the plans (and so the resumable outputs) of refits without it are unchanged.
    ...(o.conformalFolds !== undefined ? { conformalFolds: o.conformalFolds } : {}),
    ...(o.conformalGroups ? { conformalGroups: o.conformalGroups } : {}),
    ...(guards ? { scaleGuards: guards } : {}),
  };
}

export function refitTasks(plan: RefitPlan): RefitTask[] {
  const tasks: RefitTask[] = [];
  plan.maps.forEach((_, map) => {
    for (const method of plan.methods) tasks.push({ id: `fit/${map}/${method}`, kind: "fit", map, method });
  });
  if (plan.mixtures) {
    const { configs, chunk } = plan.mixtures;
    for (let c0 = 0; c0 < configs; c0 += chunk) tasks.push({ id: `mix/${c0}`, kind: "mix", map: -1, c0, c1: Math.min(configs, c0 + chunk) });
  }
  return tasks;
}

function runRefitTask(ctx: RefitContext, task: RefitTask): FitResult | MixResult {
  const plan = ctx.plan;
  if (task.kind === "mix") {
    if (!plan.mixtures || !ctx.runs) throw new Error(`internal: mixture task ${task.id} without runs`);
    return fitMixtureChunk(ctx.runs, plan.mixtures, task.c0, task.c1);
  }
  // A guarded method (lsp) is fitted on the raw scales where the transforms were automatic.
  const { map, response } = guardedScales(mapView(ctx.maps, task.map), plan.response, plan.scaleGuards?.[task.method]);
  try {
    const X = matrix(map.X, map.rows, map.cols);
    const options = { ...(plan.methodOptions?.[task.method] ?? {}), inputs: mapInputScaling(map.meta.normalization), response };
    const model = createPredictor(task.method, options).fit(X, map.y, map.yVar);
    const conformal =
      plan.conformalFolds === undefined
        ? {}
        : plan.conformalGroups
          ? {
              conformal: calibrateForGroups(task.method, options, X, map.y, map.meta.inputNames, plan.conformalGroups, plan.conformalFolds, 0, map.yVar, model),
            }
          : { conformal: calibrate(task.method, options, X, map.y, plan.conformalFolds, 0, map.yVar, model) };
    // A model that predicts a negative sd at the very configurations it was fitted to will do so elsewhere too.
    if (response === "linear" && isNonNegativeStat(plan.stat)) {
      const p = model.predict(X);
      let negative = 0;
      for (let i = 0; i < p.length; i++) if (p[i] < 0) negative++;
      return { model: model.toJSON(), negative, ...conformal };
    }
    return { model: model.toJSON(), ...conformal };
  } catch (e) {
    if (isVarmapError(e)) return { error: e.code, message: e.message };
    throw e;
  }
}

export const REFIT_FILES = ["models.json", "summary.csv", "summary.md"];

export const job: JobDefinition<RefitPlan, RefitTask, RefitContext> = {
  verb: "refit",
  module: import.meta.url,
  tasks: refitTasks,
  run: runRefitTask,
  files(plan) {
    return plan.mixtures ? [...REFIT_FILES, "distributions.csv"] : REFIT_FILES;
  },
  write(plan, results, dir) {
    const models: unknown[] = [];
    const rows: (string | number)[][] = [];
    let failed = 0;
    const negative: Record<string, { maps: number; predictions: number }> = {};
    const mix = plan.mixtures ? writeDistributions(plan, results, dir) : undefined;
    for (const t of refitTasks(plan)) {
      if (t.kind !== "fit") continue;
      const r = results.get(t.id) as FitResult;
      const map = plan.maps[t.map];
      const key = Object.fromEntries(plan.factors.map((f, i) => [f, map.values[i]]));
      if ("model" in r)
        models.push({ key, method: t.method, rows: map.rows, inputs: map.inputs, model: r.model, ...(r.conformal ? { conformal: r.conformal } : {}) });
      else failed++;
      if ("model" in r && r.negative) {
        const n = (negative[t.method] ??= { maps: 0, predictions: 0 });
        n.maps++;
        n.predictions += r.negative;
      }
      rows.push([...map.values, t.method, map.rows, "model" in r ? "ok" : r.error, "model" in r ? "" : r.message]);
    }
    writeFileAtomic(
      join(dir, "models.json"),
      JSON.stringify({
        format: "varmap-models",
        version: 1,
        factors: plan.factors,
        inputs: [...new Set(plan.maps.flatMap((m) => m.inputs))],
        response: plan.response,
        ...(plan.stat ? { stat: plan.stat } : {}),
        models,
      }) + "\n",
    );
    writeFileAtomic(join(dir, "summary.csv"), csvText([...plan.factors, "method", "rows", "status", "message"], rows));
    const byMethod = plan.methods.map((m) => {
      const mine = rows.filter((r) => r[plan.factors.length] === m);
      return `| ${m} | ${mine.filter((r) => r[plan.factors.length + 2] === "ok").length} | ${mine.filter((r) => r[plan.factors.length + 2] !== "ok").length} |`;
    });
    const warningLines = [
      ...Object.entries(negative).map(
        ([m, n]) =>
          `${m} predicts a negative ${plan.stat} at ${n.predictions} of its own training configurations in ${n.maps} map(s): \`varmap predict\` clamps such values to 0 and flags them (column clamped); consider --log-response or another method`,
      ),
      ...(mix ? flagAdvice(mix.flags) : []),
    ];
    const md = [
      "# Refit summary",
      "",
      `${plan.maps.length} map(s) × ${plan.methods.length} method(s); response scale ${plan.response}. Models in models.json, one row per fit in summary.csv.`,
      "",
      "| method | fitted | failed |",
      "|---|---:|---:|",
      ...byMethod,
      "",
      ...(mix ? mix.markdown : []),
      "## Warnings",
      "",
      ...(warningLines.length ? warningLines.map((l) => `- ${l}`) : ["- none"]),
      "",
    ].join("\n");
    writeFileAtomic(join(dir, "summary.md"), md);
    return {
      maps: plan.maps.length,
      methods: plan.methods,
      models: models.length,
      failed,
      ...(mix ? { distributions: mix.counts, mixtureFlags: mix.flags } : {}),
      negativeInSample: negative,
      warningLines,
    };
  },
};

/** distributions.csv: each configuration's BIC-best mixture (among guard-eligible fits with --guard on/strict); returns the best-family × best-k counts (seed 001 Tables 4–5). */
function writeDistributions(
  plan: RefitPlan,
  results: ReadonlyMap<string, unknown>,
  dir: string,
): { counts: Record<string, number[]>; markdown: string[]; flags: MixtureFlagCounts } {
  const m = plan.mixtures!;
  const rows: (string | number)[][] = [];
  const counts: Record<string, number[]> = Object.fromEntries(m.families.map((f) => [f, new Array(m.kmax).fill(0)]));
  let none = 0;
  const chosen: ChosenFit[] = [];
  for (const t of refitTasks(plan)) {
    if (t.kind !== "mix") continue;
    for (const c of (results.get(t.id) as MixResult).configs) {
      const b = c.best;
      if (!b) none++;
      else counts[b.family][b.k - 1]++;
      const fit = b ? { k: b.k, n: c.n, floorBound: b.floorBound, w: b.params.w ?? [] } : undefined;
      if (fit) chosen.push(fit);
      const flags = fit ? mixtureFlags(fit, m.kmax) : undefined;
      rows.push([
        ...c.key,
        c.n,
        b?.family ?? "",
        b?.k ?? "",
        b?.loglik ?? NaN,
        b?.bic ?? NaN,
        b?.iterations ?? "",
        b ? String(b.converged) : "",
        b ? String(b.floorBound) : "",
        b ? JSON.stringify(b.params) : "",
        flags ? String(flags.kAtMax) : "",
        flags ? String(flags.singleRun) : "",
        // the parameters as typed columns (issue 44 item 4): a_name, b_name, w1..wK, a1..aK, b1..bK
        ...(paramNameColumns([b?.family ?? null]).map((c) => c.values[0] ?? "") as string[]),
        ...flatParamValues(b ? { family: b.family, params: b.params } : null, m.kmax).map((x) => x ?? ""),
      ]);
    }
  }
  writeFileAtomic(
    join(dir, "distributions.csv"),
    csvText(
      [
        ...m.columns,
        "n",
        "family",
        "k",
        "loglik",
        "bic",
        "iterations",
        "converged",
        "floor_bound",
        "params",
        "k_at_max",
        "single_run",
        "a_name",
        "b_name",
        ...flatParamNames(m.kmax),
      ],
      rows,
    ),
  );
  const flags = countFlags(chosen, m.kmax);
  const markdown = [
    `## Run distributions`,
    ``,
    `${m.configs} configuration(s), families ${m.families.join(", ")} with k = 1..${m.kmax}${m.priorStrength ? `, MAP EM (prior strength ${m.priorStrength})` : ""}; the BIC-best model of each${m.guard && m.guard !== "off" ? ` among the fits the degeneracy guard (${m.guard}) allows` : ""} in distributions.csv.${none ? ` ${none} configuration(s) had no finite fit.` : ""}`,
    ``,
    `| best family | ${Array.from({ length: m.kmax }, (_, i) => `k=${i + 1}`).join(" | ")} | total |`,
    `|---|${Array.from({ length: m.kmax + 1 }, () => "---:").join("|")}|`,
    ...m.families.map((f) => `| ${f} | ${counts[f].join(" | ")} | ${counts[f].reduce((a, b) => a + b, 0)} |`),
    ``,
    `Flags on the chosen mixtures (columns floor_bound, k_at_max, single_run of distributions.csv): k_at_max ${flags.kAtMax}, floor_bound ${flags.floorBound}, single-run component ${flags.singleRun} of ${flags.configurations}; advice under Warnings.`,
    ``,
  ];
  return { counts, markdown, flags };
}
