// MARS fits: the MOANA splits R earth was timed on (when ../shared is present) and synthetic problems up to
// n = 50,000, d = 20. One operation = one complete fit (forward pass, rank fix, pruning, coefficients).
import { existsSync } from "node:fs";
import { join } from "node:path";
import { earthDefaults, marsFit, type MarsKernelOptions } from "../../backend/kernels/mars.js";
import { uniform } from "../inputs.js";
import { loadMoana } from "../moana.js";
import type { BenchCase, BenchSuite } from "../runner.js";
import { sharedDir } from "../shared-dir.js";

function earthOptions(d: number, degree: number, nk?: number): MarsKernelOptions {
  return { ...earthDefaults(d, degree), ...(nk !== undefined ? { nk } : {}) };
}

function fitCase(name: string, X: Float64Array, y: Float64Array, d: number, o: MarsKernelOptions): BenchCase {
  return { name, items: 1, itemName: "fits", kernel: (backend) => () => marsFit(backend, X, y, d, o) };
}

/** x uniform in [0,1]^d, f(x) = Σ sin(3·x_j) (the golden synthetic problems' function). */
function synthetic(n: number, d: number, degree: number): BenchCase {
  const X = uniform(n * d, 7);
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) for (let j = 0; j < d; j++) y[i] += Math.sin(3 * X[i * d + j]);
  return fitCase(`synthetic n=${n} d=${d} degree ${degree}`, X, y, d, earthOptions(d, degree));
}

function moanaCases(): BenchCase[] {
  const shared = sharedDir();
  if (!existsSync(join(shared, "golden", "moana-splits.json"))) return [];
  const { X, y, splits } = loadMoana(shared);
  const cases: BenchCase[] = [];
  for (const [variant, degree, nk] of [
    ["d1", 1, undefined],
    ["d2", 2, undefined],
    ["d2nk200", 2, 200],
  ] as const)
    for (const p of [0.1, 0.5, 0.9]) {
      const s = splits.find((t) => t.p === p && t.rep === 0)!;
      const tr = [...s.train].sort((a, b) => a - b);
      cases.push(
        fitCase(
          `MOANA ${variant} p=${p} rep 0 (n=${tr.length})`,
          Float64Array.from(tr.flatMap((i) => X[i])),
          Float64Array.from(tr.map((i) => y[i])),
          4,
          earthOptions(4, degree, nk),
        ),
      );
    }
  return cases;
}

const suite: BenchSuite = {
  kernel: "mars_fit",
  description: "complete MARS fits with earth's defaults (MOANA splits as timed for R earth; synthetic sums of sines)",
  cases: [...moanaCases(), synthetic(1000, 4, 1), synthetic(10000, 8, 1), synthetic(10000, 8, 2), synthetic(50000, 20, 1)],
};
export default suite;
