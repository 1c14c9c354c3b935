// The map verbs' actions (cv, refit), shared by their CLI files and by `varmap demo`: check the options, load the
// data, pack the maps for the workers, run the job (ts/jobs/) into --out, print the summary.
import type { VariabilityMap } from "../data/types.js";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Command } from "commander";
import { VarmapError } from "../errors.js";
import { loadDataset, optionsFromCli } from "../data/load.js";
import { addDataOptions, addRunOptions, splitList } from "./options.js";
import { describeMethods, METHOD_NAMES } from "../predict/registry.js";
import { METHOD_FLAGS, methodOptionsFromCli } from "./method-options.js";
import { describeKey } from "./commands/fit.js";
import { readSplitsFile } from "../cv/splits.js";
import { parseFractions } from "../cv/divisions.js";
import { tableFormat, writeTable } from "../data/write.js";
import { readRecords, RESULTS } from "../pool/store.js";
import { cvPlan, job as cvJob, predictionColumns } from "../jobs/cv.js";
import { jobOptionsFromCli, runJob, type JobSummary } from "../pool/job.js";
import { refitPlan, job as refitJob, type MixtureOptions } from "../jobs/refit.js";
import { parseFamilies, parseKmax, parsePriorStrength, parseStarts } from "../mixture/fit.js";
import { DEFAULT_SETUP, parseGuard, type GuardSetting } from "../mixture/select.js";
import { FAMILY_NAMES } from "../mixture/families.js";
import { parseIntegerSeed, parseSeedText } from "../data/option-values.js";
import { packMaps } from "../data/shared-maps.js";
import { sharedCopy } from "../pool/threads.js";
import { BEST_METHODS, DEFAULTS_HELP, lightenDefaultMethods, PAPER_METHODS, withDefaults } from "./defaults.js";

export type Opts = Record<string, unknown> & {
  out?: string;
  workers?: string;
  shard?: string;
  seed?: string;
  json?: boolean;
  quiet?: boolean;
  resume?: boolean;
  methods?: string;
  method?: string;
  logResponse?: boolean | string;
  noStdout?: boolean;
};

export function addBulkOptions(cmd: Command): Command {
  return addRunOptions(addDataOptions(cmd)).option("--no-resume", "discard the results already in --out and start over");
}

export function parseMethods(s: string | undefined, extra: readonly string[] = []): string[] {
  const ms = splitList(s);
  if (!ms.length) throw new VarmapError("E_USAGE", "no methods given", { remedy: `pass --methods with some of ${METHOD_NAMES.join(", ")}` });
  for (const m of ms)
    if (!METHOD_NAMES.includes(m) && !extra.includes(m))
      throw new VarmapError("E_METHOD", `unknown method '${m}'`, { remedy: `use some of ${[...METHOD_NAMES, ...extra].join(", ")}` });
  if (new Set(ms).size !== ms.length) throw new VarmapError("E_USAGE", `--methods lists a method twice: ${s}`, { remedy: "list each method once" });
  return ms;
}

function positiveInt(name: string, v: unknown, dflt: number): number {
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new VarmapError("E_USAGE", `${name} '${v}' is not a positive integer`, { remedy: `e.g. ${name} ${dflt}` });
  return n;
}

/**
 * cv: maps with one configuration (or no input that varies) cannot be cross-validated; they are skipped, named
 * and counted (issue 44: one such map of 24 used to stop the whole job with an E_SHAPE naming none). An error only
 * when no map is left.
 */
function unscorableMapsSkipped<T extends { maps: VariabilityMap[] }>(ds: T, file: string, warn?: (m: string) => void): T {
  const bad = ds.maps.filter((m) => m.rows < 2 || m.inputNames.length === 0);
  if (!bad.length) return ds;
  const names = bad.map((m) => `${describeKey(m.key)} (${m.rows} configuration${m.rows === 1 ? "" : "s"})`);
  if (bad.length === ds.maps.length)
    throw new VarmapError("E_TOO_FEW_POINTS", `no map can be cross-validated: each has one configuration or no input that varies: ${names.join("; ")}`, {
      location: { file },
      remedy: "widen --where, or give maps with at least 2 configurations that differ in an input",
    });
  warn?.(
    `${bad.length} of ${ds.maps.length} map(s) skipped: one configuration or no input that varies, nothing to cross-validate: ${names.slice(0, 10).join("; ")}${bad.length > 10 ? "; …" : ""}`,
  );
  return { ...ds, maps: ds.maps.filter((m) => !bad.includes(m)) };
}

async function loadMaps(file: string, opts: Opts) {
  const ds = await loadDataset(file, optionsFromCli(opts));
  if (!ds.maps.length)
    throw new VarmapError("E_EMPTY", `${file} yields no variability maps`, { location: { file }, remedy: "check --where and the column flags" });
  return ds;
}

function jobOptions(opts: Opts, out: string, label: string) {
  return jobOptionsFromCli(opts, out, label);
}

/** The run's warnings (trust counts, mixture flags), one line per kind, once on stderr. */
function printWarnings(s: JobSummary, opts: Opts): void {
  if (opts.quiet) return;
  for (const line of (s.summary?.warningLines as string[] | undefined) ?? []) process.stderr.write(`varmap: warning: ${line}\n`);
}

function report(s: JobSummary, opts: Opts, text: string): void {
  if (opts.noStdout) return; // called from another verb (demo), which prints its own summary
  if (opts.json) process.stdout.write(JSON.stringify(s, null, 2) + "\n");
  else if (text) process.stdout.write(text);
}

/** Hyperparameters per method from the method flags (ts/cli/method-options.ts); a flag no listed method takes is an error. */
export function hyperparameters(opts: Opts, methods: readonly string[]): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  const given = METHOD_FLAGS.filter((f) => opts[flagKey(f.flag)] !== undefined);
  for (const f of given)
    if (!methods.some((m) => f.methods.includes(m))) {
      const name = f.flag.split(" ")[0];
      throw new VarmapError("E_USAGE", `${name} applies to ${f.methods.join(", ")}, none of which is among the methods (${methods.join(", ")})`, {
        remedy: `drop ${name} or add ${f.methods[0]} to --methods`,
      });
    }
  for (const m of methods) {
    if (!METHOD_NAMES.includes(m)) continue;
    const mine: Record<string, unknown> = {};
    for (const f of given) if (f.methods.includes(m)) mine[flagKey(f.flag)] = opts[flagKey(f.flag)];
    const h = methodOptionsFromCli(mine, m);
    if (Object.keys(h).length) out[m] = h;
  }
  return out;
}

function flagKey(flag: string): string {
  return flag
    .replace(/^--/, "")
    .split(" ")[0]
    .replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** `varmap cv`: generated divisions (--p, --reps, --seed) or given ones (--splits); outputs in --out. */
export async function cvAction(file: string, given: Opts): Promise<JobSummary> {
  const opts = withDefaults(given, "cv");
  const requested = parseMethods(opts.methods ?? opts.method);
  const splits = typeof opts.splits === "string" ? readSplitsFile(opts.splits) : undefined;
  const ps = splits ? undefined : parseFractions(String(opts.p ?? "0.1:0.9:0.1"));
  const reps = positiveInt("--reps", opts.reps, 200);
  const divisionsPerMap = splits ? splits.splits.length : (ps?.length ?? 1) * reps;
  let methods = requested;
  const methodOptions = hyperparameters(opts, requested);
  const seed = parseSeedText(opts.seed);
  const predictionsPath = typeof opts.predictions === "string" ? opts.predictions : undefined;
  if (predictionsPath && !splits)
    throw new VarmapError("E_USAGE", "--predictions needs --splits", {
      remedy: "give --splits FILE, or drop --predictions (generated divisions are summarized in --out)",
    });
  if (predictionsPath) tableFormat(predictionsPath);
  const interval = opts.interval === undefined ? undefined : Number(opts.interval);
  if (interval !== undefined && !(interval > 0 && interval < 1))
    throw new VarmapError("E_USAGE", `--interval ${String(opts.interval)} is not a coverage level in (0, 1)`, { remedy: "e.g. --interval 0.9" });
  jobOptions(opts, "", "cv"); // usage errors before the (possibly long) load
  const ds = unscorableMapsSkipped(await loadMaps(file, opts), file, opts.quiet ? undefined : (m) => process.stderr.write(`varmap: warning: ${m}\n`));
  const maps = packMaps(ds.maps);
  const lightened = lightenDefaultMethods(given, requested, divisionsPerMap * ds.maps.length);
  methods = lightened.methods;
  if (lightened.note && !opts.quiet) process.stderr.write(`varmap: note: ${lightened.note}\n`);
  if (splits?.n !== undefined && !opts.quiet)
    for (const m of ds.maps)
      if (m.rows !== splits.n) process.stderr.write(`varmap: note: the splits file says n = ${splits.n} but map ${describeKey(m.key)} has ${m.rows} rows\n`);
  const ids = ds.maps.map((m) => m.ids);
  const { plan, givenTrain } = cvPlan(maps, {
    methods,
    methodOptions,
    response: (ds.resolved?.logResponse ?? opts.logResponse) ? "log" : "linear",
    stat: ds.maps[0]?.stat,
    ps,
    reps,
    seed,
    splits,
    predictions: !!predictionsPath,
    ids,
    ...(opts.interval !== undefined ? { interval: Number(opts.interval) } : {}),
  });
  // Without --out (the quick --splits use), the store lives in a temporary directory removed afterwards.
  const out = opts.out ?? mkdtempSync(join(tmpdir(), "varmap-cv-"));
  try {
    const s = await runJob(cvJob, { maps, plan, givenTrain, ids }, jobOptions(opts, out, "cv"));
    if (s.shard !== null) {
      report(s, opts, "");
      return s;
    }
    if (predictionsPath) {
      const results = new Map(readRecords(join(out, RESULTS)).map((r) => [r.id, r.result]));
      await writeTable(predictionsPath, predictionColumns(plan, results));
      if (!opts.quiet) process.stderr.write(`varmap: predictions written to ${predictionsPath}\n`);
    }
    const perMap = s.summary!.maps as { key: Record<string, string>; rows: number; methods: Record<string, { p: number; splits: number; are: number }[]> }[];
    if (opts.json && !opts.noStdout) {
      // One method: also the `are` list per map of the given-splits cv (p, splits, are).
      const maps = perMap.map((m) => (methods.length === 1 ? { ...m, are: m.methods[methods[0]].map(({ p, splits, are }) => ({ p, splits, are })) } : m));
      process.stdout.write(JSON.stringify({ ...s, method: methods.length === 1 ? methods[0] : undefined, splits: splits?.source, maps }, null, 2) + "\n");
    } else if (!opts.noStdout) {
      let text = "";
      if (splits)
        for (const m of perMap)
          for (const method of methods) {
            const rows = m.methods[method];
            text += `${method} on ${describeKey(m.key)} (${m.rows} configurations, ${splits.splits.length} splits): mean ARE per p\np\tsplits\tmean ARE\n`;
            for (const t of rows) text += `${t.p}\t${t.splits}\t${(100 * t.are).toFixed(2)}%\n`;
          }
      else text = readFileSync(join(out, "table2.md"), "utf8");
      process.stdout.write(text);
    }
    if (opts.out && !opts.quiet) process.stderr.write(`varmap: outputs in ${out}: ${s.files.join(", ")}\n`);
    printWarnings(s, opts);
    return s;
  } finally {
    if (!opts.out) rmSync(out, { recursive: true, force: true });
  }
}

export function registerCvOptions(cmd: Command): Command {
  addBulkOptions(cmd)
    .option("--methods <list>", `predictors, comma-separated: ${describeMethods()}; default ${BEST_METHODS} (--paper: ${PAPER_METHODS})`)
    .option("--method <name>", "one predictor (the same as --methods with one name)")
    .option("--p <range>", "training fractions of the generated divisions: start:stop:step or a list", "0.1:0.9:0.1")
    .option("--reps <n>", "generated divisions per training fraction", "200")
    .option("--splits <file>", 'given divisions instead: JSON {"n", "splits": [{"p", "rep", "train": [id…]}]} (ids = --id values, else row positions)')
    .option("--predictions <path>", "with --splits: every test point's prediction, p,rep,index,prediction (.csv, .tsv, .json or .parquet)")
    .option("--interval <level>", "also the coverage of conformal intervals of this level per method and p (coverage.csv; 5 inner folds per division)")
    .option("--paper", `the source papers' setup instead of the best defaults (${DEFAULTS_HELP})`);
  for (const f of METHOD_FLAGS) cmd.option(f.flag, f.description);
  return cmd;
}

/** `varmap refit`: every map with every chosen predictor; models and a summary in --out. */
export async function refitAction(file: string, given: Opts): Promise<JobSummary> {
  const opts = withDefaults(given, "refit");
  const requested = parseMethods(opts.methods);
  const methodOptions = hyperparameters(opts, requested);
  if (!opts.out) throw new VarmapError("E_USAGE", "refit needs --out <dir>", { remedy: "e.g. varmap refit data.csv --preset moana --out refit-out" });
  jobOptions(opts, opts.out, "refit"); // usage errors before the (possibly long) load
  // Mixtures need each configuration's runs: not available from an aggregated --map table.
  // Every mixture flag is validated, even when no mixtures will be fitted (--no-mixtures, --map).
  const allFamilies = parseFamilies(typeof opts.families === "string" ? opts.families : DEFAULT_SETUP.families.join(","));
  const families = opts.mixtures === false || opts.map ? [] : allFamilies;
  const kmax = parseKmax(opts.kmax);
  const starts = parseStarts(opts.starts);
  const seed = parseIntegerSeed(opts.seed);
  const priorStrength = parsePriorStrength(opts.priorStrength, DEFAULT_SETUP.priorStrength);
  parseGuard(opts.guard);
  const guard = (typeof opts.guard === "string" ? opts.guard.trim().toLowerCase() : DEFAULT_SETUP.guard) as GuardSetting;
  const conformalFolds = parseConformalFolds(opts.conformalFolds);
  const ds = await loadDataset(file, {
    ...optionsFromCli(opts),
    ...(families.length ? { requirePositive: true, positiveReason: "mixtures of positive families" } : {}),
  });
  if (!ds.maps.length)
    throw new VarmapError("E_EMPTY", `${file} yields no variability maps`, { location: { file }, remedy: "check --where and the column flags" });
  const maps = packMaps(ds.maps);
  // One fit per map: the default set keeps gp and rbf up to HEAVY_DEFAULT_FITS maps.
  const lightened = lightenDefaultMethods(given, requested, ds.maps.length);
  const methods = lightened.methods;
  if (lightened.note && !opts.quiet) process.stderr.write(`varmap: note: ${lightened.note}\n`);
  let runs: { runs: Float64Array; offsets: Int32Array; keys: string[][] } | undefined;
  let mixtures: MixtureOptions | undefined;
  if (families.length) {
    const t = ds.table;
    const d = t.roles.inputs.length;
    runs = { runs: sharedCopy(t.runs), offsets: sharedCopy(t.offsets), keys: [] };
    for (let c = 0; c < t.count; c++)
      runs.keys.push([...t.factorValues.map((f) => f[c]), ...Array.from(t.inputs.subarray(c * d, (c + 1) * d), (v) => String(v))]);
    mixtures = {
      families,
      kmax,
      seed,
      ...(starts === "full" ? {} : { starts }),
      ...(priorStrength ? { priorStrength } : {}),
      ...(guard !== "off" ? { guard } : {}),
      configs: t.count,
      columns: [...t.roles.factors, ...t.roles.inputs],
    };
  }
  const plan = refitPlan(maps, {
    methods,
    methodOptions,
    response: (ds.resolved?.logResponse ?? opts.logResponse) ? "log" : "linear",
    stat: ds.maps[0]?.stat,
    mixtures,
    conformalFolds,
  });
  const s = await runJob(refitJob, { maps, plan, runs }, jobOptions(opts, opts.out, "refit"));
  const files = refitJob.files(plan).join(", ");
  const text = s.shard === null ? readFileSync(join(opts.out, "summary.md"), "utf8") + `\nOutputs in ${opts.out}: ${files}\n` : "";
  report(s, opts, text);
  printWarnings(s, opts);
  return s;
}

/** `--conformal-folds k` of refit (as fit's): an integer >= 2, or undefined when not given. */
function parseConformalFolds(v: unknown): number | undefined {
  if (v === undefined) return undefined;
  const k = Number(v);
  if (!(Number.isInteger(k) && k >= 2))
    throw new VarmapError("E_USAGE", `--conformal-folds ${String(v)} is not an integer >= 2`, { remedy: "e.g. --conformal-folds 10" });
  return k;
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
    .option("--conformal-folds <k>", "also calibrate conformal prediction intervals of every model by k-fold cross-validation (for predict --interval)");
  for (const f of METHOD_FLAGS) cmd.option(f.flag, f.description);
  return cmd;
}
