// One configuration's answer to "how many runs?" (spec A.2.4–A.2.6, A.4): the chosen mixture's quantile SEs
// (delta method, order statistic or bootstrap), Γ_q(1), Γ_q(n), runs needed per level and threshold, and the
// runs needed for the mean, sd and variance (A.2.5). Shared by `varmap samplesize` and its job.
import { VarmapError } from "../errors.js";
import { quantile7 } from "../data/stats.js";
import { FAMILIES, FAMILY_NAMES, type FamilyName } from "./families.js";
import { Mixture } from "./model.js";
import { meanRunsNeededCI, sdRunsNeeded, varRunsNeeded } from "./runs-needed.js";
import {
  bootstrapQuantileSE,
  deltaQuantileSE,
  gammaQ,
  kdeDensity,
  mixtureMean,
  mixtureKurtosis,
  orderStatisticSE1,
  parameterCount,
  quantileRunsNeeded,
  scaleMixture,
  type CenterKind,
  type InformationKind,
} from "./samplesize.js";

export type SampleSizeMethod = "delta" | "order-statistic" | "bootstrap";
/** `best`, `best-unfloored` or a named fit `FAMILY:K`. */
export type ModelChoice = { kind: "best" } | { kind: "best-unfloored" } | { kind: "named"; family: FamilyName; k: number };

export interface SampleSizeOptions {
  qs: number[];
  taus: number[];
  method: SampleSizeMethod;
  information: InformationKind;
  center: CenterKind;
  density: "model" | "kde";
  reps: number;
  seed: number;
  /** Moment statistics to add: any of mean, sd, var (q is always computed). */
  stats: string[];
  precision: number;
  level: number;
  model: ModelChoice;
  /** Kurtosis for the sd and var run counts: from the runs (default) or the fitted mixture. */
  moments?: "sample" | "model";
}

/** A candidate fit of one configuration (a row of `varmap mixture --out` or refit's distributions.csv). */
export interface CandidateFit {
  family: FamilyName;
  k: number;
  bic: number;
  floorBound: boolean;
  /** Marked best by the fitter (BIC over all fits). */
  best: boolean;
  mixture: Mixture;
}

export interface QuantileAnswer {
  q: number;
  xq: number;
  se1: number;
  gamma1: number;
  gammaN: number;
  /** Runs needed per threshold (same order as taus). */
  needed: number[];
}

export interface SampleSizeRow {
  n: number;
  family: string;
  k: number;
  floorBound: boolean;
  fallback: boolean;
  center: number;
  quantiles: QuantileAnswer[];
  /** Max over q per threshold. */
  needed: number[];
  cv: number;
  kurtosis: number;
  neededMean: number;
  neededSd: number;
  neededVar: number;
  singularInformation: boolean;
  quadratureInexact: boolean;
  xqAtCenter: boolean;
  tooFewRuns: boolean;
  /** A runs-needed value below the model's parameter count (3k − 1; 2 without a model) was raised to it. */
  floored: boolean;
  /** Why runs-needed values are empty or raised ("" when every value is an estimate). */
  note: string;
}

/**
 * The fewest runs a runs-needed answer may be: a k-component mixture has 3k − 1 free parameters and cannot be
 * refitted (nor its quantile SEs re-estimated) from fewer runs; without a model (order-statistic fallback) a
 * quantile and its spread need 2. The delta method is asymptotic: its n* below this is outside its validity.
 */
export function runsFloor(k: number | undefined): number {
  return k !== undefined && k >= 1 ? parameterCount(k) : 2;
}

/** Picks the fit the options ask for; undefined when none qualifies (→ order-statistic fallback). */
export function chooseFit(fits: readonly CandidateFit[], choice: ModelChoice): CandidateFit | undefined {
  const finite = fits.filter((f) => Number.isFinite(f.bic));
  const minBic = (list: CandidateFit[]) => list.reduce<CandidateFit | undefined>((b, f) => (!b || f.bic < b.bic ? f : b), undefined);
  if (choice.kind === "named") return finite.find((f) => f.family === choice.family && f.k === choice.k);
  if (choice.kind === "best") return finite.find((f) => f.best) ?? minBic(finite);
  return minBic(finite.filter((f) => !f.floorBound));
}

/** Parses --model: best, best-unfloored or FAMILY:K. */
export function parseModelChoice(spec: string | undefined): ModelChoice {
  const s = (spec ?? "best-unfloored").trim().toLowerCase();
  if (s === "best") return { kind: "best" };
  if (s === "best-unfloored") return { kind: "best-unfloored" };
  const m = /^([a-zé]+):(\d+)$/.exec(s);
  const fam = m?.[1].replace("é", "e") as FamilyName | undefined;
  if (m && fam && FAMILY_NAMES.includes(fam) && Number(m[2]) >= 1 && Number(m[2]) <= 16) return { kind: "named", family: fam, k: Number(m[2]) };
  throw new VarmapError("E_USAGE", `--model '${spec}' is not best, best-unfloored or FAMILY:K`, {
    remedy: `use best-unfloored (default), best, or e.g. normal:2 (families ${FAMILY_NAMES.join(", ")})`,
  });
}

/** Mixture parameters from a fits table's `params` JSON ({w, <a name>, <b name>}). */
export function mixtureFromParams(family: FamilyName, params: Record<string, number[]>): Mixture {
  const [an, bn] = FAMILIES[family].paramNames;
  for (const name of ["w", an, bn])
    if (!Array.isArray(params?.[name]) || !params[name].every((v) => typeof v === "number"))
      throw new Error(`'${name}' is missing or not an array of numbers (a null is not read as 0)`);
  return new Mixture(family, params.w, params[an], params[bn]);
}

/** Sample CV and non-excess kurtosis (type-1 moments). */
function moments(runs: ArrayLike<number>): { mean: number; cv: number; kurtosis: number } {
  const n = runs.length;
  let mean = 0;
  for (let i = 0; i < n; i++) mean += runs[i];
  mean /= n;
  let m2 = 0,
    m4 = 0;
  for (let i = 0; i < n; i++) {
    const d = runs[i] - mean;
    m2 += d * d;
    m4 += d * d * d * d;
  }
  const sd = n > 1 ? Math.sqrt(m2 / (n - 1)) : NaN;
  return { mean, cv: sd / mean, kurtosis: m2 > 0 ? m4 / n / (m2 / n) ** 2 : NaN };
}

/**
 * The row for one configuration: `runs` are the runs the fit used (all, or the pilot), `nAll` the configuration's
 * run count (Γ_q(n) is reported there), `fit` the chosen model (undefined: fallback to the order statistic).
 */
export function sampleSizeRow(
  runs: Float64Array,
  nAll: number,
  fit: CandidateFit | undefined,
  opts: SampleSizeOptions,
  configId: number | string,
): SampleSizeRow {
  const qs = opts.qs,
    taus = opts.taus;
  const mom = moments(runs);
  const fallback = fit === undefined;
  const method: SampleSizeMethod = fallback ? "order-statistic" : opts.method;
  const m = fit?.mixture;
  let center = 0,
    singular = false,
    inexact = false;
  let xs: number[], se1s: number[];
  if (method === "delta" && m) {
    // Computed on the /mean scale for conditioning (spec A.2.1); x_q, se1 and c scale back, Γ is unchanged.
    const s = mom.mean > 0 && Number.isFinite(mom.mean) ? mom.mean : 1;
    const r = deltaQuantileSE(scaleMixture(m, s), qs, { information: opts.information, data: runs.map((v) => v / s), center: opts.center });
    center = r.center * s;
    singular = r.singular;
    inexact = r.inexact;
    xs = r.quantiles.map((x) => x.xq * s);
    se1s = r.quantiles.map((x) => x.se1 * s);
  } else if (method === "bootstrap" && m) {
    xs = qs.map((q) => m.quantile(q));
    se1s = bootstrapQuantileSE(m, qs, nAll, opts.reps, opts.seed, configId).map((se) => se * Math.sqrt(nAll));
    center = opts.center === "mean" ? mixtureMean(m) : 0;
  } else {
    // order statistic: density from the model, or a KDE (also the fallback when no usable model exists)
    const sorted = Float64Array.from(runs).sort();
    const useKde = fallback || opts.density === "kde";
    const dens = useKde ? kdeDensity(runs) : (x: number) => m!.pdf(x);
    xs = qs.map((q) => (m && !fallback ? m.quantile(q) : quantile7(sorted, q)));
    se1s = qs.map((q, i) => orderStatisticSE1(q, dens(xs[i])));
    center = opts.center === "mean" ? (m && !fallback ? mixtureMean(m) : mom.mean) : 0;
  }
  const tooFew = fit !== undefined && runs.length < parameterCount(fit.k);
  let atCenter = false;
  const quantiles: QuantileAnswer[] = qs.map((q, i) => {
    const xq = xs[i],
      se1 = singular ? NaN : se1s[i];
    if (xq - center === 0) atCenter = true;
    const needed = taus.map((t) => (tooFew ? NaN : quantileRunsNeeded(se1, xq, center, t)));
    return { q, xq, se1, gamma1: gammaQ(se1, xq, center, 1), gammaN: gammaQ(se1, xq, center, nAll), needed };
  });
  // The floor: no answer below what can refit the chosen model (flagged: the delta method's n* there is outside
  // its validity, e.g. n* = 1 for a narrow configuration under --center none).
  const floor = runsFloor(fit?.k);
  let floored = false;
  for (const x of quantiles)
    x.needed = x.needed.map((v) => {
      if (Number.isFinite(v) && v < floor) {
        floored = true;
        return floor;
      }
      return v;
    });
  const needed = taus.map((_, t) => {
    const v = quantiles.map((x) => x.needed[t]);
    return v.some((x) => Number.isNaN(x)) ? NaN : Math.max(...v);
  });
  const notes: string[] = [];
  if (fallback) notes.push("no usable mixture fit for this configuration (none in --fits, or none qualifies for --model): order statistic of the runs");
  if (tooFew)
    notes.push(`${runs.length} runs fitted, fewer than the ${parameterCount(fit!.k)} parameters of ${fit!.family}:${fit!.k}: runs needed not computed`);
  if (singular) notes.push("singular Fisher information: quantile SEs undefined (choose a smaller model with --model FAMILY:K)");
  if (atCenter) notes.push("a quantile equals the center (--center mean): Γ undefined there");
  if (!tooFew && !singular && !atCenter && quantiles.some((x) => x.needed.some((v) => !Number.isFinite(v))))
    notes.push("a quantile SE is not finite (zero density at the quantile or a degenerate fit): runs needed not computed");
  if (floored)
    notes.push(
      `runs needed raised to ${floor}, the fewest that can refit ${fallback ? "a quantile and its spread" : `${fit!.family}:${fit!.k} (3k − 1 parameters)`}`,
    );
  const wants = (s: string) => opts.stats.includes(s);
  const kurtosis = opts.moments === "model" && m && !fallback ? mixtureKurtosis(scaleMixture(m, mom.mean > 0 ? mom.mean : 1)) : mom.kurtosis;
  return {
    n: nAll,
    family: fit?.family ?? "",
    k: fit?.k ?? 0,
    floorBound: fit?.floorBound ?? false,
    fallback,
    center,
    quantiles,
    needed,
    cv: mom.cv,
    kurtosis,
    neededMean: wants("mean") ? meanRunsNeededCI(Math.abs(mom.cv), opts.precision, opts.level) : NaN,
    neededSd: wants("sd") && Number.isFinite(kurtosis) ? sdRunsNeeded(opts.precision, kurtosis) : NaN,
    neededVar: wants("var") && Number.isFinite(kurtosis) ? varRunsNeeded(opts.precision, kurtosis) : NaN,
    singularInformation: singular,
    quadratureInexact: inexact,
    xqAtCenter: atCenter,
    tooFewRuns: tooFew,
    floored,
    note: notes.join("; "),
  };
}

/** A level or threshold written with its shortest decimal, as in the column names (gamma1_q0.1). */
export function levelName(v: number): string {
  return String(v);
}
