// Batched GEV maximum likelihood: one Newton fit per configuration (native/src/gev.cc, wasm/gev.ts).
import { VarmapError } from "../../errors.js";
import { arg, type KernelBackend, type KernelSpec } from "../kernel.js";
import { checkStatus } from "../status.js";

/** Doubles per configuration in the output buffer (native kGevOut). */
export const GEV_OUT = 14;

export const GEV: KernelSpec = {
  name: "gev",
  module: "gev",
  // x, offsets, nconf, maxIter, out, info
  args: [arg.f64in, arg.i32in, arg.int, arg.int, arg.f64out, arg.i32out],
  lengths: ([x, offsets, nconf, maxIter, out, info]) => {
    const off = offsets as Int32Array;
    const k = nconf as number;
    if (k < 0 || (maxIter as number) < 1 || off.length < k + 1) return false;
    for (let c = 0; c < k; c++) if (off[c] < 0 || off[c + 1] < off[c]) return false;
    return (x as Float64Array).length >= off[k] && (out as Float64Array).length >= k * GEV_OUT && (info as Int32Array).length >= 2 * k;
  },
};

/** Per-configuration outcome of the kernel (native GevFitStatus). */
export const GevStatus = {
  OK: 0,
  TOO_FEW: 1,
  DEGENERATE: 2,
  NONFINITE: 3,
  NOT_CONVERGED: 4,
  UNBOUNDED: 5,
  SINGULAR: 6,
} as const;

export const GEV_STATUS_NAMES = ["ok", "too_few_runs", "degenerate", "nonfinite", "not_converged", "unbounded", "singular_information"] as const;
export type GevStatusName = (typeof GEV_STATUS_NAMES)[number];

export interface GevBatchResult {
  /** nconf × GEV_OUT: loc, scale, shape, nllh, cov (6, packed: ll ls lx ss sx xx), gumbel loc/scale/nllh, max |g|·SE. */
  out: Float64Array;
  /** Per configuration: its GevStatus. */
  status: Int32Array;
  /** Per configuration: Newton iterations (over every start tried). */
  iterations: Int32Array;
}

/** Fits a GEV to every configuration: runs offsets[k] .. offsets[k+1) of x belong to configuration k. */
export function gevFitBatch(backend: KernelBackend, x: Float64Array, offsets: Int32Array, maxIter = 100): GevBatchResult {
  const nconf = offsets.length - 1;
  if (nconf < 0)
    throw new VarmapError("E_KERNEL_ARGUMENT", "gev: offsets must have nconf + 1 entries", { remedy: "this is a bug in the caller; please report it" });
  for (let k = 0; k < nconf; k++)
    if (offsets[k] < 0 || offsets[k + 1] < offsets[k])
      throw new VarmapError("E_KERNEL_ARGUMENT", `gev: offsets must be non-negative and non-decreasing (configuration ${k})`, {
        remedy: "this is a bug in the caller; please report it",
      });
  if (x.length < offsets[nconf])
    throw new VarmapError("E_KERNEL_ARGUMENT", `gev: ${offsets[nconf]} runs expected, ${x.length} given`, {
      remedy: "this is a bug in the caller; please report it",
    });
  const out = new Float64Array(nconf * GEV_OUT);
  const info = new Int32Array(2 * nconf);
  const status = backend.run(GEV, [x, offsets, nconf, maxIter, out, info]);
  checkStatus("gev", status);
  const st = new Int32Array(nconf),
    it = new Int32Array(nconf);
  for (let k = 0; k < nconf; k++) {
    st[k] = info[2 * k];
    it[k] = info[2 * k + 1];
  }
  return { out, status: st, iterations: it };
}
