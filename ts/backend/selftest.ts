// Self-tests of every kernel, run by `varmap doctor` on each backend: small problems with known answers.
// Each kernel adds one entry here.
import type { KernelBackend } from "./kernel.js";
import { sqdist } from "./kernels/distances.js";
import { knn } from "./kernels/neighbors.js";
import { lstsq } from "./kernels/lstsq.js";
import { earthDefaults, marsFit, marsPredict } from "./kernels/mars.js";
import { lspEval, lspFit, lspNeighborTable, lspSubsets, lspWeights } from "./kernels/lsp.js";
import { gpLocalPredict, gpNll, gpPredict, type GpLikelihood } from "./kernels/gp.js";
import { delaunayLocate } from "./kernels/delaunay.js";
import { mixtureFit } from "./kernels/mixture.js";
import { mulberry32Uniform } from "../util/mulberry32.js";
import { GEV_OUT, gevFitBatch } from "./kernels/gev.js";
import { rbfgram, symeig, symtrid } from "./kernels/symeig.js";

/** The MARS kernel options of the self-test and its parity batch (earth's defaults at degree 1 or 2). */
function marsOptions(degree: number, minspan: number, endspan: number) {
  return { ...earthDefaults(1, degree), nk: 21, minspan, endspan };
}

export interface SelfTest {
  name: string;
  /** Throws when the kernel's answer is wrong. */
  run(backend: KernelBackend): void;
  /** Throws when the two backends disagree on a random batch (run by doctor when native is available). */
  parity?(native: KernelBackend, wasm: KernelBackend): void;
}

/** Deterministic numbers in [-5, 5) for parity batches (mulberry32). */
function randomArray(length: number, seed: number): Float64Array {
  const u = mulberry32Uniform(seed);
  return Float64Array.from({ length }, () => u() * 10 - 5);
}

function expectSame(a: ArrayLike<number>, b: ArrayLike<number>, tol: number, what: string): void {
  for (let i = 0; i < a.length; i++)
    if (!(Math.abs(a[i] - b[i]) <= tol * Math.max(Math.abs(a[i]), Math.abs(b[i]), 1e-300)))
      throw new Error(`${what}: native gives ${a[i]}, wasm ${b[i]} at element ${i}`);
}

function expectClose(got: ArrayLike<number>, want: ArrayLike<number>, tol: number, what: string): void {
  for (let i = 0; i < want.length; i++)
    if (!(Math.abs(got[i] - want[i]) <= tol * Math.max(1, Math.abs(want[i])))) throw new Error(`${what}: element ${i} is ${got[i]}, expected ${want[i]}`);
}

export const selfTests: SelfTest[] = [
  {
    name: "distances.sqdist",
    run(b) {
      const X = Float64Array.from([0, 0, 3, 4, 1, 1]);
      const Q = Float64Array.from([0, 0, 1, 2]);
      expectClose(sqdist(b, X, Q, 2), [0, 25, 2, 5, 8, 1], 1e-15, "sqdist");
    },
    parity(native, wasm) {
      const X = randomArray(1001 * 8, 1),
        Q = randomArray(37 * 8, 2);
      expectSame(sqdist(native, X, Q, 8), sqdist(wasm, X, Q, 8), 1e-12, "sqdist parity");
    },
  },
  {
    name: "neighbors.knn",
    run(b) {
      // Ties (rows 1 and 2 are both at distance 1 from the query) must come out lower index first.
      const X = Float64Array.from([0, 0, 1, 0, 0, 1, 3, 4]);
      const r = knn(b, X, Float64Array.from([0, 0, 1, 1]), 2, 2, { exclude: Int32Array.from([0, -1]) });
      expectClose(r.indices, [1, 2, 1, 2], 0, "knn indices");
      expectClose(r.distances, [1, 1, 1, 1], 1e-15, "knn distances");
    },
    parity(native, wasm) {
      const X = randomArray(1001 * 4, 3);
      const a = knn(native, X, X, 4, 7, { excludeSelf: true });
      const b = knn(wasm, X, X, 4, 7, { excludeSelf: true });
      expectSame(a.indices, b.indices, 0, "knn parity (indices)");
      expectSame(a.distances, b.distances, 1e-12, "knn parity (distances)");
    },
  },
  {
    name: "lstsq.lstsq",
    run(b) {
      // y = 1 + 2x (full rank) and x1 + 2 x2 = 3 (minimum norm: (0.6, 1.2), rank 1).
      const r = lstsq(b, { A: Float64Array.from([1, 0, 1, 1, 1, 2, 1, 2]), b: Float64Array.from([1, 3, 5, 3]), offsets: Int32Array.from([0, 3, 4]), n: 2 });
      expectClose(r.x, [1, 2, 0.6, 1.2], 1e-13, "lstsq");
      if (r.rank[0] !== 2 || r.rank[1] !== 1) throw new Error(`lstsq: ranks ${r.rank[0]}, ${r.rank[1]}, expected 2, 1`);
    },
    parity(native, wasm) {
      // 300 weighted problems of the LSP shape (6 rows x 4 unknowns); every third has a repeated column (rank 3).
      const nprob = 300,
        m = 6,
        n = 4;
      const A = randomArray(nprob * m * n, 4),
        w = randomArray(nprob * m, 6).map((v) => 5.5 + v);
      for (let p = 0; p < nprob; p += 3) for (let i = 0; i < m; i++) A[(p * m + i) * n + 3] = A[(p * m + i) * n + 1];
      const batch = { A, b: randomArray(nprob * m, 5), w, offsets: Int32Array.from({ length: nprob + 1 }, (_, k) => k * m), n };
      const a = lstsq(native, batch),
        c = lstsq(wasm, batch);
      expectSame(a.rank, c.rank, 0, "lstsq parity (ranks)");
      for (let p = 0; p < nprob; p++) {
        const xa = a.x.subarray(p * n, p * n + n),
          xc = c.x.subarray(p * n, p * n + n);
        const scale = Math.max(...xa.map(Math.abs), 1e-300);
        for (let j = 0; j < n; j++)
          if (!(Math.abs(xa[j] - xc[j]) <= 1e-12 * scale)) throw new Error(`lstsq parity: problem ${p}: native ${xa[j]}, wasm ${xc[j]}`);
      }
    },
  },
  {
    name: "mars.mars_fit",
    run(b) {
      // y = 1 + 2·max(0, x − 0.3) on x = 0, 0.01, …, 1 with every value a candidate knot: one hinge, exact.
      const x = Float64Array.from({ length: 101 }, (_, i) => i / 100);
      const y = x.map((v) => 1 + 2 * Math.max(0, v - 0.3));
      const r = marsFit(b, x, y, 1, marsOptions(1, 1, 1));
      const sel = Array.from(r.termFlags.keys()).filter((t) => r.termFlags[t] & 2);
      const p = marsPredict(
        b,
        Int32Array.from(sel.map((t) => r.dirs[t])),
        Float64Array.from(sel.map((t) => r.cuts[t])),
        Float64Array.from(sel.map((t) => r.coef[t])),
        1,
        Float64Array.from([0, 0.3, 0.8]),
      );
      expectClose(p, [1, 1, 2], 1e-9, "mars");
    },
    parity(native, wasm) {
      // 200 random points in 3 inputs, a response with a hinge and an interaction: same terms, same fit.
      const n = 200,
        d = 3;
      const X = randomArray(n * d, 51);
      const y = Float64Array.from({ length: n }, (_, i) => Math.max(0, X[i * d] - 1) + 0.5 * X[i * d + 1] * X[i * d + 2] + 0.01 * X[i * d + 2]);
      const o = marsOptions(2, 0, 0);
      const a = marsFit(native, X, y, d, o),
        c = marsFit(wasm, X, y, d, o);
      expectSame(a.termFlags, c.termFlags, 0, "mars parity (terms)");
      expectSame(a.dirs, c.dirs, 0, "mars parity (directions)");
      expectSame(a.cuts, c.cuts, 0, "mars parity (knots)");
      expectSame(a.coef, c.coef, 1e-9, "mars parity (coefficients)");
      const sel = Array.from(a.termFlags.keys()).filter((t) => a.termFlags[t] & 2);
      // Selected terms' rows of the nk × d direction and knot tables.
      const model = [
        Int32Array.from(sel.flatMap((t) => Array.from(a.dirs.subarray(t * d, (t + 1) * d)))),
        Float64Array.from(sel.flatMap((t) => Array.from(a.cuts.subarray(t * d, (t + 1) * d)))),
        Float64Array.from(sel.map((t) => a.coef[t])),
      ] as const;
      const Q = randomArray(50 * d, 56);
      expectSame(marsPredict(native, ...model, d, Q), marsPredict(wasm, ...model, d, Q), 1e-12, "mars parity (predictions)");
    },
  },
  {
    name: "lsp.lspFit/lspEval",
    run(b) {
      // f = 1 + 2x - y on six points: every local fit exact, so the interpolant reproduces f; at a node, f_k.
      const X = Float64Array.from([0, 0, 1, 0, 0, 1, 1, 1, 2, 0, 0, 2]);
      const f = Float64Array.from([1, 3, 0, 2, 5, -1]);
      const fit = lspFit(b, X, f, 2);
      expectClose(fit.A, [2, -1, 2, -1, 2, -1, 2, -1, 2, -1, 2, -1], 1e-12, "lsp gradients");
      const ev = lspEval(b, { X, f, A: fit.A, rw: fit.rw, m: 2 }, Float64Array.from([0.5, 0.5, 1, 1]));
      expectClose(ev.values, [1.5, 2], 1e-12, "lsp values");
    },
    parity(native, wasm) {
      const n = 400,
        m = 4;
      const X = randomArray(n * m, 31),
        f = randomArray(n, 32),
        Q = randomArray(100 * m, 33);
      const a = lspFit(native, X, f, m),
        c = lspFit(wasm, X, f, m);
      expectSame(a.rw, c.rw, 0, "lsp parity (radii)");
      const ea = lspEval(native, { X, f, A: a.A, rw: a.rw, m }, Q),
        ec = lspEval(wasm, { X, f, A: a.A, rw: a.rw, m }, Q);
      for (let i = 0; i < ea.values.length; i++)
        if (!(Math.abs(ea.values[i] - ec.values[i]) <= 1e-12 * Math.max(1, Math.abs(ea.values[i]))))
          throw new Error(`lsp parity: query ${i}: native ${ea.values[i]}, wasm ${ec.values[i]}`);
    },
  },
  {
    name: "lsp.lspNeighbors/lspSubsets",
    run(b) {
      // The six points above plus (2, 2): subsets' fits and values equal lspFit + lspEval on the gathered rows.
      const X = Float64Array.from([0, 0, 1, 0, 0, 1, 1, 1, 2, 0, 0, 2, 2, 2]);
      const f = Float64Array.from([1, 3, 0, 2, 5, -1, 3]);
      const table = lspNeighborTable(b, X, 2);
      const train = Int32Array.from([0, 1, 2, 4, 5, 6]),
        query = Int32Array.from([3, 0]);
      const [r] = lspSubsets(b, table, f, [{ train, query }]);
      const Xt = Float64Array.from([0, 0, 1, 0, 0, 1, 2, 0, 0, 2, 2, 2]),
        ft = Float64Array.from([1, 3, 0, 5, -1, 3]);
      const fit = lspFit(b, Xt, ft, 2);
      const ev = lspEval(b, { X: Xt, f: ft, A: fit.A, rw: fit.rw, m: 2 }, Float64Array.from([1, 1, 0, 0]));
      expectClose([r.status], [0], 0, "lsp subsets status");
      expectClose(r.A, fit.A, 0, "lsp subsets gradients");
      expectClose(r.rw, fit.rw, 0, "lsp subsets radii");
      expectClose(r.values, ev.values, 0, "lsp subsets values");
    },
    parity(native, wasm) {
      const n = 300,
        m = 4;
      const X = randomArray(n * m, 34),
        f = randomArray(n, 35);
      const ta = lspNeighborTable(native, X, m),
        tc = lspNeighborTable(wasm, X, m);
      expectSame(ta.nd2, tc.nd2, 0, "lsp table parity (distances)");
      expectSame(ta.nbr, tc.nbr, 0, "lsp table parity (rows)");
      const train = Int32Array.from({ length: 150 }, (_, i) => 2 * i),
        query = Int32Array.from({ length: 150 }, (_, i) => 2 * i + 1);
      const [a] = lspSubsets(native, ta, f, [{ train, query }]),
        [c] = lspSubsets(wasm, tc, f, [{ train, query }]);
      expectSame(a.rw, c.rw, 0, "lsp subsets parity (radii)");
      for (let i = 0; i < a.values.length; i++)
        if (!(Math.abs(a.values[i] - c.values[i]) <= 1e-12 * Math.max(1, Math.abs(a.values[i]))))
          throw new Error(`lsp subsets parity: query ${i}: native ${a.values[i]}, wasm ${c.values[i]}`);
    },
  },
  {
    name: "delaunay.delaunayLocate",
    run(b) {
      // Unit square and its centre: (0.5, 0.1) lies in triangle (0, 1, 4); (2, 0.5) projects onto x = 1 at distance 1.
      const X = Float64Array.from([0, 0, 1, 0, 0, 1, 1, 1, 0.5, 0.5]);
      const r = delaunayLocate(b, X, Float64Array.from([0.5, 0.1, 2, 0.5]), 2);
      expectClose(Array.from(r.simplices.subarray(0, 3)), [0, 1, 4], 0, "delaunay simplex");
      expectClose(r.weights.subarray(0, 3), [0.4, 0.4, 0.2], 1e-14, "delaunay weights");
      expectClose([r.status[0], r.status[1], r.rnorm[1]], [0, 1, 1], 1e-14, "delaunay extrapolation");
    },
    parity(native, wasm) {
      // 300 random points in 4 inputs, 100 queries inside and outside their hull.
      const X = randomArray(300 * 4, 52),
        Q = randomArray(100 * 4, 53).map((v) => v * 1.2);
      const a = delaunayLocate(native, X, Q, 4),
        c = delaunayLocate(wasm, X, Q, 4);
      expectSame(a.status, c.status, 0, "delaunay parity (status)");
      expectSame(a.simplices, c.simplices, 0, "delaunay parity (simplices)");
      expectSame(a.weights, c.weights, 1e-10, "delaunay parity (weights)");
      expectSame(a.rnorm, c.rnorm, 1e-10, "delaunay parity (hull distances)");
    },
  },
  {
    name: "mixture.mixtureFit",
    run(b) {
      // One normal component: the closed-form MLE (mean 3, ML sd sqrt(2.5)); log L = -n/2 (log(2π σ²) + 1).
      const x = Float64Array.from([1, 2, 3, 4, 5, 1, 2, 3, 4, 5].map((v) => v));
      const r = mixtureFit(b, { runs: x, offsets: Int32Array.from([0, 10]), models: [[0, 1]] });
      const s2 = 2;
      expectClose([r.params[1], r.params[2], r.loglik[0]], [3, Math.sqrt(s2), -5 * (Math.log(2 * Math.PI * s2) + 1)], 1e-12, "mixture normal k=1");
    },
    parity(native, wasm) {
      // 4 configurations of 40 positive runs, normal and lognormal mixtures with k = 1..3.
      const runs = randomArray(160, 54).map((v, i) => (i % 40 < 12 ? 50 : 100) + 3 * v);
      const input = {
        runs,
        offsets: Int32Array.from([0, 40, 80, 120, 160]),
        models: [
          [0, 1],
          [0, 2],
          [3, 1],
          [3, 3],
        ] as [number, number][],
        seed: 1,
      };
      const a = mixtureFit(native, input),
        c = mixtureFit(wasm, input);
      expectSame(a.loglik, c.loglik, 1e-9, "mixture parity (log-likelihoods)");
      expectSame(a.iterations, c.iterations, 0, "mixture parity (iterations)");
    },
  },
  {
    name: "symeig.symeig",
    run(b) {
      // [[2, 1], [1, 2]]: eigenvalues 1 and 3.
      const r = symeig(b, Float64Array.from([2, 1, 1, 2]), 2);
      expectClose(
        Array.from(r.values).sort((x, y) => x - y),
        [1, 3],
        1e-14,
        "symeig values",
      );
    },
    parity(native, wasm) {
      const m = 30;
      const R = randomArray(m * m, 55);
      const A = Float64Array.from({ length: m * m }, (_, k) => R[k] + R[(k % m) * m + Math.floor(k / m)]);
      const sorted = (v: Float64Array) => Float64Array.from(v).sort();
      expectSame(sorted(symeig(native, A, m).values), sorted(symeig(wasm, A, m).values), 1e-12, "symeig parity (eigenvalues)");
    },
  },
  {
    name: "symeig.symtrid",
    run(b) {
      // [[2, 1, 1], [1, 2, 1], [1, 1, 2]]: the tridiagonal keeps the trace 6 and the eigenvalues 1, 1, 4 (det 4).
      const t = symtrid(b, Float64Array.from([2, 1, 1, 1, 2, 1, 1, 1, 2]), 3);
      const [d0, d1, d2] = t.d,
        [, e1, e2] = t.e;
      expectClose([d0 + d1 + d2, d0 * d1 * d2 - d0 * e2 * e2 - d2 * e1 * e1], [6, 4], 1e-13, "symtrid trace and determinant");
    },
    parity(native, wasm) {
      const m = 30;
      const R = randomArray(m * m, 56);
      const A = Float64Array.from({ length: m * m }, (_, k) => R[k] + R[(k % m) * m + Math.floor(k / m)]);
      expectSame(symtrid(native, A, m).d, symtrid(wasm, A, m).d, 1e-12, "symtrid parity (diagonal)");
    },
  },
  {
    name: "symeig.rbfgram",
    run(b) {
      // Three points at distance 1, 1, √2 (thin plate: φ(1) = 0, φ(√2) = ln 2); no tail (q = 0): B = K.
      const { K, B } = rbfgram(b, Float64Array.from([0, 0, 1, 0, 0, 1]), 3, 2, false, new Float64Array(0), 0);
      expectClose([K[1], K[2], K[5], B[3 * 2 + 1]], [0, 0, Math.log(2), Math.log(2)], 1e-14, "rbfgram thin plate");
    },
    parity(native, wasm) {
      const n = 20,
        R = randomArray(n * 2, 57);
      const V = new Float64Array(n);
      V[0] = 1; // H = I − 2 e_0 e_0ᵀ
      expectSame(rbfgram(native, R, n, 2, false, V, 1).B, rbfgram(wasm, R, n, 2, false, V, 1).B, 1e-12, "rbfgram parity");
    },
  },
  {
    name: "gev.gev",
    run(b) {
      // GEV(10, 2, 0.1) quantiles at i/51: converged, stationary (max |g|·SE tiny), estimates near the truth;
      // a constant configuration in the same batch is flagged degenerate (status 2).
      const x = Float64Array.from({ length: 50 }, (_, i) => 10 + (2 * ((-Math.log((i + 1) / 51)) ** -0.1 - 1)) / 0.1);
      const r = gevFitBatch(b, Float64Array.from([...x, 3, 3, 3, 3]), Int32Array.from([0, 50, 54]));
      if (r.status[0] !== 0 || r.status[1] !== 2) throw new Error(`gev: statuses ${r.status[0]}, ${r.status[1]}, expected 0, 2`);
      if (!(r.out[13] < 1e-8)) throw new Error(`gev: not stationary (max |g|·SE = ${r.out[13]})`);
      expectClose([r.out[0], r.out[1], r.out[2]], [10, 2, 0.1], 0.1, "gev estimates");
    },
    parity(native, wasm) {
      const x = randomArray(40 * 60, 41).map((v) => Math.exp(v / 3));
      const off = Int32Array.from({ length: 41 }, (_, k) => 60 * k);
      const a = gevFitBatch(native, x, off),
        c = gevFitBatch(wasm, x, off);
      expectSame(a.status, c.status, 0, "gev parity (status)");
      for (let k = 0; k < 40; k++) expectSame(a.out.subarray(k * GEV_OUT, k * GEV_OUT + 3), c.out.subarray(k * GEV_OUT, k * GEV_OUT + 3), 1e-10, "gev parity");
    },
  },
  {
    name: "lsp.lspWeights",
    run(b) {
      // The weights lspEval combines: with zero gradients the interpolant is Σ w_k f_k; at a node, weight 1 there.
      const X = Float64Array.from([0, 0, 1, 0, 0, 1, 1, 1, 2, 0, 0, 2, 2, 2]);
      const f = Float64Array.from([1, 3, 0, 2, 5, -1, 3]);
      const { rw } = lspFit(b, X, f, 2);
      const Q = Float64Array.from([1, 1, 0.4, 0.7, 1.6, 1.2]);
      const w = lspWeights(b, { X, rw, m: 2 }, Q);
      const ev = lspEval(b, { X, f, A: new Float64Array(X.length), rw, m: 2 }, Q);
      expectClose([w.code[0], w.offsets[1], w.index[0], w.weight[0]], [3, 1, 3, 1], 0, "lsp weights at a node");
      for (let q = 0; q < 3; q++) {
        let sum = 0,
          value = 0;
        for (let k = w.offsets[q]; k < w.offsets[q + 1]; k++) (sum += w.weight[k]), (value += w.weight[k] * f[w.index[k]]);
        expectClose([sum, value], [1, ev.values[q]], 1e-13, `lsp weights at query ${q}`);
      }
    },
    parity(native, wasm) {
      const n = 300,
        m = 4;
      const X = randomArray(n * m, 36),
        Q = randomArray(80 * m, 37);
      const { rw } = lspFit(native, X, randomArray(n, 38), m);
      const a = lspWeights(native, { X, rw, m }, Q),
        c = lspWeights(wasm, { X, rw, m }, Q);
      expectSame(a.offsets, c.offsets, 0, "lsp weights parity (counts)");
      expectSame(a.index, c.index, 0, "lsp weights parity (nodes)");
      expectSame(a.weight, c.weight, 0, "lsp weights parity (weights)");
    },
  },
  {
    name: "gp.gp_nll/gp_predict/gp_local_predict",
    run(b) {
      // Matérn 5/2 on 8 points in 2 inputs, a constant mean. The gradient is the likelihood's (central differences);
      // with a tiny nugget the GP interpolates its training residuals; local prediction from every point is the exact one.
      const n = 8,
        d = 2;
      const X = Float64Array.from([0, 0, 0.3, 0.1, 0.6, 0.2, 0.9, 0.4, 0.1, 0.8, 0.5, 0.5, 0.8, 0.9, 0.35, 0.65]);
      const y = Float64Array.from([1, 1.4, 1.1, 0.2, 2, 1.3, 0.7, 1.6]);
      const H = new Float64Array(n).fill(1);
      const nll = (theta: number[]): GpLikelihood => {
        const r = gpNll(b, X, y, H, n, d, 1, "matern52", Float64Array.from(theta), true);
        if ("status" in r) throw new Error(`gp_nll: status ${r.status} at theta ${theta.join(", ")}`);
        return r;
      };
      const theta = [Math.log(0.4), Math.log(0.6), Math.log(0.05)];
      const at = nll(theta);
      const h = 1e-5;
      const fd = theta.map((_, j) => (nll(theta.map((t, k) => (k === j ? t + h : t))).nll - nll(theta.map((t, k) => (k === j ? t - h : t))).nll) / (2 * h));
      expectClose(at.grad, fd, 1e-6, "gp_nll gradient against central differences");
      const exact = [Math.log(0.4), Math.log(0.6), Math.log(1e-9)];
      const fit = nll(exact);
      const p = gpPredict(b, X, n, d, "matern52", Float64Array.from(exact), fit.L, fit.alpha, X, n);
      expectClose(
        p.mean,
        y.map((v) => v - fit.beta[0]),
        1e-6,
        "gp_predict at the training points (residuals)",
      );
      expectClose(p.variance, new Float64Array(n), 1e-6, "gp_predict variance at the training points");
      const Xq = Float64Array.from([0.2, 0.3, 0.7, 0.7, 1.2, -0.1]);
      const res = y.map((v) => v - at.beta[0]);
      const all = Int32Array.from({ length: 3 * n }, (_, k) => k % n);
      const e = gpPredict(b, X, n, d, "matern52", Float64Array.from(theta), at.L, at.alpha, Xq, 3);
      const l = gpLocalPredict(b, X, n, d, "matern52", Float64Array.from(theta), res, all, n, Xq, 3);
      if ("status" in l) throw new Error(`gp_local_predict: status ${l.status}`);
      expectClose(l.mean, e.mean, 1e-12, "gp_local_predict mean (every point a neighbour)");
      expectClose(l.variance, e.variance, 1e-12, "gp_local_predict variance (every point a neighbour)");
    },
    parity(native, wasm) {
      // 60 random points in 3 inputs with measured noise, Matérn 3/2: the same bits on both backends.
      const n = 60,
        d = 3;
      const X = randomArray(n * d, 61).map((v) => v / 10 + 0.5),
        y = randomArray(n, 62),
        v = randomArray(n, 63).map((x) => (x + 5) / 10);
      const H = Float64Array.from({ length: n * 2 }, (_, k) => (k % 2 === 0 ? 1 : X[(k >> 1) * d]));
      const theta = Float64Array.from([Math.log(0.3), Math.log(0.5), Math.log(0.8), Math.log(0.02), Math.log(0.1)]);
      const a = gpNll(native, X, y, H, n, d, 2, "matern32", theta, true, v),
        c = gpNll(wasm, X, y, H, n, d, 2, "matern32", theta, true, v);
      if ("status" in a || "status" in c) throw new Error("gp parity: the covariance is not positive definite");
      expectSame([a.nll, a.sigma2, ...a.grad], [c.nll, c.sigma2, ...c.grad], 0, "gp_nll parity");
      expectSame(a.L, c.L, 0, "gp_nll parity (factor)");
      const Xq = randomArray(20 * d, 64).map((x) => x / 10 + 0.5);
      const pa = gpPredict(native, X, n, d, "matern32", theta.subarray(0, d + 1), a.L, a.alpha, Xq, 20),
        pc = gpPredict(wasm, X, n, d, "matern32", theta.subarray(0, d + 1), a.L, a.alpha, Xq, 20);
      expectSame([...pa.mean, ...pa.variance], [...pc.mean, ...pc.variance], 0, "gp_predict parity");
      const nbr = Int32Array.from({ length: 20 * 15 }, (_, k) => (k * 7 + Math.floor(k / 15) * 3) % n);
      const res = y.map((t, i) => t - a.beta[0] - a.beta[1] * X[i * d]);
      const la = gpLocalPredict(native, X, n, d, "matern32", theta, res, nbr, 15, Xq, 20, v),
        lc = gpLocalPredict(wasm, X, n, d, "matern32", theta, res, nbr, 15, Xq, 20, v);
      if ("status" in la || "status" in lc) throw new Error("gp_local_predict parity: a local covariance is not positive definite");
      expectSame([...la.mean, ...la.variance], [...lc.mean, ...lc.variance], 0, "gp_local_predict parity");
    },
  },
];
