// The k nearest neighbours of each query.
import { knn } from "../../backend/kernels/neighbors.js";
import { lazy, uniform } from "../inputs.js";
import type { BenchSuite } from "../runner.js";

/** Plain TypeScript brute force with a sorted insertion list (ties by lower index). */
function knnTs(X: Float64Array, n: number, Q: Float64Array, nq: number, d: number, k: number, self: boolean, idx: Int32Array, dist: Float64Array): void {
  for (let i = 0; i < nq; i++) {
    const o = i * k;
    let size = 0;
    for (let j = 0; j < n; j++) {
      if (self && j === i) continue;
      let s = 0;
      for (let c = 0; c < d; c++) {
        const t = Q[i * d + c] - X[j * d + c];
        s += t * t;
      }
      if (size === k && s >= dist[o + k - 1]) continue;
      let p = size < k ? size++ : k - 1;
      while (p > 0 && dist[o + p - 1] > s) {
        dist[o + p] = dist[o + p - 1];
        idx[o + p] = idx[o + p - 1];
        p--;
      }
      dist[o + p] = s;
      idx[o + p] = j;
    }
    for (let r = 0; r < k; r++) dist[o + r] = Math.sqrt(dist[o + r]);
  }
}

function neighborCase(name: string, nq: number, n: number, d: number, k: number, self: boolean): BenchSuite["cases"][number] {
  const data = lazy(() => {
    const X = uniform(n * d, 3);
    return { X, Q: self ? X : uniform(nq * d, 4), out: { indices: new Int32Array(nq * k), distances: new Float64Array(nq * k) } };
  });
  return {
    name,
    items: nq,
    itemName: "queries",
    kernel(backend) {
      const { X, Q, out } = data();
      return () => knn(backend, X, Q, d, k, { excludeSelf: self, out });
    },
    baseline() {
      const { X, Q, out } = data();
      return () => knnTs(X, n, Q, nq, d, k, self, out.indices, out.distances);
    },
  };
}

const suite: BenchSuite = {
  kernel: "knn",
  description: "exact k nearest neighbours of every query (brute force, ties by lower index)",
  cases: [
    // LSP on the MOANA map: 864 nodes in 4 inputs, each node's NP = 6 nearest other nodes.
    neighborCase("LSP nodes n=864 d=4 k=6 (others)", 864, 864, 4, 6, true),
    neighborCase("q=1000 n=10000 d=8 k=10", 1000, 10000, 8, 10, false),
  ],
};
export default suite;
