// gp's local prediction (gp_local_predict): each of 1,000 queries predicted from its m nearest of 10,000 training
// points by the exact GP equations on them (an m × m Cholesky per query), the part of a local gp's prediction after
// the knn call (the knn suite times that). Matérn 3/2 (gp's default) with measured per-point noise.
import { gpLocalPredict } from "../../backend/kernels/gp.js";
import { lazy, uniform } from "../inputs.js";
import type { BenchCase, BenchSuite } from "../runner.js";

const d = 4;
const n = 10_000;
const q = 1_000;

/** The m nearest training rows of each query (plain brute force, once per case: not what is timed). */
function nearest(X: Float64Array, Q: Float64Array, m: number): Int32Array {
  const out = new Int32Array(q * m);
  const dist = new Float64Array(n);
  const order = Int32Array.from({ length: n }, (_, i) => i);
  for (let r = 0; r < q; r++) {
    for (let i = 0; i < n; i++) {
      let s = 0;
      for (let k = 0; k < d; k++) s += (Q[r * d + k] - X[i * d + k]) ** 2;
      dist[i] = s;
    }
    order.sort((a, b) => dist[a] - dist[b] || a - b);
    out.set(order.subarray(0, m), r * m);
    order.sort((a, b) => a - b);
  }
  return out;
}

function localCase(m: number): BenchCase {
  const data = lazy(() => {
    const X = uniform(n * d, 21);
    const Q = uniform(q * d, 22);
    const res = Float64Array.from({ length: n }, (_, i) => Math.sin(3 * X[i * d]) + X[i * d + 1] * X[i * d + 2]);
    const v = Float64Array.from(uniform(n, 23), (u) => 0.2 + 1.6 * u);
    const theta = Float64Array.from([...Array(d).fill(Math.log(0.4)), Math.log(0.01), Math.log(0.02)]);
    return { X, Q, res, v, theta, neighbours: nearest(X, Q, m) };
  });
  return {
    name: `n=${n} d=${d} m=${m} measured noise`,
    items: q,
    itemName: "queries",
    kernel(backend) {
      const { X, Q, res, v, theta, neighbours } = data();
      return () => gpLocalPredict(backend, X, n, d, "matern32", theta, res, neighbours, m, Q, q, v);
    },
  };
}

const suite: BenchSuite = {
  kernel: "gp_local_predict",
  description: "GP local prediction: per query the exact equations on its m nearest training points (an m × m Cholesky each)",
  cases: [localCase(100), localCase(200)],
};
export default suite;
