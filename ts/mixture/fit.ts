// Fit every (family, k) mixture of every configuration in one kernel call per model (timed for seed 001 Table 3),
// and choose the best model of each configuration by BIC (seed 001 sec. 3.3).
import type { KernelBackend } from "../backend/kernel.js";
import { getBackend } from "../backend/index.js";
import { MIXTURE_KMAX, MIXTURE_STARTS, mixtureFit, type MixtureStarts } from "../backend/kernels/mixture.js";
import { VarmapError } from "../errors.js";
import { FAMILIES, FAMILY_NAMES, type FamilyName } from "./families.js";
import { Mixture } from "./model.js";

export interface MixtureFitOptions {
  families?: FamilyName[];
  kmax?: number;
  seed?: number;
  restarts?: number;
  maxIter?: number;
  tol?: number;
  /** Start strategy (see MixtureBatchInput.starts). */
  starts?: MixtureStarts;
  /** MAP EM: strength of the prior on component scales (see MixtureBatchInput.priorStrength); 0 = maximum likelihood. */
  priorStrength?: number;
  /** Stable ids of the configurations (random streams are keyed by them); default 0..count-1. */
  configIds?: Int32Array;
  backend?: KernelBackend;
}

export interface MixtureFitRow {
  config: number;
  family: FamilyName;
  k: number;
  n: number;
  loglik: number;
  bic: number;
  iterations: number;
  converged: boolean;
  /** The tie floor binds in at least one component. */
  floorBound: boolean;
  /** Original scale: {w, <a name>, <b name>} per family. */
  params: Record<string, number[]>;
  /** true on the configuration's BIC winner over all fitted models. */
  best: boolean;
  mixture: Mixture;
}

export interface MixtureFitResult {
  rows: MixtureFitRow[];
  /** Seconds per fit, mean over configurations, per family and k (the family's call time apportioned by work). */
  secondsPerFit: Map<string, number>;
  /** Per configuration: smallest gap between distinct runs (original units) and between distinct log runs. */
  resolution: Float64Array;
}

/** The --families flag: "all" (the default) or a comma-separated list of distinct families. */
export function parseFamilies(spec: string | undefined): FamilyName[] {
  if (spec === undefined || spec === "all") return [...FAMILY_NAMES];
  const remedy = `use all or a comma-separated list of ${FAMILY_NAMES.join(", ")}`;
  if (spec.trim() === "") throw new VarmapError("E_USAGE", "--families is empty", { remedy: `${remedy} (or --no-mixtures for none)` });
  const families = spec.split(",").map((s) => {
    const f = s.trim().toLowerCase().replace("é", "e");
    if (!(f in FAMILIES)) throw new VarmapError("E_USAGE", `unknown mixture family '${s}'`, { remedy });
    return f as FamilyName;
  });
  if (new Set(families).size !== families.length)
    throw new VarmapError("E_USAGE", `--families lists a family twice: ${spec}`, { remedy: "list each family once" });
  return families;
}

/** The --kmax flag: an integer from 1 to the kernels' limit (MIXTURE_KMAX). */
export function parseKmax(v: unknown, flag = "--kmax"): number {
  const s = v === undefined ? "5" : String(v).trim();
  const k = Number(s);
  if (!/^\d+$/.test(s) || k < 1 || k > MIXTURE_KMAX)
    throw new VarmapError("E_USAGE", `${flag} must be an integer from 1 to ${MIXTURE_KMAX}, got '${String(v)}'`, { remedy: `e.g. ${flag} 5` });
  return k;
}

/** The --starts flag: full (default), raced or partitions. */
export function parseStarts(spec: unknown): MixtureStarts {
  const v = spec === undefined ? "full" : String(spec).trim().toLowerCase();
  if (!(MIXTURE_STARTS as readonly string[]).includes(v))
    throw new VarmapError("E_USAGE", `unknown --starts '${String(spec)}'`, {
      remedy: `use ${MIXTURE_STARTS.join(", ")} (raced: about 15% faster, a few fits end at lower optima)`,
    });
  return v as MixtureStarts;
}

/** The --prior-strength flag: a finite number ≥ 0 (0 = maximum likelihood EM). */
export function parsePriorStrength(v: unknown, fallback: number): number {
  const s = v === undefined ? String(fallback) : String(v).trim();
  const x = Number(s);
  if (s === "" || !Number.isFinite(x) || x < 0)
    throw new VarmapError("E_USAGE", `--prior-strength must be a finite number ≥ 0, got '${String(v)}'`, {
      remedy: "use 0 for maximum likelihood EM (the papers' setup) or a small strength in pseudo-runs, e.g. --prior-strength 1",
    });
  return x;
}

/** Fits families × k = 1..kmax to each configuration's runs (runs[offsets[c]..offsets[c+1])). */
export function fitMixtures(runs: Float64Array, offsets: Int32Array, opts: MixtureFitOptions = {}): MixtureFitResult {
  const families = opts.families ?? [...FAMILY_NAMES];
  const kmax = opts.kmax ?? 5;
  if (!Number.isInteger(kmax) || kmax < 1 || kmax > MIXTURE_KMAX)
    throw new VarmapError("E_USAGE", `--kmax must be an integer from 1 to ${MIXTURE_KMAX}, got ${kmax}`);
  const backend = opts.backend ?? getBackend();
  const nconf = offsets.length - 1;
  const rows: MixtureFitRow[] = [];
  const secondsPerFit = new Map<string, number>();
  let resolution: Float64Array = new Float64Array(2 * Math.max(nconf, 0));
  const perModel: MixtureFitRow[][] = [];
  // One kernel call per family fits k = 1..kmax of every configuration (the kernel reuses the (k-1)-component
  // fit as a start for k); its time is apportioned to the k's by the kernel's work counters.
  for (const fam of families) {
    const t0 = performance.now();
    const models = Array.from({ length: kmax }, (_, i) => [FAMILIES[fam].code, i + 1] as const);
    const r = mixtureFit(backend, {
      runs,
      offsets,
      configIds: opts.configIds,
      models,
      seed: opts.seed,
      restarts: opts.restarts,
      maxIter: opts.maxIter,
      tol: opts.tol,
      starts: opts.starts,
      priorStrength: opts.priorStrength,
    });
    const seconds = (performance.now() - t0) / 1000;
    const totalWork = r.work.reduce((s, v) => s + v, 0) || 1;
    resolution = r.resolution;
    for (let k = 1; k <= kmax; k++) {
      let wk = 0;
      const list: MixtureFitRow[] = [];
      for (let c = 0; c < nconf; c++) {
        const i = c * kmax + (k - 1);
        wk += r.work[i];
        const p = r.params.subarray(i * r.pstride, i * r.pstride + 3 * k);
        const w = Array.from(p.subarray(0, k)),
          a = Array.from(p.subarray(k, 2 * k)),
          b = Array.from(p.subarray(2 * k, 3 * k));
        const [an, bn] = FAMILIES[fam].paramNames;
        list.push({
          config: c,
          family: fam,
          k,
          n: offsets[c + 1] - offsets[c],
          loglik: r.loglik[i],
          bic: r.bic[i],
          iterations: r.iterations[i],
          converged: r.converged[i] === 1,
          floorBound: r.floorBound[i] === 1,
          params: { w, [an]: a, [bn]: b },
          best: false,
          mixture: new Mixture(fam, w, a, b),
        });
      }
      secondsPerFit.set(`${fam}:${k}`, (seconds * wk) / totalWork / Math.max(nconf, 1));
      perModel.push(list);
    }
  }
  // rows ordered by configuration, then family, then k
  for (let c = 0; c < nconf; c++) {
    let best: MixtureFitRow | undefined;
    for (const list of perModel) {
      const row = list[c];
      rows.push(row);
      if (Number.isFinite(row.bic) && (!best || row.bic < best.bic)) best = row;
    }
    if (best) best.best = true;
  }
  return { rows, secondsPerFit, resolution };
}
