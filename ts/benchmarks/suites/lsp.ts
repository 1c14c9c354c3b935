// LSP (linear Shepard) fit and evaluation on the synthetic problems of ../shared/golden/synthetic-* (x uniform
// in [0,1]^d, f = Σ sin(3 x_j), 1,100 queries), generated here with the same distribution so the suite runs
// without ../shared; and cross-validation's many-subset path on a map shaped like MOANA's. bench/lsp-workload.ts
// times the exact golden files against SHEPPACK's anchors.
import { lspEval, lspFit, lspNeighborTable, lspSubsets } from "../../backend/kernels/lsp.js";
import { uniform } from "../inputs.js";
import type { BenchSuite } from "../runner.js";

function problem(d: number, n: number) {
  const X = uniform(n * d, 10 + d);
  const f = new Float64Array(n);
  for (let i = 0; i < n; i++) for (let j = 0; j < d; j++) f[i] += Math.sin(3 * X[i * d + j]);
  const Q = uniform(1100 * d, 20 + d);
  return { X, f, Q };
}

function fitCase(d: number, n: number): BenchSuite["cases"][number] {
  return {
    name: `fit d=${d} n=${n}`,
    items: n,
    itemName: "nodes",
    kernel: (backend) => {
      const p = problem(d, n);
      return () => lspFit(backend, p.X, p.f, d);
    },
  };
}

function evalCase(d: number, n: number): BenchSuite["cases"][number] {
  return {
    name: `eval d=${d} n=${n} q=1100`,
    items: 1100,
    itemName: "queries",
    kernel: (backend) => {
      const p = problem(d, n);
      const m = lspFit(backend, p.X, p.f, d);
      return () => lspEval(backend, { X: p.X, f: p.f, A: m.A, rw: m.rw, m: d }, p.Q);
    },
  };
}

// 180 splits (p = 0.1 … 0.9, 20 each) of an 864-point 4-d grid (6 × 6 × 6 × 4 levels, like the MOANA map):
// the map's neighbour table and every split's fit + evaluation at its test points, as ts/cv runs them.
function cvCase(): BenchSuite["cases"][number] {
  return {
    name: "cv 180 splits n=864 d=4 (table + subsets)",
    items: 180,
    itemName: "splits",
    kernel: (backend) => {
      const levels = [6, 6, 6, 4],
        n = 864;
      const X = new Float64Array(n * 4);
      for (let i = 0; i < n; i++) for (let j = 0, r = i; j < 4; r = Math.floor(r / levels[j]), j++) X[i * 4 + j] = (r % levels[j]) / (levels[j] - 1);
      const f = new Float64Array(n);
      for (let i = 0; i < n; i++) for (let j = 0; j < 4; j++) f[i] += Math.sin(3 * X[i * 4 + j]);
      const u = uniform(180 * n, 7);
      const splits = Array.from({ length: 180 }, (_, s) => {
        const p = 0.1 * (1 + Math.floor(s / 20)),
          train: number[] = [],
          query: number[] = [];
        for (let i = 0; i < n; i++) (u[s * n + i] < p ? train : query).push(i);
        return { train: Int32Array.from(train), query: Int32Array.from(query) };
      });
      return () => lspSubsets(backend, lspNeighborTable(backend, X, 4), f, splits);
    },
  };
}

const suite: BenchSuite = {
  kernel: "lsp",
  description: "linear Shepard: LSHEP's fit (neighbours + local minimum-norm least squares) and LSHEPVAL's batched evaluation",
  cases: [
    fitCase(4, 1000),
    evalCase(4, 1000),
    fitCase(4, 10000),
    evalCase(4, 10000),
    fitCase(8, 1000),
    evalCase(8, 1000),
    fitCase(8, 10000),
    evalCase(8, 10000),
    fitCase(20, 1000),
    evalCase(20, 1000),
    cvCase(),
  ],
};
export default suite;
