// `varmap bench`: kernel throughput per backend on this machine, from the same suites as `npm run bench`. The
// flags become BenchOptions; the verb is ts/verbs/bench.ts.
import type { Command } from "commander";
import { VarmapError } from "../../errors.js";
import { runBench, type BenchTarget } from "../../verbs/bench.js";
import { splitList } from "../options.js";

interface BenchFlags {
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
    .action(async (opts: BenchFlags) => {
      const targets = splitList(opts.backends) as BenchTarget[];
      if (targets.length === 0)
        throw new VarmapError("E_USAGE", `unknown backend(s) '${opts.backends}' for --backends`, { remedy: "use native, wasm and/or ts" });
      const maxTime = Number(opts.maxTime);
      if (!(maxTime > 0)) throw new VarmapError("E_USAGE", `--max-time must be a positive number of seconds, got '${opts.maxTime}'`);
      const s = await runBench({ kernels: splitList(opts.kernels), cases: opts.cases, targets, maxTime, out: opts.out, quiet: opts.quiet });
      process.stdout.write(opts.json ? JSON.stringify(s.report, null, 2) + "\n" : s.text);
    });
}
