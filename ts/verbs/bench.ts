// `bench`: kernel throughput per backend on this machine, from the same suites as `npm run bench`. The CLI
// (ts/cli/commands/bench.ts) parses the flags into BenchOptions and prints the report (a table, or JSON).
import { VarmapError } from "../errors.js";
import type { BenchReport } from "../benchmarks/runner.js";
import { TARGETS, type Target } from "../benchmarks/targets.js";
import { writeFileAtomic } from "../data/atomic.js";

export { TARGETS as BENCH_TARGETS, type Target as BenchTarget };

export interface BenchOptions {
  /** Suites to run (default: all). */
  kernels?: string[];
  /** Only the cases whose name contains this text. */
  cases?: string;
  /** native, wasm and/or ts (the plain TypeScript baseline). */
  targets: Target[];
  /** Seconds spent timing each kernel on each backend (> 0). */
  maxTime: number;
  /** Also write the JSON report to this file. */
  out?: string;
  /** No progress on stderr. */
  quiet?: boolean;
}

export interface BenchSummary {
  report: BenchReport;
  /** The report as the table `varmap bench` prints. */
  text: string;
}

export async function runBench(options: BenchOptions): Promise<BenchSummary> {
  const targets = options.targets;
  const bad = targets.filter((t) => !TARGETS.includes(t));
  if (bad.length || targets.length === 0)
    throw new VarmapError("E_USAGE", `unknown backend(s) '${bad.join(", ") || targets.join(",")}' for --backends`, { remedy: "use native, wasm and/or ts" });
  if (!(options.maxTime > 0)) throw new VarmapError("E_USAGE", `--max-time must be a positive number of seconds, got '${options.maxTime}'`);
  // benchmark.js (and lodash, platform) load only when timing: every other varmap command starts without them.
  const { benchmark, formatTable } = await import("../benchmarks/runner.js");
  const report = await benchmark({
    kernels: options.kernels ?? [],
    cases: options.cases,
    targets,
    maxTime: options.maxTime,
    onStart: options.quiet ? undefined : (k, c, t) => process.stderr.write(`bench: ${k} ${c} on ${t}\n`),
  });
  if (report.unavailable.native && targets.length === 1 && targets[0] === "native")
    throw new VarmapError("E_BACKEND", `the native backend is unavailable: ${report.unavailable.native}`, {
      remedy: "run `npm run build:native` (needs a C++17 compiler and cmake), or benchmark --backends wasm",
    });
  if (report.unavailable.native && !options.quiet) process.stderr.write(`bench: native not run: ${report.unavailable.native}\n`);
  if (options.out) {
    writeFileAtomic(options.out, JSON.stringify(report, null, 2) + "\n");
  }
  return { report, text: formatTable(report, targets) + "\n" };
}
