// `varmap bench`: kernel throughput per backend on this machine, from the same suites as `npm run bench`.
import type { Command } from "commander";
import { writeFileSync, renameSync } from "node:fs";
import { benchmark, formatTable, TARGETS, type Target } from "../../benchmarks/runner.js";
import { VarmapError } from "../../errors.js";
import { splitList } from "../options.js";

interface BenchOptions {
  kernels?: string;
  cases?: string;
  backends: string;
  json?: boolean;
  maxTime: string;
  out?: string;
  quiet?: boolean;
}

export function register(program: Command): void {
  program
    .command("bench")
    .description("kernel throughput per backend on this machine (the same suites as `npm run bench`)")
    .option("--kernels <names>", "suites to run, comma-separated (default: all)")
    .option("--cases <text>", "only the cases whose name contains this text")
    .option("--backends <names>", "native, wasm and/or ts (the plain TypeScript baseline), comma-separated", "native,wasm")
    .option("--max-time <s>", "seconds spent timing each kernel on each backend", "2")
    .option("--json", "print the report (machine, every measurement) as JSON on stdout")
    .option("--out <file>", "also write the JSON report to this file")
    .option("--quiet", "no progress on stderr")
    .action(async (opts: BenchOptions) => {
      const targets = splitList(opts.backends) as Target[];
      const bad = targets.filter((t) => !TARGETS.includes(t));
      if (bad.length || targets.length === 0)
        throw new VarmapError("E_USAGE", `unknown backend(s) '${bad.join(", ") || opts.backends}' for --backends`, { remedy: "use native, wasm and/or ts" });
      const maxTime = Number(opts.maxTime);
      if (!(maxTime > 0)) throw new VarmapError("E_USAGE", `--max-time must be a positive number of seconds, got '${opts.maxTime}'`);
      const report = await benchmark({
        kernels: splitList(opts.kernels),
        cases: opts.cases,
        targets,
        maxTime,
        onStart: opts.quiet ? undefined : (k, c, t) => process.stderr.write(`bench: ${k} ${c} on ${t}\n`),
      });
      if (report.unavailable.native && targets.length === 1 && targets[0] === "native")
        throw new VarmapError("E_BACKEND", `the native backend is unavailable: ${report.unavailable.native}`, {
          remedy: "run `npm run build:native` (needs a C++17 compiler and cmake), or benchmark --backends wasm",
        });
      if (report.unavailable.native && !opts.quiet) process.stderr.write(`bench: native not run: ${report.unavailable.native}\n`);
      const json = JSON.stringify(report, null, 2) + "\n";
      if (opts.out) {
        const tmp = `${opts.out}.tmp-${process.pid}`;
        writeFileSync(tmp, json);
        renameSync(tmp, opts.out);
      }
      process.stdout.write(opts.json ? json : formatTable(report, targets) + "\n");
    });
}
