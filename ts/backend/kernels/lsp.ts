// The linear Shepard (LSP) kernels: the fit (neighbours + local least squares) and the batched evaluation.
import { arg, type KernelBackend, type KernelSpec } from "../kernel.js";
import { checkStatus } from "../status.js";

export const LSP_FIT: KernelSpec = {
  name: "lspFit",
  module: "lsp",
  // X, f, n, m, A, rw, rank
  args: [arg.f64in, arg.f64in, arg.int, arg.int, arg.f64out, arg.f64out, arg.i32out],
};

export const LSP_EVAL: KernelSpec = {
  name: "lspEval",
  module: "lsp",
  // X, f, A, rw, n, m, Q, nq, out, ierr
  args: [arg.f64in, arg.f64in, arg.f64in, arg.f64in, arg.int, arg.int, arg.f64in, arg.int, arg.f64out, arg.i32out],
};

export const LspStatus = { TOO_FEW_POINTS: 10, DUPLICATE_POINTS: 11, LSTSQ_FAILED: 12, BAD_RADIUS: 13 } as const;

export const LSP_STATUS: Record<number, [string, string, string]> = {
  10: ["E_TOO_FEW_POINTS", "LSP needs more than m + 1 nodes in m dimensions", "add configurations or use fewer inputs"],
  11: ["E_DUPLICATE_POINTS", "two training points coincide", "aggregate duplicate configurations into one before fitting"],
  12: ["E_LSTSQ_NO_CONVERGENCE", "a local least-squares fit did not converge", "please report this with the input that triggers it"],
  13: ["E_MODEL_STATE", "a radius of influence is not positive and finite", "refit the model; the saved state is corrupt"],
};

export interface LspFitResult {
  /** n × m local gradients, row-major. */
  A: Float64Array;
  /** Radius of influence R_w of each node. */
  rw: Float64Array;
  /** Rank of each node's local least-squares fit (< m: rank-deficient, minimum norm used; -1: a coincident node). */
  rank: Int32Array;
  status: number;
}

/** Runs LSHEP's fit; returns the raw status so the caller can locate duplicate points (rank -1). */
export function lspFitRaw(backend: KernelBackend, X: Float64Array, f: Float64Array, m: number): LspFitResult {
  const n = f.length;
  const A = new Float64Array(n * m), rw = new Float64Array(n), rank = new Int32Array(n);
  const status = backend.run(LSP_FIT, [X, f, n, m, A, rw, rank]);
  return { A, rw, rank, status };
}

export function lspFit(backend: KernelBackend, X: Float64Array, f: Float64Array, m: number): LspFitResult {
  const r = lspFitRaw(backend, X, f, m);
  checkStatus("lspFit", r.status, LSP_STATUS);
  return r;
}

/** LSHEPVAL at every row of Q (nq × m). ierr: 0 normal, 1 no radius covers the query (Shepard fallback), 2 normals disagree. */
export function lspEval(
  backend: KernelBackend,
  model: { X: Float64Array; f: Float64Array; A: Float64Array; rw: Float64Array; m: number },
  Q: Float64Array,
): { values: Float64Array; ierr: Int32Array } {
  const n = model.f.length, nq = Q.length / model.m;
  const values = new Float64Array(nq), ierr = new Int32Array(nq);
  checkStatus("lspEval", backend.run(LSP_EVAL, [model.X, model.f, model.A, model.rw, n, model.m, Q, nq, values, ierr]), LSP_STATUS);
  return { values, ierr };
}
