// The what-if pipelines (spec D.2): rank candidates with fitted models; validate a ranking against measured
// configurations (--validate); the held-out draw of --holdout (whose fits run as a job: ts/jobs/whatif.ts).
import { VarmapError } from "../errors.js";
import { loadDataset, type LoadOptions } from "../data/load.js";
import { counterRng } from "../data/random.js";
import type { MapGroups } from "../cv/groups.js";
import { QUANTILE_NAMES, type ConfigStats, type QuantileName } from "../data/types.js";
import { mapKey } from "../predict/models-file.js";
import { candidatesFromRows, groupByMap, predictCandidates, readRows, type Candidates, type Predicted } from "./candidates.js";
import type { ModelSet } from "./models.js";
import { evaluate, type CandidateStats, type EvaluateOptions, type Evaluation, type SpreadKind } from "./objective.js";
import type { CandidateSpace } from "./report.js";
import type { RunsNeededTable } from "./runs.js";
import { validateMap, type ValidationMetrics } from "./validate.js";

export interface Ranked {
  candidates: Candidates;
  predicted: Predicted;
  evaluation: Evaluation;
}

/** Predicts and ranks candidates. */
export function rankCandidates(set: ModelSet, candidates: Candidates, opts: EvaluateOptions, runsTable?: RunsNeededTable): Ranked {
  const predicted = predictCandidates(set, candidates);
  return { candidates, predicted, evaluation: evaluate(predicted, opts, runsTable) };
}

/** The expected ARE of every candidate from a per-map table (NaN where the map has none). */
export function expectedAreOf(set: ModelSet, c: Candidates, perMap: Map<string, number>): Float64Array {
  const byMap = set.maps.map((m) => perMap.get(mapKey(set.factors, m.key)) ?? NaN);
  return Float64Array.from(c.map, (mi) => byMap[mi]);
}

export interface ValidationRow extends ValidationMetrics {
  map: string;
  method: string;
  objective: string;
}

/** "host_sched=CFQ;vm_sched=NOOP;mode=fread" (no commas, so the CSV cell needs no quotes). */
export function mapLabel(key: Record<string, string>): string {
  const parts = Object.entries(key).map(([k, v]) => `${k}=${v}`);
  return parts.length ? parts.join(";") : "(all)";
}

/** Validation metrics per map of a ranking against the truth (same candidates). */
export function validationRows(
  set: CandidateSpace,
  ranked: Ranked,
  truth: CandidateStats,
  opts: EvaluateOptions,
  method: string,
  runsTable?: RunsNeededTable,
): ValidationRow[] {
  // The truth's runs come from its measured cv, never from a runs model.
  const truthEval = evaluate({ mean: truth.mean, spread: truth.spread }, opts, runsTable);
  const objective = `${opts.objective.direction}-${opts.objective.name}`;
  const rows: ValidationRow[] = [];
  groupByMap(ranked.candidates, set.maps.length).forEach((members, mi) => {
    if (members.length === 0) return;
    rows.push({ map: mapLabel(set.maps[mi].key), method, objective, ...validateMap(ranked.evaluation, truthEval, members, opts.objective, opts.pareto) });
  });
  return rows;
}

/** The measured spread statistic of configurations, as the spread model predicts it. */
export function spreadOfStats(stats: ConfigStats, kind: SpreadKind, where: string): Float64Array {
  if (kind === "sd") return stats.sd;
  if (kind === "var") return stats.var;
  if (kind === "cv") return Float64Array.from(stats.sd, (s, i) => s / stats.mean[i]);
  if ((QUANTILE_NAMES as readonly string[]).includes(kind)) return stats.quantiles[kind as QuantileName];
  throw new VarmapError("E_USAGE", `the runs give no ${kind} to validate against`, {
    location: { file: where },
    remedy: `use spread models of sd, var or ${QUANTILE_NAMES.join(", ")}`,
  });
}

/**
 * Measured truth from `--validate FILE`: with `map`, a table with one row per configuration holding the models'
 * factor and input columns plus `mean` and the spread statistic's column (e.g. `sd`); otherwise a runs table read
 * with the data flags, whose configurations' mean and spread are computed from the runs.
 */
export async function readTruth(set: ModelSet, path: string, load: LoadOptions): Promise<{ candidates: Candidates; truth: CandidateStats }> {
  if (load.map) {
    const rows = await readRows(path);
    const cols = rows.length ? new Set(Object.keys(rows[0])) : new Set<string>();
    const spreadCol = set.spreadKind === "cv" && !cols.has("cv") ? "sd" : set.spreadKind;
    for (const c of ["mean", spreadCol])
      if (!cols.has(c))
        throw new VarmapError("E_COLUMN", `column '${c}' is missing`, {
          location: { file: path, column: c },
          remedy: `give the measured mean and ${set.spreadKind} of every configuration`,
        });
    const candidates = candidatesFromRows(set, rows, path);
    const num = (c: string) =>
      Float64Array.from(rows, (r, i) => {
        const v = r[c] === null || r[c] === "" ? NaN : Number(r[c]);
        if (!Number.isFinite(v))
          throw new VarmapError("E_NONFINITE", `'${c}' is not a finite number`, {
            location: { file: path, row: i + 2, column: c },
            remedy: "give measured values for every configuration",
          });
        return v;
      });
    const mean = num("mean");
    let spread = num(spreadCol);
    if (spreadCol !== set.spreadKind) spread = spread.map((s, i) => s / mean[i]);
    return { candidates, truth: { mean, spread } };
  }
  const data = await loadDataset(path, { ...load, stat: "sd" });
  const t = data.table;
  const missing = [...set.factors, ...set.inputs].find((c) => !t.roles.factors.includes(c) && !t.roles.inputs.includes(c));
  if (missing)
    throw new VarmapError("E_COLUMN", `the runs have no factor or input column '${missing}'`, {
      location: { file: path, column: missing },
      remedy: "use the data flags the models were fitted with",
    });
  const cols = set.inputs.map((c) => t.roles.inputs.indexOf(c));
  const fcols = set.factors.map((f) => t.roles.factors.indexOf(f));
  const rows: Record<string, unknown>[] = [];
  for (let c = 0; c < t.count; c++) {
    const r: Record<string, unknown> = {};
    set.factors.forEach((f, k) => (r[f] = t.factorValues[fcols[k]][c]));
    set.inputs.forEach((x, j) => (r[x] = t.inputs[c * t.roles.inputs.length + cols[j]]));
    rows.push(r);
  }
  const candidates = candidatesFromRows(set, rows, path);
  return { candidates, truth: { mean: data.stats.mean, spread: spreadOfStats(data.stats, set.spreadKind, path) } };
}

/**
 * The held-out rows of a map: a uniformly random subset of round(p·rows) rows (at least 1), drawn from the stream
 * counterRng(seed, "whatif-holdout", mapId) (mapId: the map's factor values as a JSON array), so it depends on
 * nothing but the seed and the map.
 */
export function holdoutRows(rows: number, fraction: number, seed: string, mapId: string): { train: Int32Array; test: Int32Array } {
  const k = Math.min(rows - 1, Math.max(1, Math.round(fraction * rows)));
  const perm = Int32Array.from({ length: rows }, (_, i) => i);
  const rng = counterRng(seed, "whatif-holdout", mapId);
  for (let i = 0; i < k; i++) {
    const j = i + rng.int(rows - i);
    const t = perm[i];
    perm[i] = perm[j];
    perm[j] = t;
  }
  const test = perm.slice(0, k).sort();
  const inTest = new Uint8Array(rows);
  for (const i of test) inTest[i] = 1;
  const train = Int32Array.from({ length: rows - k }, () => 0);
  for (let i = 0, t = 0; i < rows; i++) if (!inTest[i]) train[t++] = i;
  return { train, test };
}

/**
 * --holdout p --leave-out COLS (issue 41): hold out whole groups (combinations of COLS' levels), round(p × groups)
 * of them (at least 1, at most all but one), drawn from counterRng(seed, "whatif-holdout-groups", map). Returns the
 * held-out groups' indices (ascending) and the rows.
 */
export function groupHoldoutRows(g: MapGroups, fraction: number, seed: string, mapId: string): { groups: number[]; train: Int32Array; test: Int32Array } {
  const G = g.labels.length;
  const k = Math.min(G - 1, Math.max(1, Math.round(fraction * G)));
  const perm = Array.from({ length: G }, (_, i) => i);
  const rng = counterRng(seed, "whatif-holdout-groups", mapId);
  for (let i = 0; i < k; i++) {
    const j = i + rng.int(G - i);
    [perm[i], perm[j]] = [perm[j], perm[i]];
  }
  const out = new Uint8Array(G);
  for (const i of perm.slice(0, k)) out[i] = 1;
  const train: number[] = [],
    test: number[] = [];
  for (let r = 0; r < g.of.length; r++) (out[g.of[r]] ? test : train).push(r);
  return { groups: perm.slice(0, k).sort((a, b) => a - b), train: Int32Array.from(train), test: Int32Array.from(test) };
}

/** Counts and the best candidate of a ranking, for --json and the notes. */
export function summaryOf(r: Ranked): Record<string, unknown> {
  const e = r.evaluation;
  let ranked = 0;
  let invalid = 0;
  let extrapolated = 0;
  let front = 0;
  let best = -1;
  for (let i = 0; i < e.rank.length; i++) {
    if (e.rank[i] > 0) ranked++;
    if (e.rank[i] === 1) best = i;
    if (e.invalid[i]) invalid++;
    if (r.predicted.extrapolated[i]) extrapolated++;
    if (e.front[i] === 1) front++;
  }
  const c = r.candidates;
  const d = c.count ? c.inputs.length / c.count : 0;
  return {
    candidates: e.rank.length,
    ranked,
    invalid_prediction: invalid,
    infeasible: e.rank.length - ranked - invalid,
    extrapolated,
    pareto_front: front,
    best:
      best < 0
        ? null
        : {
            index: best,
            map: c.factorValues.map((v) => v[best]),
            inputs: Array.from(c.inputs.subarray(best * d, (best + 1) * d)),
            pred_mean: e.mean[best],
            pred_sd: e.sd[best],
            pred_cv: e.cv[best],
            runs_needed: e.runs[best],
            cost: e.cost[best],
          },
  };
}
