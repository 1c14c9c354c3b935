// `demo`: the main job on a generated dataset, the README's first command. Generates a synthetic MOANA-design
// dataset (a few maps by default, all 117 with full), refits every map with every predictor that is available,
// cross-validates them over generated divisions (Table 2), and writes an HTML report. The CLI
// (ts/cli/commands/demo.ts) parses the flags into DemoOptions and prints the summary.
import { existsSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { isVarmapError } from "../errors.js";
import { writeSynth } from "../data/synth.js";
import type { LoadOptions } from "../data/load.js";
import { parseIntegerSeed, parseSeedText } from "../data/option-values.js";
import { DEMO_NAMES, PREDICTORS, createPredictor } from "../predict/registry.js";
import { fromRows } from "../predict/matrix.js";
import { parseFractions } from "../cv/divisions.js";
import { parseFamilies } from "../mixture/fit.js";
import { runCv, type CvSummary } from "./cv.js";
import { runRefit, type RefitSummary } from "./refit.js";
import type { RunOptions } from "./common.js";

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

export interface DemoOptions {
  /** Where the dataset and results go (default varmap-demo). */
  out?: string;
  /** The full 117-map design with 200 divisions per fraction (the whole Table 2 workload). */
  full?: boolean;
  /** Seed of the dataset, the divisions and the mixtures' starts: an integer (text or number; default 1). */
  seed?: string | number;
  /** Worker threads (default: the CPUs granted to this process). */
  workers?: number;
  /** No progress or notes on stderr. */
  quiet?: boolean;
  /** Called when the refit is done (before the cv starts): the CLI prints its warnings there. */
  onRefit?: (s: RefitSummary) => void;
  /** Called when the cv is done (before the report): the CLI prints the Table 2 there. */
  onCv?: (s: CvSummary) => void;
}

export interface DemoSummary {
  /** The generated dataset. */
  data: string;
  /** The refit directory, null when no predictor is available. */
  refit: string | null;
  cv: string;
  report: string;
  methods: string[];
  seconds: number;
  refitSummary?: Record<string, unknown>;
  table2?: unknown;
}

export async function runDemo(options: DemoOptions = {}): Promise<DemoSummary> {
  const t0 = Date.now();
  const seedText = String(options.seed ?? "1");
  // An integer: it seeds the dataset, the divisions and the mixtures' starts (validated before anything is written).
  const seed = parseIntegerSeed(seedText);
  const size = options.full ? DEMO_FULL : DEMO_SMALL;
  const out = resolve(options.out ?? "varmap-demo");
  mkdirSync(out, { recursive: true });
  const quiet = !!options.quiet;
  const say = (s: string): void => {
    if (!quiet) process.stderr.write(`varmap demo: ${s}\n`);
  };
  const data = join(out, options.full ? `moana-full-seed${seedText}.parquet` : `moana-${size.maps}maps-seed${seedText}.parquet`);
  if (existsSync(data)) say(`reusing ${data}`);
  else {
    say(`generating the synthetic MOANA design (${size.maps ?? 117} maps × 810 configurations × 40 runs) into ${data}`);
    await writeSynth(data, { design: "moana", seed, maps: size.maps });
  }
  const methods = availableMethods();
  say(demoMethodsLine(methods));
  // The demo reproduces the paper's Table 2: the papers' setup (--paper: no transforms, every mixture family,
  // maximum likelihood, no guard), whatever the verbs' defaults are.
  const load: LoadOptions = {
    preset: "moana",
    stat: "sd",
    map: false,
    logResponse: false,
    note: quiet ? undefined : (msg) => process.stderr.write(`varmap: note: ${msg}\n`),
  };
  const run: RunOptions = { workers: options.workers, resume: true, quiet };
  const refitOut = join(out, "refit");
  const cvOut = join(out, "cv");
  let refit: RefitSummary | undefined;
  if (methods.length) {
    say(`refit: every map with ${methods.join(", ")} → ${refitOut}`);
    refit = await runRefit(data, {
      data: load,
      out: refitOut,
      methods,
      methodOptions: {},
      mixtures: { families: parseFamilies("all"), kmax: 5, starts: "full", seed, priorStrength: 0, guard: "off" },
      run,
    });
    options.onRefit?.(refit);
  }
  const cvMethods = [...methods, ...PREDICTORS.filter((p) => p.baseline).map((p) => p.name)];
  say(`cv: ${cvMethods.join(",")} × 9 training fractions × ${size.reps} divisions per map → ${cvOut}`);
  const cv = await runCv(data, {
    data: load,
    methods: cvMethods,
    methodOptions: {},
    p: parseFractions("0.1:0.9:0.1"),
    reps: size.reps,
    seed: parseSeedText(seedText),
    out: cvOut,
    run,
  });
  options.onCv?.(cv);
  const report = join(out, "report.html");
  say(`report: figures and tables → ${report}`);
  const { writeReport } = await import("../report/report.js");
  await writeReport(out, report, { data, dataOptions: { preset: "moana" }, seed: seedText });
  const seconds = (Date.now() - t0) / 1000;
  return {
    data,
    refit: methods.length ? refitOut : null,
    cv: cvOut,
    report,
    methods,
    seconds: Math.round(seconds * 10) / 10,
    refitSummary: refit?.summary,
    table2: cv.summary?.table2,
  };
}
