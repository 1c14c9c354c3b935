// Mixture EM over a batch of configurations × (family, k): one kernel call (native/src/mixture.cc, wasm/mixture.ts).
import { arg, type KernelArg, type KernelBackend, type KernelSpec } from "../kernel.js";
import type { StatusError } from "../status.js";
import { checkStatus } from "../status.js";
import { VarmapError } from "../../errors.js";
import { checkKernelShape } from "../sizes.js";

export const MIXTURE_FIT: KernelSpec = {
  name: "mixtureFit",
  module: "mixture",
  args: [
    arg.f64in,
    arg.i32in,
    arg.int,
    arg.i32in,
    arg.i32in,
    arg.int,
    arg.num,
    arg.int,
    arg.int,
    arg.num,
    arg.int,
    arg.int,
    arg.num,
    arg.f64out,
    arg.f64out,
    arg.i32out,
    arg.u8out,
    arg.u8out,
    arg.f64out,
    arg.f64out,
    arg.f64out,
  ],
  lengths: ([runs, offsets, nconf, ids, models, nmodels, , , , , pstride, , , loglik, bic, iterations, converged, floorBound, params, resolution, work]) => {
    const [nc, nm, ps, off] = [nconf as number, nmodels as number, pstride as number, offsets as Int32Array];
    if (nc < 0 || nm < 0 || ps < 1 || off.length < nc + 1 || (ids as Int32Array).length < nc || (models as Int32Array).length < 2 * nm) return false;
    const nr = nc * nm;
    const len = (a: KernelArg) => (a as Float64Array | Int32Array | Uint8Array).length;
    return (
      off[nc] >= 0 &&
      len(runs) >= off[nc] &&
      [loglik, bic, iterations, converged, floorBound, work].every((a) => len(a) >= nr) &&
      len(params) >= nr * ps &&
      len(resolution) >= 2 * nc
    );
  },
};

const MAX_INT32 = 2 ** 31 - 1;

/** The most components the kernels fit (KMAX in native/src/mixture.cc and wasm/mixture.ts). */
export const MIXTURE_KMAX = 16;

/** Family codes shared with the kernels (seed 001 Table 2 order). */
export const FAMILY_CODES = { normal: 0, gamma: 1, weibull: 2, lognormal: 3, loglogistic: 4, frechet: 5 } as const;

export interface MixtureBatchInput {
  /** All runs, configuration after configuration; configuration c is runs[offsets[c] .. offsets[c+1]). */
  runs: Float64Array;
  offsets: Int32Array;
  /** Stable configuration ids (key of the random streams; default 0..nconf-1). */
  configIds?: Int32Array;
  /** (family code, k) pairs. */
  models: readonly (readonly [number, number])[];
  seed?: number;
  restarts?: number;
  maxIter?: number;
  tol?: number;
  /**
   * "full" (default): partition, spike, core and greedy starts; "raced": the same starts, the trailing ones given up
   * at iterations 10 and 15 (about 15% faster; a few fits end at lower optima); "partitions": quantile and
   * k-means++ starts only.
   */
  starts?: MixtureStarts;
  /**
   * Maximum a posteriori EM (issue #17): strength s ≥ 0 of a weak prior on each component's scale in its family's
   * domain (x for normal, log x for the log families; not gamma), worth s pseudo-runs spread by the configuration's
   * variance / k² (mclust's priorControl). 0 (default): maximum likelihood, bit for bit.
   */
  priorStrength?: number;
}

export interface MixtureBatchResult {
  nconf: number;
  nmodels: number;
  /** Parameters per fit: w[0..k), a[0..k), b[0..k), padded with NaN to pstride. */
  pstride: number;
  loglik: Float64Array;
  bic: Float64Array;
  iterations: Int32Array;
  converged: Uint8Array;
  floorBound: Uint8Array;
  params: Float64Array;
  /** Per configuration: smallest gap between distinct runs (original units), between distinct log runs. */
  resolution: Float64Array;
  /** Density evaluations spent per fit (to apportion a call's time among its models). */
  work: Float64Array;
}

const SPECIFIC: Record<number, StatusError> = {
  10: [
    "E_MIXTURE_NONPOSITIVE",
    "a run is zero or negative",
    "mixtures are fitted to positive measurements (throughput, time); remove or correct non-positive runs",
  ],
  11: [
    "E_MIXTURE_MODEL",
    "a family code or number of components is out of range",
    `use families ${Object.keys(FAMILY_CODES).join(", ")} and k between 1 and ${MIXTURE_KMAX}`,
  ],
  12: ["E_MIXTURE_TOO_FEW", "a configuration has fewer than 2 runs", "drop configurations with a single run before fitting mixtures"],
};

export const MIXTURE_STARTS = ["full", "raced", "partitions"] as const;
export type MixtureStarts = (typeof MIXTURE_STARTS)[number];
const STRATEGY: Record<MixtureStarts, number> = { full: 0, partitions: 1, raced: 2 };

/** Fits every (configuration, model) of the batch in one kernel call; row r = c*nmodels + m. */
export function mixtureFit(backend: KernelBackend, input: MixtureBatchInput): MixtureBatchResult {
  const strategy = STRATEGY[input.starts ?? "full"];
  if (strategy === undefined) throw new VarmapError("E_USAGE", `unknown mixture starts "${String(input.starts)}"`, { remedy: "use full, raced or partitions" });
  const priorStrength = input.priorStrength ?? 0;
  if (!(priorStrength >= 0 && Number.isFinite(priorStrength)))
    throw new VarmapError("E_USAGE", `mixture prior strength must be a finite number ≥ 0, got ${priorStrength}`, {
      remedy: "use 0 (maximum likelihood) or a small positive strength such as 1",
    });
  const nconf = input.offsets.length - 1;
  const nmodels = input.models.length;
  checkKernelShape("mixtureFit", {}, { "configurations (offsets.length - 1)": nconf });
  // Family codes and k become int32 values: refuse what would not survive the conversion (the kernel checks ranges).
  for (const [f, k] of input.models) {
    checkKernelShape("mixtureFit", { k }, { "family code": f });
    if (f > MAX_INT32 || k > MAX_INT32)
      throw new VarmapError("E_KERNEL_ARGUMENT", `mixtureFit: model (family ${f}, k = ${k}) is out of range`, {
        remedy: `use the family codes of FAMILY_CODES and k between 1 and ${MIXTURE_KMAX}`,
      });
  }
  const kmax = input.models.reduce((m, [, k]) => Math.max(m, k), 1);
  const pstride = 3 * kmax;
  checkKernelShape("mixtureFit", {}, {}, [nconf * nmodels * pstride]);
  const models = new Int32Array(2 * nmodels);
  input.models.forEach(([f, k], i) => {
    models[2 * i] = f;
    models[2 * i + 1] = k;
  });
  const ids = input.configIds ?? Int32Array.from({ length: nconf }, (_, i) => i);
  const nr = nconf * nmodels;
  const out: MixtureBatchResult = {
    nconf,
    nmodels,
    pstride,
    loglik: new Float64Array(nr),
    bic: new Float64Array(nr),
    iterations: new Int32Array(nr),
    converged: new Uint8Array(nr),
    floorBound: new Uint8Array(nr),
    params: new Float64Array(nr * pstride),
    resolution: new Float64Array(2 * nconf),
    work: new Float64Array(nr),
  };
  if (nconf <= 0 || nmodels === 0) return out;
  const status = backend.run(MIXTURE_FIT, [
    input.runs,
    input.offsets,
    nconf,
    ids,
    models,
    nmodels,
    input.seed ?? 1,
    input.restarts ?? 5,
    input.maxIter ?? 2000,
    input.tol ?? 1e-10,
    pstride,
    strategy,
    priorStrength,
    out.loglik,
    out.bic,
    out.iterations,
    out.converged,
    out.floorBound,
    out.params,
    out.resolution,
    out.work,
  ]);
  checkStatus("mixtureFit", status, SPECIFIC);
  return out;
}
