// The symmetric eigendecomposition behind rbf's exact solve (its GCV search over the smoothing parameter reuses one
// decomposition): the thin-plate kernel matrix r² log r of n scattered points in 4 inputs, as rbf builds it.
import { symeig } from "../../backend/kernels/symeig.js";
import { lazy, uniform } from "../inputs.js";
import type { BenchCase, BenchSuite } from "../runner.js";

const d = 4;

function thinPlateCase(n: number): BenchCase {
  const data = lazy(() => {
    const X = uniform(n * d, 21);
    const A = new Float64Array(n * n);
    for (let i = 0; i < n; i++)
      for (let j = 0; j < n; j++) {
        let r2 = 0;
        for (let k = 0; k < d; k++) r2 += (X[i * d + k] - X[j * d + k]) ** 2;
        A[i * n + j] = r2 > 0 ? 0.5 * r2 * Math.log(r2) : 0;
      }
    return A;
  });
  return {
    name: `thin-plate n=${n}`,
    items: 1,
    itemName: "decompositions",
    kernel(backend) {
      const A = data();
      return () => symeig(backend, A, n);
    },
  };
}

const suite: BenchSuite = {
  kernel: "symeig",
  description: "all eigenvalues and eigenvectors of a symmetric matrix (rbf's thin-plate kernel matrix)",
  cases: [thinPlateCase(400), thinPlateCase(800)],
};
export default suite;
