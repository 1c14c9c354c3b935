// The kernel benchmark runner shared by `npm run bench` (bench/run.ts) and `varmap bench` (ts/cli/commands/bench.ts).
// Suites are discovered by listing ts/benchmarks/suites/ (dist/ts/benchmarks/suites/ once compiled); see bench/run.ts for their shape.
import Benchmark from "benchmark";
import { readdirSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { KernelBackend } from "../backend/kernel.js";
import { loadNativeBackend } from "../backend/native.js";
import { WasmBackend } from "../backend/wasm.js";
import { VarmapError } from "../errors.js";

/** One workload of a kernel, timed on the native and wasm backends and as plain TypeScript. */
export interface BenchCase {
  /** Short name of the workload, e.g. "q=1000 n=10000 d=8". */
  name: string;
  /** How many items one operation processes (distances, queries, problems): the table reports items/s. */
  items: number;
  /** What an item is, plural ("distances", "problems"). */
  itemName: string;
  /** Returns the operation to time on a backend. Build inputs and outputs here: only the returned call is timed. */
  kernel(backend: KernelBackend): () => void;
  /** Returns the same work in plain TypeScript (the baseline); omit when no baseline makes sense. */
  baseline?(): () => void;
}

export interface BenchSuite {
  /** Name used by `--kernels` (usually the kernel's function name). */
  kernel: string;
  description: string;
  cases: BenchCase[];
}

import { TARGETS, type Target } from "./targets.js";
export { TARGETS, type Target };

export interface Measurement {
  kernel: string;
  case: string;
  target: Target;
  items: number;
  itemName: string;
  /** Median time of one operation over the samples, in milliseconds (wall clock, as benchmark.js measures). */
  medianMs: number;
  /**
   * Median CPU time (user + system) of one operation, in milliseconds. On a shared machine it stays near the
   * unloaded wall time when other processes make the wall-clock figures noisy.
   */
  cpuMs: number;
  opsPerSec: number;
  itemsPerSec: number;
  /** benchmark.js relative margin of error of the mean, in percent. */
  rme: number;
  samples: number;
}

export interface Machine {
  cpu: string;
  cores: number;
  memoryGiB: number;
  node: string;
  platform: string;
  /** 1-minute load average when the run started (other work on the machine makes timings noisy). */
  load1: number;
}

export interface BenchReport {
  date: string;
  machine: Machine;
  /** Backend names that could not run, with the reason. */
  unavailable: Record<string, string>;
  results: Measurement[];
}

export function machine(): Machine {
  const c = cpus();
  return {
    cpu: c[0]?.model.trim() ?? "unknown",
    cores: c.length,
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    load1: Math.round(loadavg()[0] * 100) / 100,
  };
}

/** Loads every suite in the suites folder next to this file (.ts when run from source, .js once compiled). */
export async function discoverSuites(dir = join(dirname(fileURLToPath(import.meta.url)), "suites")): Promise<BenchSuite[]> {
  const ext = import.meta.url.endsWith(".ts") ? ".ts" : ".js";
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(ext) && !f.endsWith(".d.ts"))
    .sort();
  const suites: BenchSuite[] = [];
  for (const f of files) {
    const mod = (await import(pathToFileURL(join(dir, f)).href)) as { default?: BenchSuite };
    if (!mod.default || !Array.isArray(mod.default.cases)) throw new Error(`bench suite ${f} has no default export of shape BenchSuite`);
    suites.push(mod.default);
  }
  return suites;
}

export interface RunOptions {
  /** Backends to time, keyed by target name; "ts" needs no backend. */
  backends: Partial<Record<"native" | "wasm", KernelBackend>>;
  targets: readonly Target[];
  /** Seconds benchmark.js spends per measurement (at least 5 samples are taken). */
  maxTime: number;
  /** Called before each measurement (progress on stderr). */
  onStart?(kernel: string, caseName: string, target: Target): void;
}

/** Times every case of every suite on every requested target. Synchronous benchmark.js runs, one at a time. */
export function runSuites(suites: readonly BenchSuite[], opts: RunOptions): Measurement[] {
  // Closures over the prepared inputs must be called by reference, not decompiled and re-evaluated.
  (Benchmark.support as { decompilation: boolean }).decompilation = false;
  const results: Measurement[] = [];
  for (const suite of suites)
    for (const c of suite.cases)
      for (const target of opts.targets) {
        if (target === "ts" ? !c.baseline : !opts.backends[target]) continue;
        opts.onStart?.(suite.kernel, c.name, target);
        const op = target === "ts" ? c.baseline!() : c.kernel(opts.backends[target]!);
        op(); // warm up (and surface errors before timing)
        const b = new Benchmark(`${suite.kernel} ${c.name} ${target}`, op, { maxTime: opts.maxTime, minSamples: 5, async: false });
        b.run();
        if (b.error) throw b.error;
        const medianSec = median(b.stats.sample as number[]);
        const cpuMs = cpuTimeMs(op, medianSec);
        results.push({
          kernel: suite.kernel,
          case: c.name,
          target,
          items: c.items,
          itemName: c.itemName,
          medianMs: medianSec * 1e3,
          cpuMs,
          opsPerSec: 1 / medianSec,
          itemsPerSec: c.items / medianSec,
          rme: b.stats.rme,
          samples: b.stats.sample.length,
        });
      }
  return results;
}

export interface BenchmarkOptions {
  /** Suite names to run (all when empty or absent). */
  kernels?: readonly string[];
  /** Run only the cases whose name contains this text. */
  cases?: string;
  targets?: readonly Target[];
  maxTime?: number;
  onStart?: RunOptions["onStart"];
}

/** Discovers the suites, loads the backends and runs the selection: what both `npm run bench` and `varmap bench` do. */
export async function benchmark(opts: BenchmarkOptions = {}): Promise<BenchReport> {
  const all = await discoverSuites();
  const names = all.map((s) => s.kernel);
  const unknown = (opts.kernels ?? []).filter((k) => !names.includes(k));
  if (unknown.length) throw new VarmapError("E_USAGE", `unknown benchmark kernel(s) ${unknown.join(", ")}`, { remedy: `choose among ${names.join(", ")}` });
  const suites = (opts.kernels?.length ? all.filter((s) => opts.kernels!.includes(s.kernel)) : all)
    .map((s) => ({ ...s, cases: s.cases.filter((c) => !opts.cases || c.name.includes(opts.cases)) }))
    .filter((s) => s.cases.length > 0);
  if (suites.length === 0) throw new VarmapError("E_USAGE", `no benchmark case matches '${opts.cases}'`, { remedy: "run without --cases to see them all" });
  const targets = opts.targets ?? TARGETS;
  const unavailable: Record<string, string> = {};
  const backends: RunOptions["backends"] = {};
  if (targets.includes("native")) {
    const native = loadNativeBackend();
    if (native.backend) backends.native = native.backend;
    else unavailable.native = native.reason ?? "unavailable";
  }
  if (targets.includes("wasm")) backends.wasm = new WasmBackend();
  const report: BenchReport = { date: new Date().toISOString(), machine: machine(), unavailable, results: [] };
  report.results = runSuites(suites, { backends, targets, maxTime: opts.maxTime ?? 2, onStart: opts.onStart });
  return report;
}

/** Median CPU time of one call over batches of calls lasting about 5 ms or one call (7 batches, 3 for slow calls). */
function cpuTimeMs(op: () => void, secondsPerOp: number): number {
  const perBatch = Math.max(1, Math.ceil(0.005 / secondsPerOp));
  const times: number[] = [];
  for (let t = 0; t < (secondsPerOp > 0.1 ? 3 : 7); t++) {
    const start = process.cpuUsage();
    for (let i = 0; i < perBatch; i++) op();
    const used = process.cpuUsage(start);
    times.push((used.user + used.system) / 1e3 / perBatch);
  }
  return median(times);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** The side-by-side table: one row per case, median ms and throughput per target, wasm/native and native/ts speed ratios. */
export function formatTable(report: BenchReport, targets: readonly Target[]): string {
  const m = report.machine;
  const lines = [`${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, Node ${m.node} (${m.platform}), load ${m.load1} at start`];
  for (const [name, why] of Object.entries(report.unavailable)) lines.push(`${name}: not run (${why})`);
  const rows: string[][] = [];
  const header = ["kernel", "case"];
  for (const t of targets) header.push(`${t} ms (cpu)`, `${t} ops/s`, `${t} items/s`);
  if (targets.includes("native") && targets.includes("wasm")) header.push("wasm/native");
  if (targets.includes("native") && targets.includes("ts")) header.push("native/ts");
  rows.push(header);
  const keys = [...new Set(report.results.map((r) => `${r.kernel}\u0000${r.case}`))];
  for (const key of keys) {
    const [kernel, name] = key.split("\u0000");
    const get = (t: Target) => report.results.find((r) => r.kernel === kernel && r.case === name && r.target === t);
    const row = [kernel, name];
    for (const t of targets) {
      const r = get(t);
      row.push(r ? `${fmt(r.medianMs)} (${fmt(r.cpuMs)})` : "-", r ? fmt(r.opsPerSec) : "-", r ? `${fmt(r.itemsPerSec)} ${r.itemName}` : "-");
    }
    const ratio = (a?: Measurement, b?: Measurement) => (a && b ? `${(a.opsPerSec / b.opsPerSec).toFixed(2)}x` : "-");
    if (targets.includes("native") && targets.includes("wasm")) row.push(ratio(get("wasm"), get("native")));
    if (targets.includes("native") && targets.includes("ts")) row.push(ratio(get("native"), get("ts")));
    rows.push(row);
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  for (const [i, r] of rows.entries()) {
    lines.push(r.map((c, j) => (j < 2 ? c.padEnd(widths[j]) : c.padStart(widths[j]))).join("  "));
    if (i === 0) lines.push(widths.map((w) => "-".repeat(w)).join("  "));
  }
  lines.push("ms: median wall time of one operation (median CPU time in parentheses); ops/s, items/s and the");
  lines.push("wasm/native and native/ts throughput ratios are from the wall-time medians.");
  return lines.join("\n");
}

/** Three significant digits, with k/M/G suffixes for large numbers. */
function fmt(x: number): string {
  if (x >= 1e9) return `${(x / 1e9).toPrecision(3)}G`;
  if (x >= 1e6) return `${(x / 1e6).toPrecision(3)}M`;
  if (x >= 1e4) return `${(x / 1e3).toPrecision(3)}k`;
  return x >= 100 ? x.toFixed(0) : x.toPrecision(3);
}
