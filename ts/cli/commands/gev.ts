// `varmap gev <runs>`: the flags become GevOptions; the verb is ts/verbs/gev.ts.
import { Option, type Command } from "commander";
import { VarmapError } from "../../errors.js";
import { DEFAULT_GEV_OPTIONS, type GevRunOptions } from "../../evt/configs.js";
import { runGev, TABLE_FILE, type GevOptions } from "../../verbs/gev.js";
import { parseCompare, runGevCompare, runGevCovariates } from "../../verbs/gev-extras.js";
import { addDataOptions, addRunOptions, splitList } from "../options.js";
import { dataOptionsFromFlags, parseInteger, parsePositiveInteger, runOptionsFromFlags, type Flags } from "../flags.js";

export function register(program: Command): void {
  const cmd = program
    .command("gev")
    .description("GEV fit of every configuration's runs: location, scale, shape with SEs, return levels, Gumbel LR test, KS/AD")
    .argument("<runs>", "runs table (.csv, .tsv or .parquet), one row per run");
  addRunOptions(addDataOptions(cmd))
    .option("--no-resume", "with a job directory: discard the results already in --out and start over")
    .addOption(
      new Option("--tail <side>", "upper: maxima (times); lower: minima (fit −x, e.g. throughput limited by the slowest node)")
        .choices(["upper", "lower"])
        .default("upper"),
    )
    .option("--block <B>", "fit the maxima of consecutive blocks of B runs in run order", "1")
    .option("--gumbel", "also report the Gumbel fit's SEs and return levels (gumbel_se_*, gumbel_rl<T>)")
    .option("--return-periods <list>", "return periods T > 1, comma-separated", "10,100,1000")
    .option("--level <p>", "confidence level of the intervals", "0.95")
    .option("--profile", "profile-likelihood intervals for the shape and the return levels (instead of Wald)")
    .addOption(
      new Option("--information <kind>", "standard errors from the observed or the expected information").choices(["observed", "expected"]).default("observed"),
    )
    .option("--gof-boot <B>", "parametric-bootstrap p-values for KS and AD (columns ks_p, ad_p, gof_boot): B refitted GEV samples per configuration")
    .option(
      "--compare <COL=a,b>",
      "compare two conditions: per pair of configurations differing only in COL, ratios b/a of GEV locations and scales with CIs, LR test of equal shape",
    )
    .option("--boot <B>", "with --compare: parametric-bootstrap replicates for percentile intervals of the ratios", "0")
    .option("--loc-covariates <list>", "fit per map one GEV to the pooled runs with location linear in these inputs (log(x) for ln x), as ismev gev.fit(mul=)")
    .option("--scale-covariates <list>", "with --loc-covariates: log-scale linear in these inputs (ismev sigl=, siglink = exp)")
    .option("--chunk <n>", "with a job directory: configurations per task", "1000")
    .option("--min-runs <n>", "configurations with fewer runs (blocks) get the row flag too_few_runs", "10")
    .option("--strict", "a configuration without a valid fit is an error (E_TOO_FEW_RUNS, E_GEV_DEGENERATE, E_GEV_UNBOUNDED, E_GEV_NOT_CONVERGED)")
    .option(
      "--diagnostics [path]",
      "plot data (pp, qq, rl_point, rl_curve, density), long format: a file beside a file --out; in a job directory, diagnostics.csv",
    )
    .action(async (file: string, opts: Flags) => {
      if (opts.compare !== undefined || opts.locCovariates !== undefined) return gevExtras(file, opts);
      const s = await runGev(file, gevOptionsFromFlags(opts));
      if (opts.json) process.stdout.write(JSON.stringify(s, null, 2) + "\n");
    });
}

/** --compare and --loc-covariates (ts/verbs/gev-extras.ts): one table, no job directory. */
async function gevExtras(file: string, opts: Record<string, unknown>): Promise<void> {
  if (opts.compare !== undefined && opts.locCovariates !== undefined)
    throw new VarmapError("E_USAGE", "--compare and --loc-covariates are separate analyses", { remedy: "run them one at a time" });
  const level = Number(opts.level ?? 0.95);
  if (!(level > 0 && level < 1)) throw new VarmapError("E_USAGE", `--level must be in (0, 1), got '${String(opts.level)}'`);
  const tail = opts.tail === "lower" ? "lower" : "upper";
  const note = opts.quiet ? undefined : (m: string) => process.stderr.write(`varmap: ${m}\n`);
  if (opts.compare !== undefined) {
    const boot = parseInteger(opts.boot, "--boot", { min: 0, max: 100000, default: 0, example: 999 });
    const s = await runGevCompare(file, {
      load: dataOptionsFromFlags(opts),
      ...parseCompare(String(opts.compare)),
      out: String(opts.out ?? ""),
      level,
      boot,
      seed: String(opts.seed ?? "1"),
      tail,
    });
    note?.(
      `wrote ${s.pairs} comparison(s) to ${s.out}${s.invalid ? `; ${s.invalid} without a valid fit on both sides (flag)` : ""}${s.unpaired ? `; ${s.unpaired} configuration(s) without a partner` : ""}`,
    );
    if (opts.json) process.stdout.write(JSON.stringify(s, null, 2) + "\n");
    return;
  }
  if (opts.scaleCovariates !== undefined && opts.locCovariates === undefined)
    throw new VarmapError("E_USAGE", "--scale-covariates needs --loc-covariates", {
      remedy: "add --loc-covariates (an empty location model is the stationary GEV)",
    });
  const s = await runGevCovariates(file, {
    load: { ...dataOptionsFromFlags(opts), allowNoInputs: false },
    loc: splitList(String(opts.locCovariates)),
    scale: opts.scaleCovariates === undefined ? [] : splitList(String(opts.scaleCovariates)),
    out: String(opts.out ?? ""),
    tail,
  });
  for (const m of s.maps)
    note?.(
      `${
        Object.entries(m.key)
          .map(([k, v]) => `${k}=${v}`)
          .join(" ") || "(all)"
      }: ${m.fit ? `location ${m.fit.loc.map((v) => v.toPrecision(5)).join(", ")}; shape ${m.fit.shape.toPrecision(4)}; LR vs stationary ${m.fit.lr.toPrecision(4)} (p ${m.fit.lrP.toPrecision(3)})` : "no valid fit"}`,
    );
  if (opts.json) process.stdout.write(JSON.stringify(s, null, 2) + "\n");
}

/** gev's flags as GevOptions: every option validated before anything is read or written. */
export function gevOptionsFromFlags(opts: Flags): GevOptions {
  const fit = parseGevOptions(opts);
  const out = opts.out as string | undefined;
  // A table file --out takes neither --shard nor --workers (the verb says so); a job directory parses them.
  const direct = out !== undefined && TABLE_FILE.test(out);
  const given = opts.shard !== undefined || opts.workers !== undefined;
  const run = direct ? { quiet: !!opts.quiet, resume: opts.resume !== false, ...(given ? { workers: 0 } : {}) } : runOptionsFromFlags(opts);
  const chunk = out ? parsePositiveInteger(opts.chunk, "--chunk", 1000) : Number(opts.chunk ?? 1000);
  return {
    data: dataOptionsFromFlags(opts),
    out: out ?? "",
    fit,
    ...(opts.diagnostics !== undefined && opts.diagnostics !== false ? { diagnostics: opts.diagnostics as string | true } : {}),
    strict: Boolean(opts.strict),
    chunk,
    run,
  };
}

/** Validates every gev option before anything is read or written. */
export function parseGevOptions(opts: Record<string, unknown>): GevRunOptions {
  const block = parsePositiveInteger(opts.block, "--block", 1);
  const periods = splitList(String(opts.returnPeriods ?? "10,100,1000")).map(Number);
  if (periods.length === 0 || periods.some((T) => !Number.isFinite(T) || T <= 1))
    throw new VarmapError("E_USAGE", `--return-periods must be numbers > 1, got '${String(opts.returnPeriods)}'`, {
      remedy: "e.g. --return-periods 10,100,1000",
    });
  const level = Number(opts.level ?? 0.95);
  if (!(level > 0 && level < 1)) throw new VarmapError("E_USAGE", `--level must be in (0, 1), got '${String(opts.level)}'`);
  const gofBoot = parseInteger(opts.gofBoot, "--gof-boot", { min: 0, max: 100000, default: 0, example: 999 });
  const minRuns = parseInteger(opts.minRuns, "--min-runs", { ...{ min: 3, why: "the MLE needs 3 distinct values" }, default: 10 });
  return {
    ...DEFAULT_GEV_OPTIONS,
    tail: opts.tail === "lower" ? "lower" : "upper",
    block,
    periods,
    level,
    profile: Boolean(opts.profile),
    information: opts.information === "expected" ? "expected" : "observed",
    gumbelDetail: Boolean(opts.gumbel),
    minRuns,
    diagnostics: opts.diagnostics !== undefined && opts.diagnostics !== false,
    ...(gofBoot ? { gofBoot, seed: String(opts.seed ?? "1") } : {}),
  };
}
