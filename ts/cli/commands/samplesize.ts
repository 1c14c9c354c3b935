// `varmap samplesize <runs> …` / `varmap samplesize --mixture JSON …`: how many runs does each configuration need?
// Γ_q(n) of the BIC-selected mixture by the delta method (seed 001 §4, App. A; spec A.2, A.4), runs needed per
// quantile level and threshold, and for the mean, sd and variance.
import type { Command } from "commander";
import { addDataOptions, splitList } from "../options.js";
import { describeConfig, loadDataset, optionsFromCli, subsetTable } from "../../data/load.js";
import { TABLE_OUTPUT, tableCsv, writeTable, type Column } from "../../data/write.js";
import type { ConfigTable } from "../../data/types.js";
import { VarmapError } from "../../errors.js";
import { parseFamilies, parseStarts, type MixtureFitRow } from "../../mixture/fit.js";
import { fitMixturesParallel } from "../../jobs/mixture.js";
import { configKey, readFitsFile } from "../../mixture/fits-file.js";
import {
  chooseFit,
  parseModelChoice,
  runsFloor,
  sampleSizeRow,
  type CandidateFit,
  type SampleSizeOptions,
  type SampleSizeRow,
} from "../../mixture/samplesize-config.js";
import { curveColumns, keysOf, samplesizeColumns, samplesizeHeadline, samplesizeSummary } from "../../mixture/samplesize-table.js";
import { deltaQuantileSE, gammaQ, quantileRunsNeeded, type CenterKind, type InformationKind } from "../../mixture/samplesize.js";
import { parseWorkers } from "../../pool/pool.js";
import { jobOptionsFromCli, runJob } from "../../pool/job.js";
import { sharedCopy } from "../../pool/threads.js";
import { job as samplesizeJob, samplesizeChunk, samplesizeFingerprint, toFitJSON, type FitJSON, type SampleSizePlan } from "../../jobs/samplesize.js";
import { choice, integer, level, parseMixtureJSON, positiveNumber, quantileLevels, runCounts, thresholds } from "../samplesize-options.js";

type Opts = Record<string, unknown>;

export function register(program: Command): void {
  const cmd = program
    .command("samplesize")
    .description("runs needed: Γ_q(n) of each configuration's mixture by the delta method (seed 001), and for the mean, sd and var")
    .argument("[runs]", "runs table (.csv, .tsv or .parquet), one row per run (omit with --mixture)");
  addDataOptions(cmd)
    .option("--mixture <json>", 'a model given by hand: {"family":"normal","w":[…],"a":[…],"b":[…]}; prints the table to stdout')
    .option("--fits <file>", "reuse fits: the table of `varmap mixture --out` or refit's distributions.csv")
    .option("--families <list>", "families to fit: all or a comma-separated subset", "all")
    .option("--kmax <k>", "fit k = 1..kmax components", "5")
    .option("--restarts <r>", "partition starts per model (as `mixture`)", "5")
    .option("--starts <s>", "full | raced | partitions (as `mixture`)", "full")
    .option(
      "--model <m>",
      "best-unfloored (best BIC among fits whose tie floor does not bind; the default without --fits) | best (with --fits, the default: the fit the table marks best) | FAMILY:K",
    )
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
    .option("--moments <m>", "kurtosis for the sd and var run counts: sample (type-1 moments of the runs) | model (the fitted mixture)", "sample")
    .option("--pilot <M>", "fit on the first M runs of each configuration only; also report what all runs give")
    .option("--strict", "a singular information matrix is an error (E_SINGULAR_INFORMATION), not a row flag")
    .option("--details", "with --mixture: print the Fisher matrix and gradients (θ = π_1..π_{k−1}, a_1..a_k, b_1..b_k) to stderr")
    .option("--curves <file>", "long table of Γ_q(n): key, q, n, gamma_q")
    .option("--out <path>", "samplesize table (.csv, .tsv, .json or .parquet)")
    .option("--workers <n>", "worker threads (default: one per core)")
    .option("--shard <i/N>", "with an --out directory: run only the i-th of N slices of the configurations (combine with `varmap merge`)")
    .option("--no-resume", "with an --out directory: discard the results already there and start over")
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
  for (const s of stats)
    if (!["q", "mean", "sd", "var"].includes(s))
      throw new VarmapError("E_USAGE", `--stats: unknown statistic '${s}'`, { remedy: "use q,mean,sd,var or a subset" });
  const ss: SampleSizeOptions = {
    qs,
    taus,
    method: choice(opts.method, "--method", ["delta", "order-statistic", "bootstrap"] as const),
    information: choice(opts.information, "--information", ["expected", "empirical"] as const) as InformationKind,
    center: choice(opts.center, "--center", ["none", "mean"] as const) as CenterKind,
    density: choice(opts.density, "--density", ["model", "kde"] as const),
    reps: integer(opts.reps, "--reps", 2, 1_000_000),
    seed: integer(opts.seed, "--seed", 0, Number.MAX_SAFE_INTEGER),
    stats,
    precision: positiveNumber(opts.precision, "--precision", "give a relative precision such as --precision 0.05"),
    level: level(opts.level, "--level"),
    // With --fits, the model the fits table chose (its `best` column, e.g. `varmap mixture`'s guarded selection).
    model: parseModelChoice((opts.model as string | undefined) ?? (opts.fits !== undefined ? "best" : "best-unfloored")),
    moments: choice(opts.moments ?? "sample", "--moments", ["sample", "model"] as const),
  };
  const pilot = opts.pilot === undefined ? undefined : integer(opts.pilot, "--pilot", 2, 1_000_000);
  return { ss, ns, pilot };
}

export async function samplesizeAction(file: string | undefined, opts: Opts): Promise<void> {
  const p = parseOptions(opts);
  const note = opts.quiet ? undefined : (m: string) => process.stderr.write(`varmap: ${m}\n`);
  if (opts.mixture !== undefined) {
    if (file)
      throw new VarmapError("E_USAGE", "give either a runs table or --mixture, not both", { remedy: "drop the runs table to evaluate a model given by hand" });
    // Every accepted output or input flag is used or refused (issue 44): these belong to the data mode.
    for (const [flag, key] of [
      ["--curves", "curves"],
      ["--fits", "fits"],
      ["--pilot", "pilot"],
      ["--shard", "shard"],
    ] as const)
      if (opts[key] !== undefined)
        throw new VarmapError("E_USAGE", `${flag} is not used with --mixture`, {
          remedy:
            flag === "--curves"
              ? "with --mixture the table printed (or written with --out) is the curve: q, n, x_q, se1_q, gamma_q; drop --curves"
              : `drop ${flag}: it applies to a runs table`,
        });
    return mixtureMode(String(opts.mixture), p, opts);
  }
  if (!file) throw new VarmapError("E_USAGE", "no runs table", { remedy: "give a runs table, or a model with --mixture '{…}'" });
  if (!opts.out && !opts.json)
    throw new VarmapError("E_USAGE", "no output", { remedy: "give --out samplesize.csv (and optionally --curves curves.csv), or --json" });
  const families = parseFamilies(opts.families as string);
  const kmax = integer(opts.kmax, "--kmax", 1, 16);
  const restarts = integer(opts.restarts, "--restarts", 1, 1000);
  const starts = parseStarts(opts.starts);
  const workers = parseWorkers(opts.workers as string | undefined);
  if (opts.fits && p.pilot !== undefined)
    throw new VarmapError("E_USAGE", "--pilot refits the first M runs; it cannot reuse --fits", { remedy: "drop --fits or --pilot" });
  // An --out without a table extension is a job directory: journal, resume, --shard, `varmap merge`.
  const jobDir = opts.out !== undefined && !TABLE_OUTPUT.test(String(opts.out)) ? String(opts.out) : undefined;
  if (opts.shard !== undefined && !jobDir)
    throw new VarmapError("E_USAGE", "--shard needs an --out directory", { remedy: "give --out DIR (no .csv extension)" });
  const jobOpts = jobDir ? jobOptionsFromCli(opts as { shard?: string; workers?: string; resume?: boolean; quiet?: boolean }, jobDir, "samplesize") : undefined;
  if (jobDir && opts.curves !== undefined && /[\\/]/.test(String(opts.curves)))
    throw new VarmapError("E_USAGE", "with an --out directory, --curves names a file inside it", { remedy: "e.g. --curves curves.csv" });

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
  if (keep.length === 0)
    throw new VarmapError("E_NO_DATA", "no configuration has 2 or more runs", { location: { file }, remedy: "give at least 2 runs per configuration" });
  if (keep.length < t.count) t = subsetTable(t, keep);

  if (jobDir && jobOpts) {
    let fits: FitJSON[][] | undefined;
    if (opts.fits) {
      const byKey = await readFitsFile(String(opts.fits), t, p.ss.model);
      fits = Array.from({ length: t.count }, (_, c) => (byKey.get(configKey(t, c)) ?? []).map(toFitJSON));
    }
    const keys = keysOf(t);
    const plan: SampleSizePlan = {
      format: "varmap-job",
      version: 1,
      verb: "samplesize",
      fingerprint: samplesizeFingerprint(t.runs, t.offsets, keys.values, fits),
      options: p.ss,
      fit: fits ? null : { families, kmax, restarts, seed: p.ss.seed, starts },
      pilot: p.pilot ?? null,
      curves: opts.curves ? p.ns : null,
      keys: { factors: keys.factors, inputs: keys.inputs },
      configs: t.count,
      chunk: samplesizeChunk(t.count, !fits),
    };
    const s = await runJob(samplesizeJob, { plan, runs: sharedCopy(t.runs), offsets: sharedCopy(t.offsets), keys: keys.values, fits }, jobOpts);
    if (opts.json) process.stdout.write(JSON.stringify(s, null, 2) + "\n");
    else if (s.summary)
      note?.(`wrote ${s.files.join(", ")} in ${jobDir}; ${samplesizeHeadline(s.summary as unknown as ReturnType<typeof samplesizeSummary>, p.ss)}`);
    return;
  }

  const pilotRuns = (c: number) => t.runs.subarray(t.offsets[c], Math.min(t.offsets[c + 1], t.offsets[c] + (p.pilot ?? Infinity)));
  const fitOpts = { families, kmax, restarts, seed: p.ss.seed, starts, workers };
  let candidates: (c: number) => CandidateFit[];
  let fullCandidates: ((c: number) => CandidateFit[]) | undefined;
  if (opts.fits) {
    const byKey = await readFitsFile(String(opts.fits), t, p.ss.model);
    candidates = (c) => byKey.get(configKey(t, c)) ?? [];
    const missing = Array.from({ length: t.count }, (_, c) => c).filter((c) => !byKey.has(configKey(t, c)));
    if (missing.length)
      note?.(`${missing.length} configuration(s) have no fit in ${opts.fits} (first: ${describeConfig(t, missing[0])}); they fall back to the order statistic`);
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
  const keys = keysOf(t);
  const columns = samplesizeColumns(keys, rows, p.ss, full.length ? full : undefined);
  const curves = opts.curves ? curveColumns(keys, rows, p.ns) : undefined;
  // Everything is computed before anything is written.
  if (opts.out) await writeTable(String(opts.out), columns);
  if (curves) await writeTable(String(opts.curves), curves);
  const summary = samplesizeSummary(rows, p.ss);
  if (opts.out) note?.(`wrote ${rows.length} configuration(s) to ${opts.out}; ${samplesizeHeadline(summary, p.ss)}`);
  if (opts.json) process.stdout.write(JSON.stringify(summary, null, 2) + "\n");
}

async function fitCandidates(
  t: ConfigTable,
  runsOf: (c: number) => Float64Array,
  o: Parameters<typeof fitMixturesParallel>[2],
): Promise<(c: number) => CandidateFit[]> {
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

const num = (v: number) => (Number.isFinite(v) ? v : null);

/** --mixture: one model given by hand; the long table q, n, x_q, se1_q, gamma_q to stdout (or --out). */
async function mixtureMode(json: string, p: Parsed, opts: Opts): Promise<void> {
  const m = parseMixtureJSON(json);
  const o = p.ss;
  if (o.method !== "delta" || o.information !== "expected")
    throw new VarmapError("E_USAGE", "--mixture evaluates the delta method with the expected information", {
      remedy: "drop --method/--information with --mixture",
    });
  const r = deltaQuantileSE(m, o.qs, { center: o.center });
  if (r.singular && opts.strict)
    throw new VarmapError("E_SINGULAR_INFORMATION", "the Fisher information of the --mixture model is singular", {
      location: { configuration: "--mixture" },
      remedy: "check the model: two identical components make it singular",
    });
  const qcol: number[] = [],
    ncol: number[] = [],
    x: (number | null)[] = [],
    se: (number | null)[] = [],
    g: (number | null)[] = [];
  for (const qa of r.quantiles)
    for (const n of p.ns) {
      qcol.push(qa.q);
      ncol.push(n);
      x.push(num(qa.xq));
      se.push(num(qa.se1));
      g.push(num(gammaQ(qa.se1, qa.xq, r.center, n)));
    }
  const columns: Column[] = [
    { name: "q", values: qcol },
    { name: "n", values: Int32Array.from(ncol), type: "int" },
    { name: "x_q", values: x },
    { name: "se1_q", values: se },
    { name: "gamma_q", values: g },
  ];
  const needed = o.taus.map((tau) => ({
    threshold: tau,
    perLevel: r.quantiles.map((qa) => {
      const n = quantileRunsNeeded(qa.se1, qa.xq, r.center, tau);
      // The same floor as the data mode: no answer below what can refit the model (3k − 1 parameters).
      return { q: qa.q, n: Number.isFinite(n) ? Math.max(n, runsFloor(m.k)) : null, floored: Number.isFinite(n) && n < runsFloor(m.k) };
    }),
  }));
  const undefinedAt = r.quantiles.filter((qa) => !Number.isFinite(qa.se1) || !Number.isFinite(qa.xq)).map((qa) => qa.q);
  const notes: string[] = [];
  if (undefinedAt.length)
    notes.push(
      `the quantile SE is not finite at q = ${undefinedAt.join(", ")} (${r.singular ? "singular Fisher information: two components alike or a weight near 0" : "zero density at the quantile"}): those cells are empty and no runs needed is given`,
    );
  if (needed.some((nd) => nd.perLevel.some((v) => v.floored)))
    notes.push(`runs needed raised to ${runsFloor(m.k)}, the fewest that can refit a ${m.k}-component mixture (3k − 1 parameters)`);
  if (opts.details) {
    const P = r.info.P;
    const lines = [`Fisher information (θ = π_1..π_{k−1}, a_1..a_k, b_1..b_k), reciprocal condition ${r.rcond.toExponential(3)}:`];
    for (let i = 0; i < P; i++) lines.push("  " + Array.from(r.info.I.subarray(i * P, i * P + P), (v) => v.toExponential(15)).join(" "));
    for (const qa of r.quantiles) lines.push(`q=${qa.q}: x_q=${qa.xq} f(x_q)=${qa.f} g=[${Array.from(qa.g).join(", ")}] se1=${qa.se1}`);
    process.stderr.write(lines.join("\n") + "\n");
  }
  if (opts.out) await writeTable(String(opts.out), columns);
  else if (!opts.json) process.stdout.write(tableCsv(columns));
  if (!opts.quiet)
    for (const nd of needed)
      process.stderr.write(
        `varmap: runs needed for |Γ| ≤ ${nd.threshold}: ${nd.perLevel.map((v) => `q=${v.q}: ${v.n ?? "n/a"}`).join(", ")}; max ${
          nd.perLevel.some((v) => v.n === null) ? "n/a" : Math.max(...nd.perLevel.map((v) => v.n as number))
        }\n`,
      );
  for (const n of notes) process.stderr.write(`varmap: warning: ${n}\n`);
  if (opts.json)
    process.stdout.write(
      JSON.stringify(
        {
          family: m.family.name,
          k: m.k,
          center: r.center,
          singular: r.singular,
          rcond: r.rcond,
          quantiles: r.quantiles.map((qa) => ({ q: qa.q, x_q: qa.xq, se1: qa.se1, gamma1: gammaQ(qa.se1, qa.xq, r.center, 1) })),
          needed,
          notes,
        },
        null,
        2,
      ) + "\n",
    );
}
