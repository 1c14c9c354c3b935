// Batched weighted least squares of the LSP shape: each node's local linear fit, NP = 6 rows x 4 unknowns.
import { lstsq } from "../../backend/kernels/lstsq.js";
import { lazy, uniform } from "../inputs.js";
import type { BenchSuite } from "../runner.js";

/**
 * Plain TypeScript baseline for full-rank problems: Householder QR of the weighted rows, then back substitution.
 * (The kernel also decides the rank and returns minimum-norm solutions; the random problems here are full rank.)
 */
function lstsqTs(A: Float64Array, b: Float64Array, w: Float64Array, m: number, n: number, nprob: number, x: Float64Array): void {
  const M = new Float64Array(m * n),
    c = new Float64Array(m);
  for (let p = 0; p < nprob; p++) {
    const o = p * m;
    for (let i = 0; i < m; i++) {
      for (let j = 0; j < n; j++) M[j * m + i] = w[o + i] * A[(o + i) * n + j];
      c[i] = w[o + i] * b[o + i];
    }
    for (let k = 0; k < n; k++) {
      let norm2 = 0;
      for (let i = k; i < m; i++) norm2 += M[k * m + i] ** 2;
      const alpha = M[k * m + k] >= 0 ? -Math.sqrt(norm2) : Math.sqrt(norm2);
      const vk = M[k * m + k] - alpha;
      const tau = 2 / (norm2 - M[k * m + k] ** 2 + vk * vk);
      M[k * m + k] = vk;
      for (let j = k + 1; j <= n; j++) {
        const col = j < n ? M : c,
          base = j < n ? j * m : 0; // column j of M, or the right-hand side
        let s = 0;
        for (let i = k; i < m; i++) s += M[k * m + i] * col[base + i];
        const f = s * tau;
        for (let i = k; i < m; i++) col[base + i] -= f * M[k * m + i];
      }
      M[k * m + k] = alpha;
    }
    for (let i = n - 1; i >= 0; i--) {
      let s = c[i];
      for (let j = i + 1; j < n; j++) s -= M[j * m + i] * x[p * n + j];
      x[p * n + i] = s / M[i * m + i];
    }
  }
}

// 117 maps x 864 nodes: one LSP refit of every MOANA-sized map.
const nprob = 117 * 864,
  m = 6,
  n = 4;
const data = lazy(() => {
  const A = uniform(nprob * m * n, 5).map((v) => v * 2 - 1);
  const b = uniform(nprob * m, 6);
  const w = uniform(nprob * m, 7).map((v) => 0.1 + v);
  const offsets = Int32Array.from({ length: nprob + 1 }, (_, k) => k * m);
  return { A, b, w, offsets, x: new Float64Array(nprob * n), rank: new Int32Array(nprob) };
});

const suite: BenchSuite = {
  kernel: "lstsq",
  description: "weighted least squares for a batch of small independent problems (minimum-norm, rank per problem)",
  cases: [
    {
      name: `LSP shape ${m}x${n} weighted, ${nprob} problems`,
      items: nprob,
      itemName: "problems",
      kernel(backend) {
        const { A, b, w, offsets, x, rank } = data();
        return () => lstsq(backend, { A, b, w, offsets, n }, { x, rank });
      },
      baseline() {
        const { A, b, w, x } = data();
        return () => lstsqTs(A, b, w, m, n, nprob, x);
      },
    },
  ],
};
export default suite;
