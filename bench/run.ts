// `npm run bench` (node dist/bench/run.js [--kernels a,b] [--cases text] [--backends native,wasm,ts] [--max-time s]):
// times every kernel suite on native, wasm and plain TypeScript, prints them side by side and writes
// bench/results/<timestamp>.json (machine description + every measurement). `varmap bench` runs the same suites.
//
// Adding a suite: create ts/benchmarks/suites/<kernel>.ts; it is found by listing that folder, no other file changes.
// Copy this shape (types from ts/benchmarks/runner.ts):
//
//   import type { BenchSuite } from "../runner.js";
//   import { lazy, uniform } from "../inputs.js";
//   import { myKernel } from "../../backend/kernels/mine.js";
//
//   // Inputs are made on first use (lazy), so listing suites or running other cases allocates nothing.
//   const data = lazy(() => ({ X: uniform(1000 * 8, 1), out: new Float64Array(1000) }));
//
//   const suite: BenchSuite = {
//     kernel: "mykernel",                       // the name `--kernels` selects
//     description: "what one operation does",
//     cases: [{
//       name: "n=1000 d=8",                     // the workload
//       items: 1000, itemName: "problems",      // items per operation: the table shows items/s
//       kernel(backend) {                       // get inputs/outputs here (not timed) ...
//         const { X, out } = data();
//         return () => myKernel(backend, X, out); // ... and return the one batched call that is timed
//       },
//       baseline() {                            // the same work in plain TypeScript (optional)
//         const { X, out } = data();
//         return () => myKernelInTypeScript(X, out);
//       },
//     }],
//   };
//   export default suite;
//
// Generate inputs deterministically (uniform() is seeded) so every run and backend times the same work.
// The runner calls each returned operation once to warm up, then lets benchmark.js time it (median reported).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { packageRoot } from "../ts/package-root.js";
import { benchmark, formatTable, TARGETS, type Target } from "../ts/benchmarks/runner.js";

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
function fail(message: string): never {
  process.stderr.write(`bench: ${message}\n`);
  process.exit(2);
}
const list = (s?: string) =>
  s
    ? s
        .split(",")
        .map((x) => x.trim())
        .filter(Boolean)
    : undefined;

const targets = (list(flag("--backends")) ?? [...TARGETS]) as Target[];
const bad = targets.filter((t) => !TARGETS.includes(t));
if (bad.length) fail(`unknown backend(s) ${bad.join(", ")}: use native, wasm and/or ts`);
const report = await benchmark({
  kernels: list(flag("--kernels")),
  cases: flag("--cases"),
  targets,
  maxTime: Number(flag("--max-time") ?? 2),
  onStart: (k, c, t) => process.stderr.write(`bench: ${k} ${c} on ${t}\n`),
}).catch((e: Error) => fail(e.message));
process.stdout.write(formatTable(report, targets) + "\n");
const dir = join(packageRoot(), "bench", "results");
mkdirSync(dir, { recursive: true });
const file = join(dir, `${report.date.replace(/[:.]/g, "-")}.json`);
writeFileSync(file, JSON.stringify(report, null, 2) + "\n");
process.stdout.write(`results written to ${file}\n`);
