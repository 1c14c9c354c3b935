// Delaunay simplex location (one batched call per operation) on the synthetic problems of issue #5. The n = 10,000
// cases at d >= 8 time a subset of the queries so that benchmark.js's samples stay short; the full runs and the
// 180-split MOANA pass are in bench/delaunay-workload.ts.
import { delaunayLocate } from "../../ts/backend/kernels/delaunay.js";
import { querySubset, syntheticProblem } from "../delaunay-data.js";
import type { BenchCase, BenchSuite } from "../runner.js";

function locateCase(d: number, n: number, inside: number, outside: number): BenchCase {
  const p = syntheticProblem(d, n);
  const Q = querySubset(p, inside, outside);
  return {
    name: `d=${d} n=${n} q=${inside}+${outside} out (${p.source})`,
    items: inside + outside,
    itemName: "queries",
    kernel: (backend) => () => delaunayLocate(backend, p.X, Q, d),
  };
}

const suite: BenchSuite = {
  kernel: "delaunayLocate",
  description: "Delaunay simplex and barycentric weights of every query, hull projection outside",
  cases: [
    locateCase(4, 1000, 1000, 100),
    locateCase(4, 10000, 1000, 100),
    locateCase(8, 1000, 1000, 100),
    locateCase(8, 10000, 100, 10),
    locateCase(20, 1000, 100, 10),
    locateCase(20, 10000, 10, 1),
  ],
};
export default suite;
