// Squared distances from q query rows to n data rows.
import { sqdist } from "../../backend/kernels/distances.js";
import { lazy, uniform } from "../inputs.js";
import type { BenchSuite } from "../runner.js";

/** The plain TypeScript loop the kernel replaces. */
function sqdistTs(X: Float64Array, n: number, Q: Float64Array, nq: number, d: number, out: Float64Array): void {
  for (let i = 0; i < nq; i++)
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (let k = 0; k < d; k++) {
        const t = Q[i * d + k] - X[j * d + k];
        s += t * t;
      }
      out[i * n + j] = s;
    }
}

function distanceCase(nq: number, n: number, d: number): BenchSuite["cases"][number] {
  const data = lazy(() => ({ X: uniform(n * d, 1), Q: uniform(nq * d, 2), out: new Float64Array(nq * n) }));
  return {
    name: `q=${nq} n=${n} d=${d}`,
    items: nq * n,
    itemName: "distances",
    kernel(backend) {
      const { X, Q, out } = data();
      return () => sqdist(backend, X, Q, d, out);
    },
    baseline() {
      const { X, Q, out } = data();
      return () => sqdistTs(X, n, Q, nq, d, out);
    },
  };
}

const suite: BenchSuite = {
  kernel: "sqdist",
  description: "all squared Euclidean distances between query rows and data rows",
  cases: [distanceCase(1000, 10000, 8), distanceCase(864, 864, 4)],
};
export default suite;
