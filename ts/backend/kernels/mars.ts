// MARS kernels: the whole fit (forward pass, rank fix, backward elimination, GCV selection, coefficients) in
// one call, and batched prediction. Layouts are documented in native/include/varmap/mars.h.
import { arg, type KernelBackend, type KernelSpec } from "../kernel.js";
import type { StatusError } from "../status.js";
import { checkStatus } from "../status.js";
import { checkKernelShape } from "../sizes.js";

/** The option vector's layout, in order (enum MarsOpt in native/include/varmap/mars.h; checked by test/backend/contract.test.ts). */
export const MARS_OPTION_FIELDS = [
  "degree",
  "nk",
  "thresh",
  "penalty",
  "minspan",
  "endspan",
  "fastK",
  "fastBeta",
  "newvarPenalty",
  "autoLinpreds",
  "adjustEndspan",
  "scaleY",
] as const;
/** The info vector's layout, in order (enum MarsInfo in mars.h). */
export const MARS_INFO_FIELDS = ["nTerms", "termCond", "nFullSet", "nSelected", "rss", "gcv", "rsq", "grsq", "tss", "forwardRsq"] as const;
const MO_COUNT = MARS_OPTION_FIELDS.length;
const MI_COUNT = MARS_INFO_FIELDS.length;
const INT_OPTIONS = (["degree", "nk", "minspan", "endspan", "fastK"] as const).map((f) => MARS_OPTION_FIELDS.indexOf(f));

export const MARS_FIT: KernelSpec = {
  name: "mars_fit",
  module: "mars",
  args: [arg.f64in, arg.f64in, arg.int, arg.int, arg.f64in, arg.i32out, arg.f64out, arg.i32out, arg.f64out, arg.f64out, arg.f64out],
  lengths: ([X, y, n, d, opts, dirs, cuts, flags, coef, rss, info]) => {
    const [nn, dd, o] = [n as number, d as number, opts as Float64Array];
    if (nn < 0 || dd < 1 || o.length < MO_COUNT || (info as Float64Array).length < MI_COUNT) return false;
    const nk = o[1];
    if (!(nk >= 1 && nk <= 1000)) return false;
    // Options the kernels read as integers (degree, nk, minspan, endspan, fastK) must fit one.
    for (const i of INT_OPTIONS) if (!(Math.abs(o[i]) < 2 ** 31)) return false;
    const k = Math.trunc(nk);
    return (
      (X as Float64Array).length >= nn * dd &&
      (y as Float64Array).length >= nn &&
      (dirs as Int32Array).length >= k * dd &&
      (cuts as Float64Array).length >= k * dd &&
      (flags as Int32Array).length >= k &&
      (coef as Float64Array).length >= k &&
      (rss as Float64Array).length >= k
    );
  },
};

export const MARS_PREDICT: KernelSpec = {
  name: "mars_predict",
  module: "mars",
  args: [arg.i32in, arg.f64in, arg.f64in, arg.int, arg.int, arg.f64in, arg.int, arg.f64out],
  lengths: ([dirs, cuts, coef, nTerms, d, Xq, nq, out]) => {
    const [t, dd, q] = [nTerms as number, d as number, nq as number];
    return (
      t >= 0 &&
      dd >= 1 &&
      q >= 0 &&
      (dirs as Int32Array).length >= t * dd &&
      (cuts as Float64Array).length >= t * dd &&
      (coef as Float64Array).length >= t &&
      (Xq as Float64Array).length >= q * dd &&
      (out as Float64Array).length >= q
    );
  },
};

const specific: Record<number, StatusError> = {
  11: ["E_MARS_SINGULAR", "the pruning regression is singular", "remove duplicated or constant inputs, or lower nk"],
};

/** The option vector's layout (MarsOpt in mars.h). */
export interface MarsKernelOptions {
  degree: number;
  nk: number;
  thresh: number;
  penalty: number;
  minspan: number;
  endspan: number;
  fastK: number;
  fastBeta: number;
  newvarPenalty: number;
  autoLinpreds: boolean;
  adjustEndspan: number;
  scaleY: boolean;
}

/** R earth's defaults for d inputs at this degree (nk = min(200, max(20, 2d)) + 1; penalty 2, or 3 above degree 1). */
export function earthDefaults(d: number, degree = 1): MarsKernelOptions {
  return {
    degree,
    nk: Math.min(200, Math.max(20, 2 * d)) + 1,
    thresh: 0.001,
    penalty: degree > 1 ? 3 : 2,
    minspan: 0,
    endspan: 0,
    fastK: 20,
    fastBeta: 1,
    newvarPenalty: 0,
    autoLinpreds: true,
    adjustEndspan: 2,
    scaleY: true,
  };
}

export interface MarsFitResult {
  /** Terms created by the forward pass (rows of dirs/cuts), including slots it left unused. */
  nTerms: number;
  /** earth's termcond: 1 nk < 3, 2/3 GRSq too low, 4 RSq changed by less than thresh, 5 RSq ≥ 1 − thresh, 6 no new term, 7 reached nk. */
  termCond: number;
  nFullSet: number;
  nSelected: number;
  rss: number;
  gcv: number;
  rsq: number;
  grsq: number;
  tss: number;
  forwardRsq: number;
  /** nk × d, row per term: 0 unused, 1 max(0, x − cut), −1 max(0, cut − x), 2 linear. */
  dirs: Int32Array;
  cuts: Float64Array;
  /** bit 0: kept after the forward pass; bit 1: selected by pruning. */
  termFlags: Int32Array;
  coef: Float64Array;
  /** RSS of the best subset of each size 1..nFullSet. */
  rssPerSubset: Float64Array;
}

export function marsFit(backend: KernelBackend, X: Float64Array, y: Float64Array, d: number, o: MarsKernelOptions): MarsFitResult {
  const n = y.length;
  const nk = o.nk;
  checkKernelShape("mars_fit", { d, nk, degree: o.degree }, { n, rows: X.length / d }, [nk * d]);
  const opts = Float64Array.from(MARS_OPTION_FIELDS, (f) => Number(o[f])); // booleans as 0/1
  const dirs = new Int32Array(nk * d);
  const cuts = new Float64Array(nk * d);
  const termFlags = new Int32Array(nk);
  const coef = new Float64Array(nk);
  const rssPerSubset = new Float64Array(nk);
  const info = new Float64Array(MI_COUNT);
  checkStatus("mars_fit", backend.run(MARS_FIT, [X, y, n, d, opts, dirs, cuts, termFlags, coef, rssPerSubset, info]), specific);
  const at = (f: (typeof MARS_INFO_FIELDS)[number]) => info[MARS_INFO_FIELDS.indexOf(f)];
  return {
    nTerms: at("nTerms"),
    termCond: at("termCond"),
    nFullSet: at("nFullSet"),
    nSelected: at("nSelected"),
    rss: at("rss"),
    gcv: at("gcv"),
    rsq: at("rsq"),
    grsq: at("grsq"),
    tss: at("tss"),
    forwardRsq: at("forwardRsq"),
    dirs,
    cuts,
    termFlags,
    coef,
    rssPerSubset: rssPerSubset.slice(0, at("nFullSet")),
  };
}

/** out[q] = Σ_t coef[t] · Π_j h_tj(Xq[q, j]) for the nTerms = coef.length given terms. */
export function marsPredict(
  backend: KernelBackend,
  dirs: Int32Array,
  cuts: Float64Array,
  coef: Float64Array,
  d: number,
  Xq: Float64Array,
  out?: Float64Array,
): Float64Array {
  const nq = Xq.length / d;
  checkKernelShape("mars_predict", { d }, { nq }, [nq]);
  const result = out ?? new Float64Array(nq);
  checkStatus("mars_predict", backend.run(MARS_PREDICT, [dirs, cuts, coef, coef.length, d, Xq, nq, result]), specific);
  return result;
}
