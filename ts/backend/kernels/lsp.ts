// The linear Shepard (LSP) kernels: the fit (neighbours + local least squares) and the batched evaluation.
import { arg, type KernelBackend, type KernelSpec } from "../kernel.js";
import type { StatusError } from "../status.js";
import { checkStatus } from "../status.js";
import { checkKernelShape } from "../sizes.js";

export const LSP_FIT: KernelSpec = {
  name: "lspFit",
  module: "lsp",
  // X, f, n, m, A, rw, rank
  args: [arg.f64in, arg.f64in, arg.int, arg.int, arg.f64out, arg.f64out, arg.i32out],
  lengths: ([X, f, n, m, A, rw, rank]) => {
    const [nn, mm] = [n as number, m as number];
    return (
      nn >= 0 &&
      mm >= 1 &&
      (X as Float64Array).length >= nn * mm &&
      (f as Float64Array).length >= nn &&
      (A as Float64Array).length >= nn * mm &&
      (rw as Float64Array).length >= nn &&
      (rank as Int32Array).length >= nn
    );
  },
};

export const LSP_EVAL: KernelSpec = {
  name: "lspEval",
  module: "lsp",
  // X, f, A, rw, n, m, Q, nq, out, ierr
  args: [arg.f64in, arg.f64in, arg.f64in, arg.f64in, arg.int, arg.int, arg.f64in, arg.int, arg.f64out, arg.i32out],
  lengths: ([X, f, A, rw, n, m, Q, nq, out, ierr]) => {
    const [nn, mm, qq] = [n as number, m as number, nq as number];
    return (
      nn >= 1 &&
      mm >= 1 &&
      qq >= 0 &&
      (X as Float64Array).length >= nn * mm &&
      (f as Float64Array).length >= nn &&
      (A as Float64Array).length >= nn * mm &&
      (rw as Float64Array).length >= nn &&
      (Q as Float64Array).length >= qq * mm &&
      (out as Float64Array).length >= qq &&
      (ierr as Int32Array).length >= qq
    );
  },
};

export const LspStatus = { TOO_FEW_POINTS: 10, DUPLICATE_POINTS: 11, LSTSQ_FAILED: 12, BAD_RADIUS: 13 } as const;

export const LSP_STATUS: Record<number, StatusError> = {
  10: ["E_TOO_FEW_POINTS", "LSP needs more than m + 1 nodes in m dimensions", "add configurations or use fewer inputs"],
  11: [
    "E_DUPLICATE_POINTS",
    "two training points coincide or nearly coincide (closer than 1e-6 of their neighbourhood's radius)",
    "aggregate duplicate configurations into one before fitting",
  ],
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
  checkKernelShape("lspFit", { m }, {}, [n * m]);
  const A = new Float64Array(n * m),
    rw = new Float64Array(n),
    rank = new Int32Array(n);
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
  const n = model.f.length,
    nq = Q.length / model.m;
  checkKernelShape("lspEval", { m: model.m }, { nq });
  const values = new Float64Array(nq),
    ierr = new Int32Array(nq);
  checkStatus("lspEval", backend.run(LSP_EVAL, [model.X, model.f, model.A, model.rw, n, model.m, Q, nq, values, ierr]), LSP_STATUS);
  return { values, ierr };
}

// ---- many fits on subsets of one point set (cross-validation) ----

export const LSP_NEIGHBORS: KernelSpec = {
  name: "lspNeighbors",
  module: "lsp",
  // X, n, m, K, nbr, nd2
  args: [arg.f64in, arg.int, arg.int, arg.int, arg.i32out, arg.f64out],
  lengths: ([X, n, m, K, nbr, nd2]) => {
    const [nn, mm, kk] = [n as number, m as number, K as number];
    return (
      nn >= 2 &&
      mm >= 1 &&
      kk >= 1 &&
      kk <= nn - 1 &&
      (X as Float64Array).length >= nn * mm &&
      (nbr as Int32Array).length >= nn * kk &&
      (nd2 as Float64Array).length >= nn * kk
    );
  },
};

export const LSP_SUBSETS: KernelSpec = {
  name: "lspSubsets",
  module: "lsp",
  // X, f, N, m, nbr, nd2, K, S, trainOff, train, queryOff, query, A, rw, rank, status, out, ierr
  args: [
    arg.f64in,
    arg.f64in,
    arg.int,
    arg.int,
    arg.i32in,
    arg.f64in,
    arg.int,
    arg.int,
    arg.i32in,
    arg.i32in,
    arg.i32in,
    arg.i32in,
    arg.f64out,
    arg.f64out,
    arg.i32out,
    arg.i32out,
    arg.f64out,
    arg.i32out,
  ],
  lengths: ([X, f, N, m, nbr, nd2, K, S, trainOff, train, queryOff, query, A, rw, rank, status, out, ierr]) => {
    const [nn, mm, kk, ss] = [N as number, m as number, K as number, S as number];
    const to = trainOff as Int32Array,
      qo = queryOff as Int32Array;
    if (nn < 2 || mm < 1 || kk < 1 || kk > nn - 1 || ss < 0 || to.length < ss + 1 || qo.length < ss + 1) return false;
    const [T, Q] = [to[ss], qo[ss]];
    return (
      T >= 0 &&
      Q >= 0 &&
      (X as Float64Array).length >= nn * mm &&
      (f as Float64Array).length >= nn &&
      (nbr as Int32Array).length >= nn * kk &&
      (nd2 as Float64Array).length >= nn * kk &&
      (train as Int32Array).length >= T &&
      (query as Int32Array).length >= Q &&
      (A as Float64Array).length >= T * mm &&
      (rw as Float64Array).length >= T &&
      (rank as Int32Array).length >= T &&
      (status as Int32Array).length >= ss &&
      (out as Float64Array).length >= Q &&
      (ierr as Int32Array).length >= Q
    );
  },
};

/** A point set's neighbour table: every row's K nearest other rows in LSHEP's order (distance, then row). */
export interface LspNeighborTable {
  X: Float64Array;
  n: number;
  m: number;
  K: number;
  nbr: Int32Array;
  nd2: Float64Array;
}

/**
 * Table depth: deep enough that a subset holding a tenth of the rows usually finds its NP neighbours inside it
 * (shallower tables only fall back to a k-d tree more often; results do not depend on K).
 */
export function lspTableDepth(n: number, m: number): number {
  return Math.max(1, Math.min(n - 1, 32 * Math.min(n - 1, Math.floor((3 * m + 1) / 2))));
}

export function lspNeighborTable(backend: KernelBackend, X: Float64Array, m: number, K = lspTableDepth(X.length / m, m)): LspNeighborTable {
  const n = X.length / m;
  checkKernelShape("lspNeighbors", { m, K }, { n }, [n * K]);
  const nbr = new Int32Array(n * K),
    nd2 = new Float64Array(n * K);
  checkStatus("lspNeighbors", backend.run(LSP_NEIGHBORS, [X, n, m, K, nbr, nd2]), LSP_STATUS);
  return { X, n, m, K, nbr, nd2 };
}

export interface LspSubsetResult {
  /** lsp_fit's status, else lsp_eval's (0 = ok; values unset otherwise). */
  status: number;
  A: Float64Array;
  rw: Float64Array;
  rank: Int32Array;
  values: Float64Array;
  ierr: Int32Array;
}

/**
 * For each subset, exactly lspFit on the rows `train` (strictly ascending) of (table.X, f) and lspEval of that
 * fit at the rows `query` of table.X — one kernel call for all subsets, neighbours read from the table.
 */
export function lspSubsets(
  backend: KernelBackend,
  table: LspNeighborTable,
  f: Float64Array,
  subsets: readonly { train: Int32Array; query: Int32Array }[],
): LspSubsetResult[] {
  const S = subsets.length,
    m = table.m;
  // A table is the caller's object: its sizes are checked before they size the outputs.
  checkKernelShape("lspSubsets", { m, K: table.K }, { n: table.n });
  const trainOff = new Int32Array(S + 1),
    queryOff = new Int32Array(S + 1);
  subsets.forEach((s, i) => ((trainOff[i + 1] = trainOff[i] + s.train.length), (queryOff[i + 1] = queryOff[i] + s.query.length)));
  const train = new Int32Array(trainOff[S]),
    query = new Int32Array(queryOff[S]);
  subsets.forEach((s, i) => (train.set(s.train, trainOff[i]), query.set(s.query, queryOff[i])));
  const T = trainOff[S],
    Q = queryOff[S];
  checkKernelShape("lspSubsets", {}, {}, [T * m, Q]);
  const A = new Float64Array(T * m),
    rw = new Float64Array(T),
    rank = new Int32Array(T),
    status = new Int32Array(S);
  const values = new Float64Array(Q),
    ierr = new Int32Array(Q);
  const args = [table.X, f, table.n, m, table.nbr, table.nd2, table.K, S, trainOff, train, queryOff, query, A, rw, rank, status, values, ierr];
  checkStatus("lspSubsets", backend.run(LSP_SUBSETS, args), LSP_STATUS);
  return subsets.map((_, i) => ({
    status: status[i],
    A: A.subarray(trainOff[i] * m, trainOff[i + 1] * m),
    rw: rw.subarray(trainOff[i], trainOff[i + 1]),
    rank: rank.subarray(trainOff[i], trainOff[i + 1]),
    values: values.subarray(queryOff[i], queryOff[i + 1]),
    ierr: ierr.subarray(queryOff[i], queryOff[i + 1]),
  }));
}

// ---- LSHEPVAL's Shepard weights (whole-distribution prediction, spec E.2 `--weights shepard`) ----

export const LSP_WEIGHTS: KernelSpec = {
  name: "lspWeights",
  module: "lsp",
  // X, rw, n, m, Q, nq, cap, count, code, idx, w
  args: [arg.f64in, arg.f64in, arg.int, arg.int, arg.f64in, arg.int, arg.int, arg.i32out, arg.i32out, arg.i32out, arg.f64out],
  lengths: ([X, rw, n, m, Q, nq, cap, count, code, idx, w]) => {
    const [nn, mm, qq, cc] = [n as number, m as number, nq as number, cap as number];
    return (
      nn >= 1 &&
      mm >= 1 &&
      qq >= 0 &&
      cc >= mm + 1 &&
      (X as Float64Array).length >= nn * mm &&
      (rw as Float64Array).length >= nn &&
      (Q as Float64Array).length >= qq * mm &&
      (count as Int32Array).length >= qq &&
      (code as Int32Array).length >= qq &&
      (idx as Int32Array).length >= qq * cc &&
      (w as Float64Array).length >= qq * cc
    );
  },
};

/** Per query: LSHEPVAL's code for the weights — 0 covering nodes, 1 the inverse-distance fallback, 3 the query is a node. */
export const LspWeightCode = { COVERED: 0, FALLBACK: 1, AT_NODE: 3 } as const;

export interface LspWeights {
  /** Query q's (node, weight) pairs are index/weight[offsets[q] .. offsets[q + 1]). */
  offsets: Int32Array;
  index: Int32Array;
  weight: Float64Array;
  code: Int32Array;
}

/** The normalized weights LSHEPVAL combines at every row of Q (nq × m): the same kernel code as lspEval's. */
export function lspWeights(backend: KernelBackend, model: { X: Float64Array; rw: Float64Array; m: number }, Q: Float64Array): LspWeights {
  const n = model.rw.length,
    m = model.m,
    nq = Q.length / m;
  checkKernelShape("lspWeights", { m }, { nq });
  const cap = Math.max(n, m + 1);
  checkKernelShape("lspWeights", {}, {}, [nq * cap]);
  const count = new Int32Array(nq),
    code = new Int32Array(nq),
    idx = new Int32Array(nq * cap),
    w = new Float64Array(nq * cap);
  checkStatus("lspWeights", backend.run(LSP_WEIGHTS, [model.X, model.rw, n, m, Q, nq, cap, count, code, idx, w]), {
    ...LSP_STATUS,
    14: ["E_INTERNAL", "more weighted nodes than the buffer holds", "please report this: the buffer holds every node"],
  });
  const offsets = new Int32Array(nq + 1);
  for (let q = 0; q < nq; q++) offsets[q + 1] = offsets[q] + count[q];
  const index = new Int32Array(offsets[nq]),
    weight = new Float64Array(offsets[nq]);
  for (let q = 0; q < nq; q++) for (let s = 0; s < count[q]; s++) (index[offsets[q] + s] = idx[q * cap + s]), (weight[offsets[q] + s] = w[q * cap + s]);
  return { offsets, index, weight, code };
}
