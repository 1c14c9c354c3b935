// Selection by criterion with the degeneracy guard, and validation on held-back runs (issue 17).
// Every fit is batched: one fitMixtures call per family per fold over all configurations (offsets), run on the
// job engine's thread pool by fitMixturesParallel (chunks of configurations, keyed by their global ids).
import { fitMixturesParallel } from "./mixture.js";
import { heldOutSums } from "./mixture-cv.js";
import type { MixtureFitOptions, MixtureFitResult, MixtureFitRow } from "../mixture/fit.js";
import {
  GUARD_OFF,
  foldBatch,
  guardVerdict,
  informationCriterion,
  runFolds,
  runSpread,
  type Criterion,
  type GuardOptions,
  type GuardVerdict,
  type SplitScheme,
} from "../mixture/select.js";

export interface SelectOptions {
  criterion: Criterion;
  guard: GuardOptions;
  /** K of the cv criterion. */
  folds: number;
  seed: number;
  workers: number;
  fit: Omit<MixtureFitOptions, "configIds" | "backend">;
}

/** Per row of the fit: criterion score (lower is better) and guard verdict; per configuration: chosen row. */
export interface Selection {
  score: Float64Array;
  verdict: GuardVerdict[];
  /** Index into fit.rows of each configuration's chosen model. */
  chosen: Int32Array;
  /** Configurations whose best-scoring model was ineligible under the guard (the guard changed the choice). */
  guardBinds: number;
  /** Rows ineligible under the guard. */
  ineligible: number;
}

const perConfigRows = (fit: MixtureFitResult, nconf: number) => fit.rows.length / Math.max(nconf, 1);

/**
 * Negative mean held-back log-likelihood per run over K folds, per row of `fit` (same row order). The K fold fits run
 * as one job over chunks of configurations (ts/jobs/mixture-cv.ts: one worker pool, scoring in the workers).
 */
export async function cvScores(runs: Float64Array, offsets: Int32Array, configIds: Int32Array, o: SelectOptions): Promise<Float64Array> {
  return cvScoresOf(await heldOutSums(runs, offsets, configIds, o), offsets);
}

/** The cv scores from the held-back log-likelihood sums (in place). */
export function cvScoresOf(out: Float64Array, offsets: Int32Array): Float64Array {
  const nconf = offsets.length - 1;
  for (let i = 0; i < out.length; i++) {
    const n = fitN(offsets, i, out.length / nconf);
    out[i] = Number.isNaN(out[i]) ? Infinity : -out[i] / n;
  }
  return out;
}
const fitN = (offsets: Int32Array, row: number, per: number) => {
  const c = Math.floor(row / per);
  return offsets[c + 1] - offsets[c];
};

/** Chooses each configuration's model of `fit` (fitted to runs/offsets) by the criterion among guard-eligible ones. */
export async function selectModels(
  runs: Float64Array,
  offsets: Int32Array,
  configIds: Int32Array,
  fit: MixtureFitResult,
  o: SelectOptions,
  cvPrecomputed?: Float64Array,
): Promise<Selection> {
  const cv = o.criterion === "cv" ? (cvPrecomputed ?? (await cvScores(runs, offsets, configIds, o))) : undefined;
  return selectWith(runs, offsets, fit, o, cv);
}

/** selectModels with the cv scores (criterion cv) already computed: synchronous, for a job's task. */
export function selectWith(
  runs: Float64Array,
  offsets: Int32Array,
  fit: MixtureFitResult,
  o: Pick<SelectOptions, "criterion" | "guard">,
  cv?: Float64Array,
): Selection {
  const nconf = offsets.length - 1;
  const per = perConfigRows(fit, nconf);
  const score = new Float64Array(fit.rows.length);
  const verdict: GuardVerdict[] = [];
  const chosen = new Int32Array(nconf).fill(-1);
  let guardBinds = 0,
    ineligible = 0;
  for (let c = 0; c < nconf; c++) {
    const x = runs.subarray(offsets[c], offsets[c + 1]);
    const spread = runSpread(x);
    let best = -1,
      bestAny = -1;
    for (let i = c * per; i < (c + 1) * per; i++) {
      const r = fit.rows[i];
      score[i] = cv ? cv[i] : informationCriterion(r, o.criterion as Exclude<Criterion, "cv">, x);
      if (!Number.isFinite(r.loglik)) score[i] = Infinity;
      verdict[i] = guardVerdict(r.mixture, spread, o.guard);
      if (verdict[i] !== "ok") ineligible++;
      if (!Number.isFinite(score[i])) continue;
      if (bestAny < 0 || score[i] < score[bestAny]) bestAny = i;
      if (verdict[i] === "ok" && (best < 0 || score[i] < score[best])) best = i;
    }
    if (best < 0) best = bestAny;
    if (best !== bestAny) guardBinds++;
    chosen[c] = best;
  }
  return { score, verdict, chosen, guardBinds, ineligible };
}

/** One selection rule being validated: a criterion with a guard setting, or the best k = 1 family by training log L. */
export interface Arm {
  name: string;
  criterion: Criterion | "single";
  guard: GuardOptions;
}

export interface ConfigValidation {
  n: number;
  /** Held-back log-likelihood per run (every run held back once) of each arm, then the single normal and lognormal. */
  heldOut: Record<string, number>;
  /** Training log-likelihood per training run, averaged over folds, per arm. */
  trainPerRun: Record<string, number>;
  /** The chosen model in each fold, per arm ("family:k"). */
  chosen: Record<string, string[]>;
}

export interface ValidationResult {
  split: SplitScheme;
  folds: number;
  arms: string[];
  configs: ConfigValidation[];
  /** Per arm: configurations where the guard changed the choice, summed over folds; ineligible fits. */
  guardBinds: Record<string, number>;
  ineligible: Record<string, number>;
  seconds: number;
}

export interface ArmSummary {
  arm: string;
  meanHeldOutPerRun: number;
  /** Median over configurations (the mean is dominated by the few catastrophic ones). */
  medianHeldOutPerRun: number;
  catastrophic: number;
  /** Configurations where the arm beats both the single normal and the single lognormal on held-back runs. */
  beatsSingles: number;
  guardBinds: number;
}

/** Held-back per run more than 5 nats below the training value. */
export const CATASTROPHIC_NATS = 5;
export const isCatastrophic = (v: ConfigValidation, arm: string) => !(v.heldOut[arm] >= v.trainPerRun[arm] - CATASTROPHIC_NATS);

/**
 * Fits every configuration's training runs of each fold (fold ≠ f) and scores its held-back runs (fold = f) under
 * the model each arm chooses, plus the single normal and lognormal.
 */
export async function validateMixtures(
  runs: Float64Array,
  offsets: Int32Array,
  configIds: Int32Array,
  split: SplitScheme,
  folds: number,
  arms: Arm[],
  o: Omit<SelectOptions, "criterion" | "guard">,
): Promise<ValidationResult> {
  const t0 = performance.now();
  const nconf = offsets.length - 1;
  const K = split === "random" ? folds : 2;
  const assign = Array.from({ length: nconf }, (_, c) => runFolds(offsets[c + 1] - offsets[c], split, K, o.seed, configIds[c]));
  const names = [...arms.map((a) => a.name), "normal1", "lognormal1"];
  const configs: ConfigValidation[] = Array.from({ length: nconf }, (_, c) => ({
    n: offsets[c + 1] - offsets[c],
    heldOut: Object.fromEntries(names.map((a) => [a, 0])),
    trainPerRun: Object.fromEntries(names.map((a) => [a, 0])),
    chosen: Object.fromEntries(names.map((a) => [a, [] as string[]])),
  }));
  const guardBinds: Record<string, number> = Object.fromEntries(arms.map((a) => [a.name, 0]));
  const ineligible: Record<string, number> = Object.fromEntries(arms.map((a) => [a.name, 0]));
  for (let f = 0; f < K; f++) {
    const b = foldBatch(runs, offsets, assign, f);
    const fit = await fitMixturesParallel(b.train.runs, b.train.offsets, { ...o.fit, configIds, workers: o.workers });
    const per = perConfigRows(fit, nconf);
    // Criteria that share this fold's fits (cv adds its inner folds on the training runs).
    const picks = new Map<string, Int32Array>();
    const cv = arms.some((a) => a.criterion === "cv")
      ? await cvScores(b.train.runs, b.train.offsets, configIds, { ...o, criterion: "cv", guard: GUARD_OFF })
      : undefined;
    for (const a of arms) {
      if (a.criterion === "single") {
        picks.set(
          a.name,
          Int32Array.from({ length: nconf }, (_, c) => bestSingle(fit.rows, c * per, per)),
        );
        continue;
      }
      const s = await selectModels(b.train.runs, b.train.offsets, configIds, fit, { ...o, criterion: a.criterion, guard: a.guard }, cv);
      picks.set(a.name, s.chosen);
      guardBinds[a.name] += s.guardBinds;
      ineligible[a.name] += s.ineligible;
    }
    // The single normal and lognormal references, fitted apart (k = 1, maximum likelihood) when the family set lacks them.
    const fitted = new Set(fit.rows.slice(0, per).map((r) => r.family));
    const missing = (["normal", "lognormal"] as const).filter((f) => !fitted.has(f));
    const refs = missing.length
      ? await fitMixturesParallel(b.train.runs, b.train.offsets, {
          ...o.fit,
          families: [...missing],
          kmax: 1,
          priorStrength: undefined,
          configIds,
          workers: o.workers,
        })
      : undefined;
    const refRows = (c: number) => [...fit.rows.slice(c * per, (c + 1) * per), ...(refs ? refs.rows.slice(c * missing.length, (c + 1) * missing.length) : [])];
    const findK1 = (c: number, fam: string) => refRows(c).find((r) => r.family === fam && r.k === 1);
    for (let c = 0; c < nconf; c++) {
      const x = b.test.runs.subarray(b.test.offsets[c], b.test.offsets[c + 1]);
      const ntrain = b.train.offsets[c + 1] - b.train.offsets[c];
      const v = configs[c];
      const score = (name: string, i: number | MixtureFitRow | undefined) => {
        const r: MixtureFitRow | undefined = typeof i === "number" ? fit.rows[i] : i;
        v.heldOut[name] += r && Number.isFinite(r.loglik) ? r.mixture.loglik(x) : -Infinity;
        v.trainPerRun[name] += (r ? r.loglik : -Infinity) / ntrain / K;
        v.chosen[name].push(r ? `${r.family}:${r.k}` : "none");
      };
      for (const a of arms) score(a.name, picks.get(a.name)![c]);
      score("normal1", findK1(c, "normal"));
      score("lognormal1", findK1(c, "lognormal"));
    }
  }
  for (const v of configs) for (const a of names) v.heldOut[a] /= v.n;
  return { split, folds: K, arms: names, configs, guardBinds, ineligible, seconds: (performance.now() - t0) / 1000 };
}

function bestSingle(rows: MixtureFitRow[], i0: number, per: number): number {
  let best = -1;
  for (let i = i0; i < i0 + per; i++) if (rows[i].k === 1 && Number.isFinite(rows[i].loglik) && (best < 0 || rows[i].loglik > rows[best].loglik)) best = i;
  return best;
}

export function summarizeValidation(v: ValidationResult): ArmSummary[] {
  return v.arms.map((arm) => {
    let sum = 0,
      cat = 0,
      beats = 0;
    for (const c of v.configs) {
      sum += c.heldOut[arm];
      if (isCatastrophic(c, arm)) cat++;
      if (c.heldOut[arm] > c.heldOut.normal1 && c.heldOut[arm] > c.heldOut.lognormal1) beats++;
    }
    const sorted = v.configs.map((c) => c.heldOut[arm]).sort((a, b) => a - b);
    const m = sorted.length >> 1;
    const median = sorted.length === 0 ? NaN : sorted.length % 2 ? sorted[m] : 0.5 * (sorted[m - 1] + sorted[m]);
    return {
      arm,
      meanHeldOutPerRun: sum / Math.max(1, v.configs.length),
      medianHeldOutPerRun: median,
      catastrophic: cat,
      beatsSingles: beats,
      guardBinds: v.guardBinds[arm] ?? 0,
    };
  });
}

export function formatValidation(v: ValidationResult): string {
  const s = summarizeValidation(v);
  const head = ["rule", "mean held-back logL/run", "median", "catastrophic", "beats both singles", "guard binds"];
  const body = s.map((a) => [
    a.arm,
    a.meanHeldOutPerRun.toFixed(4),
    a.medianHeldOutPerRun.toFixed(4),
    String(a.catastrophic),
    String(a.beatsSingles),
    String(a.guardBinds),
  ]);
  const w = head.map((h, i) => Math.max(h.length, ...body.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((x, i) => (i === 0 ? x.padEnd(w[i]) : x.padStart(w[i]))).join("  ");
  return (
    `Validation on held-back runs: split ${v.split}, ${v.folds} folds, ${v.configs.length} configurations\n` + [line(head), ...body.map(line)].join("\n") + "\n"
  );
}
