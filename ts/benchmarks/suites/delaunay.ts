// Delaunay simplex location (one batched call per operation) on the synthetic problems of issue #5. The n = 10,000
// cases at d >= 8 time a subset of the queries so that benchmark.js's samples stay short; the full runs and the
// 180-split MOANA pass are in bench/delaunay-workload.ts. Inputs: ../shared/golden's synthetic problems when
// present, else generated ones of the same shape (ts/benchmarks/delaunay-data.ts).
import { delaunayLocate } from "../../backend/kernels/delaunay.js";
import { querySubset, syntheticProblem, type SyntheticProblem } from "../delaunay-data.js";
import type { BenchCase, BenchSuite } from "../runner.js";

// Problems are read (or generated) when a case first runs, not when the suite is discovered.
const problems = new Map<string, SyntheticProblem>();
function problem(d: number, n: number): SyntheticProblem {
  const key = `${d},${n}`;
  if (!problems.has(key)) problems.set(key, syntheticProblem(d, n));
  return problems.get(key)!;
}

function locateCase(d: number, n: number, inside: number, outside: number): BenchCase {
  return {
    name: `d=${d} n=${n} q=${inside}+${outside} out`,
    items: inside + outside,
    itemName: "queries",
    kernel: (backend) => {
      const p = problem(d, n);
      const Q = querySubset(p, inside, outside);
      return () => delaunayLocate(backend, p.X, Q, d);
    },
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
