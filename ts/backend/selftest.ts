// Self-tests of every kernel, run by `varmap doctor` on each backend: small problems with known answers.
// Each kernel adds one entry here.
import type { KernelBackend } from "./kernel.js";
import { sqdist } from "./kernels/distances.js";
import { knn } from "./kernels/neighbors.js";
import { lstsq } from "./kernels/lstsq.js";

export interface SelfTest {
  name: string;
  /** Throws when the kernel's answer is wrong. */
  run(backend: KernelBackend): void;
}

function expectClose(got: ArrayLike<number>, want: ArrayLike<number>, tol: number, what: string): void {
  for (let i = 0; i < want.length; i++)
    if (!(Math.abs(got[i] - want[i]) <= tol * Math.max(1, Math.abs(want[i]))))
      throw new Error(`${what}: element ${i} is ${got[i]}, expected ${want[i]}`);
}

export const selfTests: SelfTest[] = [
  {
    name: "distances.sqdist",
    run(b) {
      const X = Float64Array.from([0, 0, 3, 4, 1, 1]);
      const Q = Float64Array.from([0, 0, 1, 2]);
      expectClose(sqdist(b, X, Q, 2), [0, 25, 2, 5, 8, 1], 1e-15, "sqdist");
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
  },
  {
    name: "lstsq.lstsq",
    run(b) {
      // y = 1 + 2x (full rank) and x1 + 2 x2 = 3 (minimum norm: (0.6, 1.2), rank 1).
      const r = lstsq(b, { A: Float64Array.from([1, 0, 1, 1, 1, 2, 1, 2]), b: Float64Array.from([1, 3, 5, 3]), offsets: Int32Array.from([0, 3, 4]), n: 2 });
      expectClose(r.x, [1, 2, 0.6, 1.2], 1e-13, "lstsq");
      if (r.rank[0] !== 2 || r.rank[1] !== 1) throw new Error(`lstsq: ranks ${r.rank[0]}, ${r.rank[1]}, expected 2, 1`);
    },
  },
];
