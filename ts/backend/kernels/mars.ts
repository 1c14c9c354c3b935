// MARS kernels: the whole fit (forward pass, rank fix, backward elimination, GCV selection, coefficients) in
// one call, and batched prediction. Layouts are documented in native/include/varmap/mars.h.
import { arg, type KernelBackend, type KernelSpec } from "../kernel.js";
import { checkStatus } from "../status.js";

export const MARS_FIT: KernelSpec = {
  name: "mars_fit",
  module: "mars",
  args: [arg.f64in, arg.f64in, arg.int, arg.int, arg.f64in, arg.i32out, arg.f64out, arg.i32out, arg.f64out, arg.f64out, arg.f64out],
};

export const MARS_PREDICT: KernelSpec = {
  name: "mars_predict",
  module: "mars",
  args: [arg.i32in, arg.f64in, arg.f64in, arg.int, arg.int, arg.f64in, arg.int, arg.f64out],
};

const specific: Record<number, [string, string, string]> = {
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
  const opts = Float64Array.from([o.degree, nk, o.thresh, o.penalty, o.minspan, o.endspan, o.fastK, o.fastBeta, o.newvarPenalty, o.autoLinpreds ? 1 : 0, o.adjustEndspan, o.scaleY ? 1 : 0]);
  const dirs = new Int32Array(nk * d);
  const cuts = new Float64Array(nk * d);
  const termFlags = new Int32Array(nk);
  const coef = new Float64Array(nk);
  const rssPerSubset = new Float64Array(nk);
  const info = new Float64Array(10);
  checkStatus("mars_fit", backend.run(MARS_FIT, [X, y, n, d, opts, dirs, cuts, termFlags, coef, rssPerSubset, info]), specific);
  return {
    nTerms: info[0],
    termCond: info[1],
    nFullSet: info[2],
    nSelected: info[3],
    rss: info[4],
    gcv: info[5],
    rsq: info[6],
    grsq: info[7],
    tss: info[8],
    forwardRsq: info[9],
    dirs,
    cuts,
    termFlags,
    coef,
    rssPerSubset: rssPerSubset.slice(0, info[2]),
  };
}

/** out[q] = Σ_t coef[t] · Π_j h_tj(Xq[q, j]) for the nTerms = coef.length given terms. */
export function marsPredict(backend: KernelBackend, dirs: Int32Array, cuts: Float64Array, coef: Float64Array, d: number, Xq: Float64Array, out?: Float64Array): Float64Array {
  const nq = Xq.length / d;
  const result = out ?? new Float64Array(nq);
  checkStatus("mars_predict", backend.run(MARS_PREDICT, [dirs, cuts, coef, coef.length, d, Xq, nq, result]), specific);
  return result;
}
