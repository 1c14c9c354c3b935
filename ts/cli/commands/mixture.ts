// `varmap mixture <data>`: the flags become MixtureOptions; the verb is ts/verbs/mixture.ts.
import type { Command } from "commander";
import { FAMILY_NAMES } from "../../mixture/families.js";
import { parseFamilies, parsePriorStrength, parseStarts } from "../../mixture/fit.js";
import { DEFAULT_CRITERION, DEFAULT_FAMILIES, DEFAULT_GUARD_FLAG, DEFAULT_PRIOR_STRENGTH, runMixture, type MixtureOptions } from "../../verbs/mixture.js";
import { parseCriterion, parseGuard, parseSplit, type GuardSetting } from "../../mixture/select.js";
import { addDataOptions } from "../options.js";
import { dataOptionsFromFlags, parseInteger, runOptionsFromFlags, type Flags } from "../flags.js";

export function register(program: Command): void {
  const cmd = program
    .command("mixture")
    .description(
      "mixture models of every configuration's runs (k = 1..kmax, MAP EM), guarded BIC selection, the seed-001 tables; the papers' setup: --families all --guard off --prior-strength 0",
    )
    .argument("<data>", "runs table (.csv, .tsv or .parquet), one row per run");
  addDataOptions(cmd, { runsOnly: true })
    .option(
      "--families <list>",
      `all, or a comma-separated subset of ${FAMILY_NAMES.join(",")} (default loglogistic: heavy tails generalize to held-back runs; all = the papers' six)`,
      DEFAULT_FAMILIES,
    )
    .option("--kmax <k>", "fit k = 1..kmax components", "5")
    .option("--restarts <r>", "partition starts (quantile + k-means++) per model, besides the deterministic spike/core/greedy starts", "5")
    .option("--seed <s>", "seed of the deterministic generator (k-means++ starts)", "1")
    .option(
      "--starts <s>",
      "full: every start runs its short EM; raced: trailing starts are given up at iterations 10 and 15 (about 15% faster, a few fits end at lower optima); partitions: quantile and k-means++ starts only",
      "full",
    )
    .option("--workers <n>", "worker threads (default: one per core; 0 or 1 = this thread); the fits do not depend on it")
    .option(
      "--out <path>",
      "fits table: .csv, .tsv, .json or .parquet (one row per configuration, family and k; column se: standard errors of the chosen model's params from the observed information); with --shard: the shard's directory",
    )
    .option("--shard <i/N|auto>", "run only the i-th of N slices of the configurations into the directory --out; `varmap merge` writes fits.csv")
    .option("--shards <N>", "the number of slices, with --shard auto (or --shard i)")
    .option("--job-dir <dir>", "where the resumable journal of the fits is kept while they run (default: <out>.job beside --out, removed when done)")
    .option("--no-resume", "discard a journal left in the job directory by an interrupted run and start over")
    .option(
      "--criterion <c>",
      "model selection: bic, icl (BIC + 2 × entropy of the responsibilities), aic, or cv (mean held-back log-likelihood per run over --folds random folds of runs)",
      DEFAULT_CRITERION,
    )
    .option(
      "--guard <on|strict|off>",
      "degeneracy guard at selection: on = a component needs ≥ 6 expected runs (3 per parameter) and a scale ≥ max(2 × resolution, 1% of the runs' sd); strict = ≥ 10 runs and 10% of the sd; off = every model eligible (the papers' setup)",
      DEFAULT_GUARD_FLAG,
    )
    .option(
      "--prior-strength <s>",
      "MAP EM: a weak prior on each component's scale (x for normal, log x for the log families; not gamma) worth s pseudo-runs spread by the runs' variance / k² (as mclust's priorControl); 0 = maximum likelihood (the papers' setup)",
      String(DEFAULT_PRIOR_STRENGTH),
    )
    .option("--folds <K>", "folds of runs for --criterion cv and for --validate --split random", "5")
    .option(
      "--validate",
      "fit on training runs, score the held-back runs: per configuration the chosen model, single normal and single lognormal, a catastrophic flag; summary on stdout",
    )
    .option("--split <s>", "--validate split: odd-even (2 folds by run parity), halves (first/second half), random (--folds folds)", "odd-even")
    .option("--validate-out <path>", "with --validate: the per-configuration table (.csv, .tsv, .json or .parquet)")
    .option("--json", "print the tables as JSON on stdout")
    .option("--quiet", "no progress or notes on stderr")
    .action(async (file: string, opts: Flags) => {
      const s = await runMixture(file, mixtureOptionsFromFlags(opts));
      if (s.job?.shard) {
        if (opts.json) process.stdout.write(JSON.stringify(s.job, null, 2) + "\n");
        return;
      }
      if (opts.json) process.stdout.write(JSON.stringify(s.validation ?? s.fits, null, 2) + "\n");
      else process.stdout.write(s.text);
    });
}

/** mixture's flags as MixtureOptions (the integer flags checked here, with their flag's text in messages). */
export function mixtureOptionsFromFlags(opts: Flags): MixtureOptions {
  const str = (k: string) => (opts[k] === undefined ? undefined : String(opts[k]));
  const families = parseFamilies(opts.families as string);
  const kmax = parseInteger(opts.kmax, "--kmax", { min: 1, max: 16 });
  const restarts = parseInteger(opts.restarts, "--restarts", { min: 1, max: 1000 });
  const seed = parseInteger(opts.seed, "--seed", { min: 0, max: Number.MAX_SAFE_INTEGER });
  const starts = parseStarts(opts.starts);
  const criterion = parseCriterion(opts.criterion);
  parseGuard(opts.guard);
  const guard = String(opts.guard ?? DEFAULT_GUARD_FLAG)
    .trim()
    .toLowerCase() as GuardSetting;
  const priorStrength = parsePriorStrength(opts.priorStrength, DEFAULT_PRIOR_STRENGTH);
  const folds = parseInteger(opts.folds, "--folds", { min: 2, max: 50 });
  const split = parseSplit(opts.split);
  return {
    data: dataOptionsFromFlags(opts),
    families,
    kmax,
    restarts,
    seed,
    starts,
    criterion,
    guard,
    priorStrength,
    folds,
    split,
    validate: !!opts.validate,
    validateOut: str("validateOut"),
    out: str("out"),
    jobDir: str("jobDir"),
    run: runOptionsFromFlags(opts),
  };
}
