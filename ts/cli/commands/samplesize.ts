// `varmap samplesize <runs> …` / `varmap samplesize --mixture JSON …`: how many runs does each configuration need?
// Γ_q(n) of the BIC-selected mixture by the delta method (seed 001 §4, App. A; spec A.2, A.4), runs needed per
// quantile level and threshold, and for the mean, sd and variance.
import type { Command } from "commander";
import { addDataOptions, splitList } from "../options.js";
import { describeConfig, loadDataset, optionsFromCli, subsetTable } from "../../data/load.js";
import { tableCsv, writeTable, type Column } from "../../data/write.js";
import type { ConfigTable } from "../../data/types.js";
import { VarmapError } from "../../errors.js";
import { parseFamilies, parseStarts, type MixtureFitRow } from "../../mixture/fit.js";
import { fitMixturesParallel } from "../../mixture/parallel.js";
import { configKey, readFitsFile } from "../../mixture/fits-file.js";
import { chooseFit, levelName, parseModelChoice, sampleSizeRow, type CandidateFit, type SampleSizeOptions, type SampleSizeRow } from "../../mixture/samplesize-config.js";
import { deltaQuantileSE, gammaQ, quantileRunsNeeded, type CenterKind, type InformationKind } from "../../mixture/samplesize.js";
import { parseWorkers } from "../../pool/pool.js";
import { choice, integer, level, parseMixtureJSON, positiveNumber, quantileLevels, runCounts, thresholds } from "../samplesize-options.js";

type Opts = Record<string, unknown>;

export function register(program: Command): void {
  const cmd = program
    .command("samplesize")
    .description("runs needed: Γ_q(n) of each configuration's mixture by the delta method (seed 001), and for the mean, sd and var")
    .argument("[runs]", "runs table (.csv or .parquet), one row per run (omit with --mixture)");
  addDataOptions(cmd)
    .option("--mixture <json>", "a model given by hand: {\"family\":\"normal\",\"w\":[…],\"a\":[…],\"b\":[…]}; prints the table to stdout")
    .option("--fits <file>", "reuse fits: the table of `varmap mixture --out` or refit's distributions.csv")
    .option("--families <list>", "families to fit: all or a comma-separated subset", "all")
    .option("--kmax <k>", "fit k = 1..kmax components", "5")
    .option("--restarts <r>", "partition starts per model (as `mixture`)", "5")
    .option("--starts <s>", "full | raced | partitions (as `mixture`)", "full")
    .option("--model <m>", "best-unfloored (best BIC among fits whose tie floor does not bind) | best | FAMILY:K", "best-unfloored")
    .option("--q <levels>", "quantile levels", "0.1,0.9")
    .option("--threshold <taus>", "targets for |Γ_q(n)| (relative standard error of the quantile)", "0.5,0.1")
    .option("--n <range>", "run counts of the curves: a:b or a list", "1:900")
    .option("--method <m>", "delta | order-statistic | bootstrap", "delta")
    .option("--reps <R>", "bootstrap refits", "400")
    .option("--density <d>", "order-statistic density: model | kde", "model")
    .option("--information <i>", "expected (quadrature) | empirical (outer product of scores over the runs)", "expected")
    .option("--center <c>", "none (SE/x_q, the default) | mean (SE/(x_q − mean): the paper's standardized scale)", "none")
    .option("--stats <list>", "statistics: q plus any of mean, sd, var", "q,mean,sd,var")
    .option("--precision <eps>", "target for the moments: relative CI half-width of the mean, relative SE of sd and var", "0.05")
    .option("--level <l>", "confidence level of the mean's CI", "0.95")
    .option("--pilot <M>", "fit on the first M runs of each configuration only; also report what all runs give")
    .option("--strict", "a singular information matrix is an error (E_SINGULAR_INFORMATION), not a row flag")
    .option("--details", "with --mixture: print the Fisher matrix and gradients (θ = π_1..π_{k−1}, a_1..a_k, b_1..b_k) to stderr")
    .option("--curves <file>", "long table of Γ_q(n): key, q, n, gamma_q")
    .option("--out <path>", "samplesize table (.csv, .json or .parquet)")
    .option("--workers <n>", "worker threads for the fits (default: one per core)")
    .option("--seed <s>", "seed (k-means++ starts, bootstrap draws)", "1")
    .option("--json", "print a summary as JSON on stdout")
    .option("--quiet", "no notes on stderr")
    .action(async (file: string | undefined, opts: Opts) => {
      await samplesizeAction(file, opts);
    });
}

interface Parsed {
  ss: SampleSizeOptions;
  ns: number[];
  pilot?: number;
}

function parseOptions(opts: Opts): Parsed {
  const qs = quantileLevels(opts.q);
  const taus = thresholds(opts.threshold);
  const ns = runCounts(opts.n);
  const stats = splitList(String(opts.stats));
  for (const s of stats) if (!["q", "mean", "sd", "var"].includes(s)) throw new VarmapError("E_USAGE", `--stats: unknown statistic '${s}'`, { remedy: "use q,mean,sd,var or a subset" });
  const ss: SampleSizeOptions = {
    qs, taus,
    method: choice(opts.method, "--method", ["delta", "order-statistic", "bootstrap"] as const),
    information: choice(opts.information, "--information", ["expected", "empirical"] as const) as InformationKind,
    center: choice(opts.center, "--center", ["none", "mean"] as const) as CenterKind,
    density: choice(opts.density, "--density", ["model", "kde"] as const),
    reps: integer(opts.reps, "--reps", 2, 1_000_000),
    seed: integer(opts.seed, "--seed", 0, Number.MAX_SAFE_INTEGER),
    stats,
    precision: positiveNumber(opts.precision, "--precision", "give a relative precision such as --precision 0.05"),
    level: level(opts.level, "--level"),
    model: parseModelChoice(opts.model as string),
  };
  const pilot = opts.pilot === undefined ? undefined : integer(opts.pilot, "--pilot", 2, 1_000_000);
  return { ss, ns, pilot };
}

export async function samplesizeAction(file: string | undefined, opts: Opts): Promise<void> {
  const p = parseOptions(opts);
  const note = opts.quiet ? undefined : (m: string) => process.stderr.write(`varmap: ${m}\n`);
  if (opts.mixture !== undefined) {
    if (file) throw new VarmapError("E_USAGE", "give either a runs table or --mixture, not both", { remedy: "drop the runs table to evaluate a model given by hand" });
    return mixtureMode(String(opts.mixture), p, opts);
  }
  if (!file) throw new VarmapError("E_USAGE", "no runs table", { remedy: "give a runs table, or a model with --mixture '{…}'" });
  if (!opts.out && !opts.json) throw new VarmapError("E_USAGE", "no output", { remedy: "give --out samplesize.csv (and optionally --curves curves.csv), or --json" });
  const families = parseFamilies(opts.families as string);
  const kmax = integer(opts.kmax, "--kmax", 1, 16);
  const restarts = integer(opts.restarts, "--restarts", 1, 1000);
  const starts = parseStarts(opts.starts);
  const workers = parseWorkers(opts.workers as string | undefined);
  if (opts.fits && p.pilot !== undefined) throw new VarmapError("E_USAGE", "--pilot refits the first M runs; it cannot reuse --fits", { remedy: "drop --fits or --pilot" });

  const data = await loadDataset(file, {
    ...optionsFromCli(opts),
    stat: "mean",
    requirePositive: true,
    positiveReason: "mixtures of positive families (runs are divided by their mean)",
  });
  let t = data.table;
  const keep: number[] = [];
  for (let c = 0; c < t.count; c++) if (t.offsets[c + 1] - t.offsets[c] >= 2) keep.push(c);
  if (keep.length < t.count) note?.(`${t.count - keep.length} configuration(s) with fewer than 2 runs skipped`);
  if (keep.length === 0) throw new VarmapError("E_NO_DATA", "no configuration has 2 or more runs", { location: { file }, remedy: "give at least 2 runs per configuration" });
  if (keep.length < t.count) t = subsetTable(t, keep);

  const pilotRuns = (c: number) => t.runs.subarray(t.offsets[c], Math.min(t.offsets[c + 1], t.offsets[c] + (p.pilot ?? Infinity)));
  const fitOpts = { families, kmax, restarts, seed: p.ss.seed, starts, workers };
  let candidates: (c: number) => CandidateFit[];
  let fullCandidates: ((c: number) => CandidateFit[]) | undefined;
  if (opts.fits) {
    const byKey = await readFitsFile(String(opts.fits), t);
    candidates = (c) => byKey.get(configKey(t, c)) ?? [];
    const missing = Array.from({ length: t.count }, (_, c) => c).filter((c) => !byKey.has(configKey(t, c)));
    if (missing.length) note?.(`${missing.length} configuration(s) have no fit in ${opts.fits} (first: ${describeConfig(t, missing[0])}); they fall back to the order statistic`);
  } else {
    note?.(`fitting ${families.length} families × k = 1..${kmax} to ${t.count} configurations${p.pilot ? ` (pilot: first ${p.pilot} runs)` : ""}`);
    candidates = await fitCandidates(t, pilotRuns, fitOpts);
    if (p.pilot !== undefined) fullCandidates = await fitCandidates(t, (c) => t.runs.subarray(t.offsets[c], t.offsets[c + 1]), fitOpts);
  }

  const rows: SampleSizeRow[] = [];
  const full: SampleSizeRow[] = [];
  for (let c = 0; c < t.count; c++) {
    const nAll = t.offsets[c + 1] - t.offsets[c];
    const fit = chooseFit(candidates(c), p.ss.model);
    const row = sampleSizeRow(Float64Array.from(pilotRuns(c)), nAll, fit, p.ss, c);
    if (row.singularInformation && opts.strict)
      throw new VarmapError("E_SINGULAR_INFORMATION", `the Fisher information of the ${row.family}:${row.k} fit is singular`, {
        location: { file, configuration: describeConfig(t, c) },
        remedy: "drop --strict to flag the row instead, or choose a smaller model with --model FAMILY:K",
      });
    rows.push(row);
    if (fullCandidates) full.push(sampleSizeRow(t.runs.slice(t.offsets[c], t.offsets[c + 1]), nAll, chooseFit(fullCandidates(c), p.ss.model), p.ss, c));
  }
  const columns = tableColumns(t, rows, p.ss, full.length ? full : undefined);
  const curves = opts.curves ? curveColumns(t, rows, p.ns) : undefined;
  // Everything is computed before anything is written.
  if (opts.out) await writeTable(String(opts.out), columns);
  if (curves) await writeTable(String(opts.curves), curves);
  const summary = summarize(rows, p.ss);
  if (opts.out) note?.(`wrote ${rows.length} configuration(s) to ${opts.out}; median runs needed ${p.ss.taus.map((tau, i) => `τ=${tau}: ${summary.medianNeeded[i]}`).join(", ")}`);
  if (opts.json) process.stdout.write(JSON.stringify(summary, null, 2) + "\n");
}

async function fitCandidates(t: ConfigTable, runsOf: (c: number) => Float64Array, o: Parameters<typeof fitMixturesParallel>[2]): Promise<(c: number) => CandidateFit[]> {
  const parts: Float64Array[] = [];
  const offsets = new Int32Array(t.count + 1);
  for (let c = 0; c < t.count; c++) {
    parts.push(runsOf(c));
    offsets[c + 1] = offsets[c] + parts[c].length;
  }
  const runs = new Float64Array(offsets[t.count]);
  parts.forEach((r, c) => runs.set(r, offsets[c]));
  const fit = await fitMixturesParallel(runs, offsets, { ...o, configIds: Int32Array.from({ length: t.count }, (_, i) => i) });
  const per: MixtureFitRow[][] = Array.from({ length: t.count }, () => []);
  for (const r of fit.rows) per[r.config].push(r);
  return (c) => per[c].map((r) => ({ family: r.family, k: r.k, bic: r.bic, floorBound: r.floorBound, best: r.best, mixture: r.mixture }));
}

function keyColumns(t: ConfigTable, count: number, at: (i: number) => number): Column[] {
  const d = t.roles.inputs.length;
  const cols: Column[] = [];
  t.roles.factors.forEach((name, f) => cols.push({ name, values: Array.from({ length: count }, (_, i) => t.factorValues[f][at(i)]), type: "string" }));
  t.roles.inputs.forEach((name, j) => cols.push({ name, values: Array.from({ length: count }, (_, i) => t.inputs[at(i) * d + j]) }));
  return cols;
}

const num = (v: number) => (Number.isFinite(v) ? v : null);
const bool = (v: boolean) => String(v);

function tableColumns(t: ConfigTable, rows: SampleSizeRow[], o: SampleSizeOptions, full?: SampleSizeRow[]): Column[] {
  const cols = keyColumns(t, rows.length, (i) => i);
  cols.push({ name: "n", values: Int32Array.from(rows, (r) => r.n), type: "int" });
  cols.push({ name: "family", values: rows.map((r) => r.family), type: "string" });
  cols.push({ name: "k", values: Int32Array.from(rows, (r) => r.k), type: "int" });
  cols.push({ name: "floor_bound", values: rows.map((r) => bool(r.floorBound)), type: "string" });
  cols.push({ name: "fallback", values: rows.map((r) => bool(r.fallback)), type: "string" });
  if (o.stats.includes("q")) {
    o.qs.forEach((q, i) => {
      const L = levelName(q);
      cols.push({ name: `x_q${L}`, values: rows.map((r) => num(r.quantiles[i].xq)) });
      cols.push({ name: `se1_q${L}`, values: rows.map((r) => num(r.quantiles[i].se1)) });
      cols.push({ name: `gamma1_q${L}`, values: rows.map((r) => num(r.quantiles[i].gamma1)) });
      cols.push({ name: `gamma_q${L}`, values: rows.map((r) => num(r.quantiles[i].gammaN)) });
      o.taus.forEach((tau, j) => cols.push({ name: `nneeded_q${L}_t${levelName(tau)}`, values: rows.map((r) => num(r.quantiles[i].needed[j])) }));
    });
    o.taus.forEach((tau, j) => cols.push({ name: `nneeded_t${levelName(tau)}`, values: rows.map((r) => num(r.needed[j])) }));
    if (full) o.taus.forEach((tau, j) => cols.push({ name: `full_nneeded_t${levelName(tau)}`, values: full.map((r) => num(r.needed[j])) }));
  }
  if (o.stats.some((s) => s !== "q")) {
    cols.push({ name: "cv", values: rows.map((r) => num(r.cv)) });
    cols.push({ name: "kurtosis", values: rows.map((r) => num(r.kurtosis)) });
  }
  if (o.stats.includes("mean")) cols.push({ name: "nneeded_mean", values: rows.map((r) => num(r.neededMean)) });
  if (o.stats.includes("sd")) cols.push({ name: "nneeded_sd", values: rows.map((r) => num(r.neededSd)) });
  if (o.stats.includes("var")) cols.push({ name: "nneeded_var", values: rows.map((r) => num(r.neededVar)) });
  cols.push({ name: "singular_information", values: rows.map((r) => bool(r.singularInformation)), type: "string" });
  cols.push({ name: "quadrature_inexact", values: rows.map((r) => bool(r.quadratureInexact)), type: "string" });
  cols.push({ name: "x_q_at_center", values: rows.map((r) => bool(r.xqAtCenter)), type: "string" });
  cols.push({ name: "too_few_runs", values: rows.map((r) => bool(r.tooFewRuns)), type: "string" });
  return cols;
}

function curveColumns(t: ConfigTable, rows: SampleSizeRow[], ns: number[]): Column[] {
  const at: number[] = [], q: number[] = [], n: number[] = [], g: (number | null)[] = [];
  rows.forEach((r, c) => {
    for (const x of r.quantiles)
      for (const m of ns) {
        at.push(c);
        q.push(x.q);
        n.push(m);
        g.push(num(gammaQ(x.se1, x.xq, r.center, m)));
      }
  });
  return [...keyColumns(t, at.length, (i) => at[i]), { name: "q", values: q }, { name: "n", values: Int32Array.from(n), type: "int" }, { name: "gamma_q", values: g }];
}

function median(v: number[]): number {
  const s = v.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  return s.length % 2 ? s[(s.length - 1) / 2] : 0.5 * (s[s.length / 2 - 1] + s[s.length / 2]);
}

function summarize(rows: SampleSizeRow[], o: SampleSizeOptions) {
  return {
    configurations: rows.length,
    thresholds: o.taus,
    medianNeeded: o.taus.map((_, j) => median(rows.map((r) => r.needed[j]))),
    medianNeededMean: median(rows.map((r) => r.neededMean)),
    fallback: rows.filter((r) => r.fallback).length,
    singularInformation: rows.filter((r) => r.singularInformation).length,
    tooFewRuns: rows.filter((r) => r.tooFewRuns).length,
  };
}

/** --mixture: one model given by hand; the long table q, n, x_q, se1_q, gamma_q to stdout (or --out). */
async function mixtureMode(json: string, p: Parsed, opts: Opts): Promise<void> {
  const m = parseMixtureJSON(json);
  const o = p.ss;
  if (o.method !== "delta" || o.information !== "expected")
    throw new VarmapError("E_USAGE", "--mixture evaluates the delta method with the expected information", { remedy: "drop --method/--information with --mixture" });
  const r = deltaQuantileSE(m, o.qs, { center: o.center });
  if (r.singular && opts.strict)
    throw new VarmapError("E_SINGULAR_INFORMATION", "the Fisher information of the --mixture model is singular", { location: { configuration: "--mixture" }, remedy: "check the model: two identical components make it singular" });
  const qcol: number[] = [], ncol: number[] = [], x: (number | null)[] = [], se: (number | null)[] = [], g: (number | null)[] = [];
  for (const qa of r.quantiles)
    for (const n of p.ns) {
      qcol.push(qa.q);
      ncol.push(n);
      x.push(num(qa.xq));
      se.push(num(qa.se1));
      g.push(num(gammaQ(qa.se1, qa.xq, r.center, n)));
    }
  const columns: Column[] = [{ name: "q", values: qcol }, { name: "n", values: Int32Array.from(ncol), type: "int" }, { name: "x_q", values: x }, { name: "se1_q", values: se }, { name: "gamma_q", values: g }];
  const needed = o.taus.map((tau) => ({ threshold: tau, perLevel: r.quantiles.map((qa) => ({ q: qa.q, n: quantileRunsNeeded(qa.se1, qa.xq, r.center, tau) })) }));
  if (opts.details) {
    const P = r.info.P;
    const lines = [`Fisher information (θ = π_1..π_{k−1}, a_1..a_k, b_1..b_k), reciprocal condition ${r.rcond.toExponential(3)}:`];
    for (let i = 0; i < P; i++) lines.push("  " + Array.from(r.info.I.subarray(i * P, i * P + P), (v) => v.toExponential(15)).join(" "));
    for (const qa of r.quantiles) lines.push(`q=${qa.q}: x_q=${qa.xq} f(x_q)=${qa.f} g=[${Array.from(qa.g).join(", ")}] se1=${qa.se1}`);
    process.stderr.write(lines.join("\n") + "\n");
  }
  if (opts.out) await writeTable(String(opts.out), columns);
  else if (!opts.json) process.stdout.write(tableCsv(columns));
  if (!opts.quiet) for (const nd of needed) process.stderr.write(`varmap: runs needed for |Γ| ≤ ${nd.threshold}: ${nd.perLevel.map((v) => `q=${v.q}: ${v.n}`).join(", ")}; max ${Math.max(...nd.perLevel.map((v) => v.n))}\n`);
  if (opts.json) process.stdout.write(JSON.stringify({ family: m.family.name, k: m.k, center: r.center, singular: r.singular, rcond: r.rcond, quantiles: r.quantiles.map((qa) => ({ q: qa.q, x_q: qa.xq, se1: qa.se1, gamma1: gammaQ(qa.se1, qa.xq, r.center, 1) })), needed }, null, 2) + "\n");
}
