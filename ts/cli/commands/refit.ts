// `varmap refit <data> [column flags] --methods lr,lsp,… --out dir`: the main job, on the worker pool.
// The flags become RefitOptions; the verb is ts/verbs/refit.ts.
import type { Command } from "commander";
import { VarmapError } from "../../errors.js";
import { describeMethods } from "../../predict/registry.js";
import { FAMILY_NAMES } from "../../mixture/families.js";
import { parseFamilies, parseKmax, parsePriorStrength, parseStarts } from "../../mixture/fit.js";
import { DEFAULT_SETUP, parseGuard, type GuardSetting } from "../../mixture/select.js";
import { BEST_METHODS, DEFAULTS_HELP, PAPER_METHODS } from "../../verbs/defaults.js";
import { runRefit, type RefitOptions, type RefitSummary } from "../../verbs/refit.js";
import type { JobSummary } from "../../verbs/common.js";
import { METHOD_FLAGS } from "../method-options.js";
import {
  dataOptionsFromFlags,
  hyperparameters,
  parseInteger,
  parseIntegerSeed,
  parseMethods,
  runOptionsFromFlags,
  withDefaults,
  type Flags,
} from "../flags.js";
import { addBulkOptions } from "./cv.js";

export function register(program: Command): void {
  registerRefitOptions(
    program
      .command("refit")
      .description("the main job: fit every map with the chosen predictors on all cores (resumable, shardable)")
      .argument("<data>", "runs table (.csv, .tsv or .parquet), or an aggregated map table with --map"),
  ).action(async (file: string, opts: Flags) => {
    printRefit(await runRefit(file, refitOptionsFromFlags(opts)), opts);
  });
}

export function registerRefitOptions(cmd: Command): Command {
  addBulkOptions(cmd)
    .option("--methods <list>", `predictors fitted to every map, comma-separated: ${describeMethods()}; default ${BEST_METHODS} (--paper: ${PAPER_METHODS})`)
    .option("--paper", `the source papers' setup instead of the best defaults (${DEFAULTS_HELP})`)
    .option(
      "--families <list>",
      `mixture families fitted to every configuration's runs: all or some of ${FAMILY_NAMES.join(",")}; default ${DEFAULT_SETUP.families.join(",")} (--paper: all)`,
    )
    .option(
      "--prior-strength <s>",
      `mixtures by MAP EM with a weak prior on component scales worth s pseudo-runs; 0 = maximum likelihood; default ${DEFAULT_SETUP.priorStrength} (--paper: 0)`,
    )
    .option(
      "--guard <on|strict|off>",
      `degeneracy guard when choosing each configuration's mixture (see varmap mixture --help); default ${DEFAULT_SETUP.guard} (--paper: off)`,
    )
    .option("--kmax <k>", "mixture components 1..k", "5")
    .option("--starts <s>", "mixture starts: full, raced (about 15% faster, a few fits end at lower optima) or partitions", "full")
    .option("--no-mixtures", "fit only the maps, no run distributions")
    .option("--conformal-folds <k>", "also calibrate conformal prediction intervals of every model by k-fold cross-validation (for predict --interval)")
    .option("--conformal-groups <cols>", "also calibrate combinations of these inputs never measured, on leave-group-out folds (implies --conformal-folds 10)");
  for (const f of METHOD_FLAGS) cmd.option(f.flag, f.description);
  return cmd;
}

/** refit's flags as RefitOptions: every mixture flag is checked, even with --no-mixtures or --map. */
export function refitOptionsFromFlags(given: Flags): RefitOptions {
  const opts = withDefaults(given, "refit");
  const byDefault = given.methods === undefined && given.method === undefined && !given.paper;
  const methods = parseMethods(opts.methods as string | undefined);
  const methodOptions = hyperparameters(opts, methods);
  if (!opts.out) throw new VarmapError("E_USAGE", "refit needs --out <dir>", { remedy: "e.g. varmap refit data.csv --preset moana --out refit-out" });
  const run = runOptionsFromFlags(opts); // usage errors before the (possibly long) load
  const families = parseFamilies(typeof opts.families === "string" ? opts.families : DEFAULT_SETUP.families.join(","));
  const kmax = parseKmax(opts.kmax);
  const starts = parseStarts(opts.starts);
  const seed = parseIntegerSeed(opts.seed);
  const priorStrength = parsePriorStrength(opts.priorStrength, DEFAULT_SETUP.priorStrength);
  parseGuard(opts.guard);
  const guard = (typeof opts.guard === "string" ? opts.guard.trim().toLowerCase() : DEFAULT_SETUP.guard) as GuardSetting;
  const conformalFolds = parseConformalFolds(opts.conformalFolds);
  return {
    data: dataOptionsFromFlags(opts),
    out: String(opts.out),
    ...(byDefault ? {} : { methods }),
    methodOptions,
    mixtures: opts.mixtures === false ? false : { families, kmax, starts, seed, priorStrength, guard },
    ...(conformalFolds !== undefined ? { conformalFolds } : {}),
    ...(typeof opts.conformalGroups === "string" ? { conformalGroups: opts.conformalGroups.split(",").map((c) => c.trim()) } : {}),
    run,
  };
}

/** `--conformal-folds k` of refit (as fit's): an integer >= 2, or undefined when not given. */
function parseConformalFolds(v: unknown): number | undefined {
  return v === undefined ? undefined : parseInteger(v, "--conformal-folds", { min: 2, example: 10 });
}

export function printRefit(s: RefitSummary, opts: Flags): void {
  const { text, ...json } = s;
  if (opts.json) process.stdout.write(JSON.stringify(json, null, 2) + "\n");
  else if (text) process.stdout.write(text);
  printJobEnd(s, opts);
}

/** The run's warnings (trust counts, mixture flags), one line per kind, once on stderr. */
export function printJobEnd(s: JobSummary, opts: Flags): void {
  if (opts.quiet) return;
  for (const line of (s.summary?.warningLines as string[] | undefined) ?? []) process.stderr.write(`varmap: warning: ${line}\n`);
}
