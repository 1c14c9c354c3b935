// The bulk verbs' actions (cv, refit), shared by their CLI files and by `varmap demo`: load the data, pack the
// maps for the workers, run the job into --out, print the summary.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Option, type Command } from "commander";
import { VarmapError } from "../errors.js";
import { loadDataset, optionsFromCli } from "../data/load.js";
import { addDataOptions, addRunOptions, splitList } from "../cli/options.js";
import { METHOD_NAMES } from "../predict/registry.js";
import { cvPlan, cvWriter, readSplits } from "./cv.js";
import { writeFileAtomic } from "./files.js";
import { runJob, type JobSummary } from "./job.js";
import { parseFractions, parseShard } from "./plan.js";
import { parseWorkers } from "./pool.js";
import { refitPlan, refitWriter, type MixtureOptions } from "./refit.js";
import { parseFamilies } from "../mixture/fit.js";
import { packMaps } from "./shared-maps.js";

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
  logResponse?: boolean;
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

async function loadMaps(file: string, opts: Opts) {
  const ds = await loadDataset(file, optionsFromCli(opts));
  if (!ds.maps.length) throw new VarmapError("E_EMPTY", `${file} yields no variability maps`, { location: { file }, remedy: "check --where and the column flags" });
  return ds;
}

function jobOptions(opts: Opts, out: string, label: string) {
  return { out, shard: parseShard(opts.shard), workers: parseWorkers(opts.workers), resume: opts.resume !== false, quiet: !!opts.quiet, label };
}

function report(s: JobSummary, opts: Opts, text: string): void {
  if (opts.noStdout) return; // called from another verb (demo), which prints its own summary
  if (opts.json) process.stdout.write(JSON.stringify(s, null, 2) + "\n");
  else if (text) process.stdout.write(text);
}

/** `varmap cv`: generated divisions (--p, --reps, --seed) or given ones (--splits); outputs in --out. */
export async function cvAction(file: string, opts: Opts): Promise<JobSummary> {
  const methods = parseMethods(opts.methods ?? opts.method ?? "lr,lsp", ["mean"]);
  const splits = typeof opts.splits === "string" ? readSplits(opts.splits) : undefined;
  const ps = splits ? undefined : parseFractions(String(opts.p ?? "0.1:0.9:0.1"));
  const reps = positiveInt("--reps", opts.reps, 200);
  jobOptions(opts, "", "cv"); // usage errors before the (possibly long) load
  const ds = await loadMaps(file, opts);
  const maps = packMaps(ds.maps);
  if (splits && Number.isFinite(splits.n) && ds.maps.some((m) => m.rows !== splits.n))
    throw new VarmapError("E_SPLITS", `the splits are for ${splits.n} configurations but a map has ${ds.maps.find((m) => m.rows !== splits.n)!.rows}`, {
      location: { file: splits.source },
      remedy: "give splits made for this map (or generate divisions with --p and --reps)",
    });
  const predictionsPath = typeof opts.predictions === "string" ? opts.predictions : undefined;
  const { plan, givenTrain } = cvPlan(maps, {
    methods,
    response: opts.logResponse ? "log" : "linear",
    ps,
    reps,
    seed: String(opts.seed ?? "1"),
    splits,
    predictions: !!predictionsPath,
    ids: ds.maps.map((m) => m.ids),
  });
  // Without --out (the quick --splits use), the store lives in a temporary directory removed afterwards.
  const out = opts.out ?? mkdtempSync(join(tmpdir(), "varmap-cv-"));
  try {
    const s = await runJob({ maps, plan, givenTrain, ids: ds.maps.map((m) => m.ids) }, cvWriter, jobOptions(opts, out, "cv"));
    if (predictionsPath && s.shard === null) writeFileAtomic(predictionsPath, readFileSync(join(out, "predictions.csv"), "utf8"));
    const table = s.shard === null ? readFileSync(join(out, "table2.md"), "utf8") : "";
    report(s, opts, table + (opts.out ? `\nOutputs in ${out}: are.csv (per map, method and p), table2.csv, table2.md, results.jsonl\n` : ""));
    return s;
  } finally {
    if (!opts.out) rmSync(out, { recursive: true, force: true });
  }
}

export function registerCvOptions(cmd: Command): Command {
  return addBulkOptions(cmd)
    .option("--methods <list>", "predictors, comma-separated (lr, lsp, delaunay, mars; mean = constant baseline)", "lr,lsp")
    .option("--method <name>", "one predictor (same as --methods with one name)")
    .option("--p <range>", "training fractions: start:stop:step or a list", "0.1:0.9:0.1")
    .option("--reps <n>", "random divisions per training fraction", "200")
    .option("--splits <file>", 'given divisions instead: JSON {"n", "splits": [{"p", "rep", "train": [id…]}]}')
    .option("--predictions <file>", "with --splits: write every test point's prediction (p,rep,index,prediction) to this CSV");
}

/** `varmap refit`: every map with every chosen predictor; models and a summary in --out. */
export async function refitAction(file: string, opts: Opts): Promise<JobSummary> {
  const methods = parseMethods(opts.methods ?? "lr,lsp");
  if (!opts.out) throw new VarmapError("E_USAGE", "refit needs --out <dir>", { remedy: "e.g. varmap refit data.csv --preset moana --out refit-out" });
  jobOptions(opts, opts.out, "refit"); // usage errors before the (possibly long) load
  // Mixtures need each configuration's runs: not available from an aggregated --map table.
  const families = opts.mixtures === false || opts.map ? [] : parseFamilies(typeof opts.families === "string" ? opts.families : "all");
  const kmax = positiveInt("--kmax", opts.kmax, 5);
  const ds = await loadDataset(file, { ...optionsFromCli(opts), ...(families.length ? { requirePositive: true, positiveReason: "mixtures of positive families" } : {}) });
  if (!ds.maps.length) throw new VarmapError("E_EMPTY", `${file} yields no variability maps`, { location: { file }, remedy: "check --where and the column flags" });
  const maps = packMaps(ds.maps);
  let runs: { runs: Float64Array; offsets: Int32Array; keys: string[][] } | undefined;
  let mixtures: MixtureOptions | undefined;
  if (families.length) {
    const t = ds.table;
    const d = t.roles.inputs.length;
    runs = { runs: sharedCopy(t.runs), offsets: sharedCopy(t.offsets), keys: [] };
    for (let c = 0; c < t.count; c++)
      runs.keys.push([...t.factorValues.map((f) => f[c]), ...Array.from(t.inputs.subarray(c * d, (c + 1) * d), (v) => String(v))]);
    const seed = /^\d+$/.test(String(opts.seed ?? "1")) ? Number(opts.seed ?? 1) : 1;
    mixtures = { families, kmax, seed, configs: t.count, columns: [...t.roles.factors, ...t.roles.inputs] };
  }
  const plan = refitPlan(maps, { methods, response: opts.logResponse ? "log" : "linear", mixtures });
  const s = await runJob({ maps, plan, runs }, refitWriter, jobOptions(opts, opts.out, "refit"));
  const files = refitWriter.files(plan).join(", ");
  const text = s.shard === null ? readFileSync(join(opts.out, "summary.md"), "utf8") + `\nOutputs in ${opts.out}: ${files}\n` : "";
  report(s, opts, text);
  return s;
}

export function registerRefitOptions(cmd: Command): Command {
  return addBulkOptions(cmd)
    .addOption(new Option("--methods <list>", "predictors fitted to every map, comma-separated").default("lr,lsp"))
    .option("--families <list>", "mixture families fitted to every configuration's runs: all or some of normal,gamma,weibull,lognormal,loglogistic,frechet", "all")
    .option("--kmax <k>", "mixture components 1..k", "5")
    .option("--no-mixtures", "fit only the maps, no run distributions");
}

/** A copy of a typed array in shared memory (workers read it without copying). */
function sharedCopy<T extends Float64Array | Int32Array>(a: T): T {
  const C = a.constructor as { new (b: SharedArrayBuffer): T };
  const out = new C(new SharedArrayBuffer(Math.max(8, a.byteLength)));
  (out as Float64Array).set(a as Float64Array);
  return (a.length === out.length ? out : out.subarray(0, a.length)) as T;
}
