// `varmap demo [--full]`: the main job on a generated dataset, the README's first command. Generates a synthetic
// MOANA-design dataset (a few maps by default, all 117 with --full), refits every map with every predictor that is
// available, cross-validates them over generated divisions (Table 2), and prints where everything is.
import { existsSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Command } from "commander";
import { isVarmapError } from "../../errors.js";
import { writeSynth } from "../../data/synth.js";
import { parseIntegerSeed } from "../../data/option-values.js";
import { DEMO_NAMES, PREDICTORS, createPredictor } from "../../predict/registry.js";
import { fromRows } from "../../predict/matrix.js";
import { runCv } from "../../verbs/cv.js";
import { runRefit } from "../../verbs/refit.js";
import { cvOptionsFromFlags, printCv } from "./cv.js";
import { printJobEnd, refitOptionsFromFlags } from "./refit.js";

/** The default demo: small enough for about a minute on 2 cores. */
export const DEMO_SMALL = { maps: 2, reps: 10 };
export const DEMO_FULL = { maps: undefined, reps: 200 };

/** Predictors (not the baseline) that are implemented in this build (a tiny fit succeeds), in registry order. */
export function availableMethods(): string[] {
  const X = fromRows([
    [0, 0],
    [1, 0],
    [0, 1],
    [1, 1],
    [0.5, 0.5],
    [0.2, 0.7],
    [0.8, 0.3],
    [0.3, 0.1],
    [0.6, 0.9],
    [0.9, 0.6],
    [0.1, 0.4],
    [0.4, 0.8],
    [0.7, 0.2],
    [0.25, 0.55],
    [0.55, 0.35],
    [0.85, 0.85],
    [0.15, 0.95],
    [0.95, 0.05],
    [0.45, 0.65],
    [0.65, 0.45],
    [0.35, 0.25],
    [0.75, 0.75],
  ]);
  const y = Array.from({ length: X.rows }, (_, i) => 1 + X.data[2 * i] + 2 * X.data[2 * i + 1] * X.data[2 * i]);
  return DEMO_NAMES.filter((m) => {
    try {
      createPredictor(m).fit(X, y).predict(X);
      return true;
    } catch (e) {
      if (isVarmapError(e)) return false;
      throw e;
    }
  });
}

/** The demo runs the paper's predictors (Table 2); the others exist too and are named as such (issue 44 item 6). */
export function demoMethodsLine(methods: string[]): string {
  const others = PREDICTORS.filter((p) => !p.baseline && !methods.includes(p.name)).map((p) => p.name);
  return `the demo runs the paper's predictors: ${methods.join(", ") || "none (only the mean baseline)"}${others.length ? `; also available, not in the demo: ${others.join(", ")} (e.g. varmap cv --methods ${others[0]})` : ""}`;
}

export function register(program: Command): void {
  program
    .command("demo")
    .description("the main job on a generated dataset: synth, refit and cross-validate (about a minute on 2 cores)")
    .option("--full", "the full 117-map design with 200 divisions per fraction (long: the whole Table 2 workload)")
    .option("--out <dir>", "where the dataset and results go", "varmap-demo")
    .option("--workers <n>", "worker threads (default: one per core)")
    .option("--seed <s>", "seed of the dataset and of the divisions", "1")
    .option("--json", "print a machine-readable summary on stdout")
    .option("--quiet", "no progress or notes on stderr")
    .action(async (opts: { full?: boolean; out: string; workers?: string; seed: string; json?: boolean; quiet?: boolean }) => {
      const t0 = Date.now();
      // An integer: it seeds the dataset, the divisions and the mixtures' starts (validated before anything is written).
      const seed = parseIntegerSeed(opts.seed);
      const size = opts.full ? DEMO_FULL : DEMO_SMALL;
      const out = resolve(opts.out);
      mkdirSync(out, { recursive: true });
      const say = (s: string): void => {
        if (!opts.quiet) process.stderr.write(`varmap demo: ${s}\n`);
      };
      const data = join(out, opts.full ? `moana-full-seed${opts.seed}.parquet` : `moana-${size.maps}maps-seed${opts.seed}.parquet`);
      if (existsSync(data)) say(`reusing ${data}`);
      else {
        say(`generating the synthetic MOANA design (${size.maps ?? 117} maps × 810 configurations × 40 runs) into ${data}`);
        await writeSynth(data, { design: "moana", seed, maps: size.maps });
      }
      const methods = availableMethods();
      say(demoMethodsLine(methods));
      // The demo reproduces the paper's Table 2: the papers' transforms (none), whatever the verbs' defaults are.
      const common = { preset: "moana", stat: "sd", paper: true, workers: opts.workers, seed: opts.seed, quiet: opts.quiet, resume: true };
      const refitOut = join(out, "refit");
      const cvOut = join(out, "cv");
      let refit: Awaited<ReturnType<typeof runRefit>> | undefined;
      if (methods.length) {
        say(`refit: every map with ${methods.join(", ")} → ${refitOut}`);
        refit = await runRefit(data, refitOptionsFromFlags({ ...common, methods: methods.join(","), out: refitOut }));
        printJobEnd(refit, common);
      }
      const cvMethods = [...methods, ...PREDICTORS.filter((p) => p.baseline).map((p) => p.name)].join(",");
      say(`cv: ${cvMethods} × 9 training fractions × ${size.reps} divisions per map → ${cvOut}`);
      // cv prints the Table 2 (Markdown) on stdout unless --json.
      const cvFlags = { ...common, methods: cvMethods, p: "0.1:0.9:0.1", reps: String(size.reps), out: cvOut, quiet: opts.quiet };
      const cv = await runCv(data, cvOptionsFromFlags(cvFlags));
      printCv(cv, cvFlags, !opts.json);
      const report = join(out, "report.html");
      say(`report: figures and tables → ${report}`);
      const { writeReport } = await import("../../report/report.js");
      await writeReport(out, report, { data, dataOptions: { preset: "moana" }, seed: opts.seed });
      const seconds = (Date.now() - t0) / 1000;
      const summary = {
        data,
        refit: methods.length ? refitOut : null,
        cv: cvOut,
        report,
        methods,
        seconds: Math.round(seconds * 10) / 10,
        refitSummary: refit?.summary,
        table2: cv.summary?.table2,
      };
      if (opts.json) process.stdout.write(JSON.stringify(summary, null, 2) + "\n");
      else
        process.stdout.write(
          [
            "",
            `Done in ${seconds.toFixed(1)} s. Outputs:`,
            `  dataset          ${data}`,
            ...(methods.length
              ? [
                  `  fitted models    ${join(refitOut, "models.json")} (summary: ${join(refitOut, "summary.md")})`,
                  `  distributions    ${join(refitOut, "distributions.csv")} (each configuration's best mixture)`,
                ]
              : []),
            `  ARE per map      ${join(cvOut, "are.csv")}`,
            `  Table 2          ${join(cvOut, "table2.md")} and table2.csv`,
            `  report           ${report} (open it in a browser)`,
            "",
          ].join("\n"),
        );
    });
}
