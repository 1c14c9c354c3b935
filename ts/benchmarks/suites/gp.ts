// The GP's profile marginal likelihood with its gradient (gp_nll): one evaluation of the hyperparameter search that
// dominates a gp fit (about a hundred of them per fit), on the 400 points that search uses (GP_HYPER_POINTS) and on a
// whole 800-point map, with one nugget and with measured per-point noise. Matérn 3/2 (gp's default), linear mean.
import { gpNll } from "../../backend/kernels/gp.js";
import { lazy, uniform } from "../inputs.js";
import type { BenchCase, BenchSuite } from "../runner.js";

const d = 4;

function nllCase(n: number, measured: boolean): BenchCase {
  const data = lazy(() => {
    const X = uniform(n * d, 11);
    const y = Float64Array.from({ length: n }, (_, i) => Math.sin(3 * X[i * d]) + X[i * d + 1] * X[i * d + 2] + 0.1 * Math.cos(7 * X[i * d + 3]));
    // Linear mean: a column of ones and the inputs.
    const H = new Float64Array(n * (d + 1));
    for (let i = 0; i < n; i++) {
      H[i * (d + 1)] = 1;
      for (let k = 0; k < d; k++) H[i * (d + 1) + 1 + k] = X[i * d + k];
    }
    const v = measured ? Float64Array.from(uniform(n, 12), (u) => 0.2 + 1.6 * u) : undefined;
    const theta = Float64Array.from([...Array(d).fill(Math.log(0.4)), Math.log(0.01), ...(measured ? [Math.log(0.02)] : [])]);
    return { X, y, H, v, theta };
  });
  return {
    name: `n=${n} d=${d} ${measured ? "measured noise" : "one nugget"}`,
    items: 1,
    itemName: "evaluations",
    kernel(backend) {
      const { X, y, H, v, theta } = data();
      return () => gpNll(backend, X, y, H, n, d, d + 1, "matern32", theta, true, v);
    },
  };
}

const suite: BenchSuite = {
  kernel: "gp_nll",
  description: "GP profile negative log marginal likelihood and its gradient (Cholesky of the n × n correlation matrix)",
  cases: [nllCase(400, false), nllCase(400, true), nllCase(800, true)],
};
export default suite;
