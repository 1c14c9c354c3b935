// LSP (linear Shepard) fit and evaluation on the synthetic problems of ../shared/golden/synthetic-* (x uniform
// in [0,1]^d, f = Σ sin(3 x_j), 1,100 queries), generated here with the same distribution so the suite runs
// without ../shared. bench/lsp-workload.ts times the exact golden files against SHEPPACK's anchors.
import { lspEval, lspFit } from "../../ts/backend/kernels/lsp.js";
import { uniform } from "../data.js";
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

const suite: BenchSuite = {
  kernel: "lsp",
  description: "linear Shepard: LSHEP's fit (neighbours + local minimum-norm least squares) and LSHEPVAL's batched evaluation",
  cases: [fitCase(4, 1000), evalCase(4, 1000), fitCase(4, 10000), evalCase(4, 10000), fitCase(8, 1000), evalCase(8, 1000), fitCase(8, 10000), evalCase(8, 10000), fitCase(20, 1000), evalCase(20, 1000)],
};
export default suite;
