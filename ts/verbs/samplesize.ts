// `samplesize`: how many runs does each configuration need? Γ_q(n) of the BIC-selected mixture by the delta
// method (seed 001 §4, App. A; spec A.2, A.4), runs needed per quantile level and threshold, and for the mean, sd
// and variance; or one model given by hand (mixture). A table file, or a job directory on the engine
// (ts/jobs/samplesize.ts). The CLI (ts/cli/commands/samplesize.ts) parses the flags into SamplesizeOptions.
import { describeConfig, loadDataset, subsetTable, type LoadOptions } from "../data/load.js";
import { TABLE_OUTPUT, tableCsv, writeTable, type Column } from "../data/write.js";
import type { ConfigTable } from "../data/types.js";
import { VarmapError } from "../errors.js";
import { parseStarts, type MixtureFitRow } from "../mixture/fit.js";
import { FAMILY_NAMES, type FamilyName } from "../mixture/families.js";
import { fitMixturesParallel } from "../jobs/mixture.js";
import { configKey, readFitsFile } from "../mixture/fits-file.js";
import { chooseFit, runsFloor, sampleSizeRow, type CandidateFit, type SampleSizeOptions, type SampleSizeRow } from "../mixture/samplesize-config.js";
import { curveColumns, keysOf, samplesizeColumns, samplesizeHeadline, samplesizeSummary } from "../mixture/samplesize-table.js";
import { deltaQuantileSE, gammaQ, mixtureScale, quantileRunsNeeded, scaleMixture } from "../mixture/samplesize.js";
import { parseWorkers } from "../pool/pool.js";
import { runJob } from "../pool/job.js";
import { sharedCopy } from "../pool/threads.js";
import { job as samplesizeJob, samplesizeChunk, samplesizeFingerprint, toFitJSON, type FitJSON, type SampleSizePlan } from "../jobs/samplesize.js";
import type { MixtureStarts } from "../backend/kernels/mixture.js";
import { parseMixtureJSON } from "./samplesize-options.js";
import { parseInteger } from "../data/option-values.js";
import { jobOptions, type RunOptions } from "./common.js";

export interface SamplesizeOptions {
  /** Column roles of the runs table. */
  data: LoadOptions;
  /** What to compute: quantile levels, thresholds, method, information, center, density, reps, seed, statistics, precision, level, model, moments. */
  settings: SampleSizeOptions;
  /** Run counts of the curves (--n). */
  ns: number[];
  /** Fit on the first M runs only, and also report what all runs give. */
  pilot?: number;
  /** A model given by hand (JSON {"family", "w", "a", "b"}) instead of a runs table. */
  mixture?: string;
  /** Reuse fits: the table of `varmap mixture --out` or refit's distributions.csv. */
  fits?: string;
  /** Families to fit (default all), k = 1..kmax (default 5), restarts (default 5), starts (default full). */
  families?: FamilyName[];
  kmax?: number;
  restarts?: number;
  starts?: MixtureStarts;
  /** A singular information matrix is an error, not a row flag. */
  strict?: boolean;
  /** With mixture: the Fisher matrix and gradients on stderr. */
  details?: boolean;
  /** Long table of Γ_q(n) (in a job directory: a file name inside it). */
  curves?: string;
  /** The samplesize table (.csv, .tsv, .json, .parquet), or a job directory. */
  out?: string;
  /** The caller reads the summary (no out needed; with mixture, no table as text). */
  json?: boolean;
  run?: RunOptions;
}

interface Parsed {
  ss: SampleSizeOptions;
  ns: number[];
  pilot?: number;
}

export interface SamplesizeSummary {
  /** What `--json` prints: the job's summary, the table's (configurations, median runs needed, …) or the model's. */
  json: unknown;
  /** What is printed otherwise (the --mixture table without --out), else "". */
  text: string;
}

export async function runSamplesize(file: string | undefined, options: SamplesizeOptions): Promise<SamplesizeSummary> {
  const run = options.run ?? {};
  const p: Parsed = { ss: options.settings, ns: options.ns, pilot: options.pilot };
  const note = run.quiet ? undefined : (m: string) => process.stderr.write(`varmap: ${m}\n`);
  if (options.mixture !== undefined) {
    if (file)
      throw new VarmapError("E_USAGE", "give either a runs table or --mixture, not both", { remedy: "drop the runs table to evaluate a model given by hand" });
    // Every accepted output or input flag is used or refused (issue 44): these belong to the data mode.
    for (const [flag, given] of [
      ["--curves", options.curves !== undefined],
      ["--fits", options.fits !== undefined],
      ["--pilot", options.pilot !== undefined],
      ["--shard", run.shard !== undefined],
    ] as const)
      if (given)
        throw new VarmapError("E_USAGE", `${flag} is not used with --mixture`, {
          remedy:
            flag === "--curves"
              ? "with --mixture the table printed (or written with --out) is the curve: q, n, x_q, se1_q, gamma_q; drop --curves"
              : `drop ${flag}: it applies to a runs table`,
        });
    return mixtureMode(options.mixture, p, options);
  }
  if (!file) throw new VarmapError("E_USAGE", "no runs table", { remedy: "give a runs table, or a model with --mixture '{…}'" });
  if (!options.out && !options.json)
    throw new VarmapError("E_USAGE", "no output", { remedy: "give --out samplesize.csv (and optionally --curves curves.csv), or --json" });
  const families = options.families ?? [...FAMILY_NAMES];
  const kmax = parseInteger(options.kmax ?? 5, "--kmax", { min: 1, max: 16 });
  const restarts = parseInteger(options.restarts ?? 5, "--restarts", { min: 1, max: 1000 });
  const starts = parseStarts(options.starts);
  const workers = run.workers ?? parseWorkers(undefined);
  if (options.fits && p.pilot !== undefined)
    throw new VarmapError("E_USAGE", "--pilot refits the first M runs; it cannot reuse --fits", { remedy: "drop --fits or --pilot" });
  // An --out without a table extension is a job directory: journal, resume, --shard, `varmap merge`.
  const jobDir = options.out !== undefined && !TABLE_OUTPUT.test(String(options.out)) ? String(options.out) : undefined;
  if (run.shard !== undefined && !jobDir)
    throw new VarmapError("E_USAGE", "--shard needs an --out directory", { remedy: "give --out DIR (no .csv extension)" });
  const jobOpts = jobDir ? jobOptions(run, jobDir, "samplesize") : undefined;
  if (jobDir && options.curves !== undefined && /[\\/]/.test(String(options.curves)))
    throw new VarmapError("E_USAGE", "with an --out directory, --curves names a file inside it", { remedy: "e.g. --curves curves.csv" });

  const data = await loadDataset(file, {
    ...options.data,
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
    if (options.fits) {
      const byKey = await readFitsFile(String(options.fits), t, p.ss.model);
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
      curves: options.curves ? p.ns : null,
      keys: { factors: keys.factors, inputs: keys.inputs },
      configs: t.count,
      chunk: samplesizeChunk(t.count, !fits),
    };
    const s = await runJob(samplesizeJob, { plan, runs: sharedCopy(t.runs), offsets: sharedCopy(t.offsets), keys: keys.values, fits }, jobOpts);
    if (!options.json && s.summary)
      note?.(`wrote ${s.files.join(", ")} in ${jobDir}; ${samplesizeHeadline(s.summary as unknown as ReturnType<typeof samplesizeSummary>, p.ss)}`);
    return { json: s, text: "" };
  }

  const pilotRuns = (c: number) => t.runs.subarray(t.offsets[c], Math.min(t.offsets[c + 1], t.offsets[c] + (p.pilot ?? Infinity)));
  const fitOpts = { families, kmax, restarts, seed: p.ss.seed, starts, workers };
  let candidates: (c: number) => CandidateFit[];
  let fullCandidates: ((c: number) => CandidateFit[]) | undefined;
  if (options.fits) {
    const byKey = await readFitsFile(String(options.fits), t, p.ss.model);
    candidates = (c) => byKey.get(configKey(t, c)) ?? [];
    const missing = Array.from({ length: t.count }, (_, c) => c).filter((c) => !byKey.has(configKey(t, c)));
    if (missing.length)
      note?.(
        `${missing.length} configuration(s) have no fit in ${options.fits} (first: ${describeConfig(t, missing[0])}); they fall back to the order statistic`,
      );
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
    if (row.singularInformation && options.strict)
      throw new VarmapError("E_SINGULAR_INFORMATION", `the Fisher information of the ${row.family}:${row.k} fit is singular`, {
        location: { file, configuration: describeConfig(t, c) },
        remedy: "drop --strict to flag the row instead, or choose a smaller model with --model FAMILY:K",
      });
    rows.push(row);
    if (fullCandidates) full.push(sampleSizeRow(t.runs.slice(t.offsets[c], t.offsets[c + 1]), nAll, chooseFit(fullCandidates(c), p.ss.model), p.ss, c));
  }
  const keys = keysOf(t);
  const columns = samplesizeColumns(keys, rows, p.ss, full.length ? full : undefined);
  const curves = options.curves ? curveColumns(keys, rows, p.ns) : undefined;
  // Everything is computed before anything is written.
  if (options.out) await writeTable(String(options.out), columns);
  if (curves) await writeTable(String(options.curves), curves);
  const summary = samplesizeSummary(rows, p.ss);
  if (options.out) note?.(`wrote ${rows.length} configuration(s) to ${options.out}; ${samplesizeHeadline(summary, p.ss)}`);
  return { json: summary, text: "" };
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
async function mixtureMode(json: string, p: Parsed, opts: SamplesizeOptions): Promise<SamplesizeSummary> {
  const m = parseMixtureJSON(json);
  const o = p.ss;
  if (o.method !== "delta" || o.information !== "expected")
    throw new VarmapError("E_USAGE", "--mixture evaluates the delta method with the expected information", {
      remedy: "drop --method/--information with --mixture",
    });
  // A model far from 1 in magnitude is evaluated divided by a power of two (mixtureScale), then scaled back.
  const s = mixtureScale(m);
  const r0 = deltaQuantileSE(s === 1 ? m : scaleMixture(m, s), o.qs, { center: o.center });
  const r = s === 1 ? r0 : { ...r0, center: r0.center * s, quantiles: r0.quantiles.map((x) => ({ ...x, xq: x.xq * s, se1: x.se1 * s })) };
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
      `the quantile SE is not finite at q = ${undefinedAt.join(", ")} (${r.singular ? "singular Fisher information: a degenerate component, two components alike or a weight near 0" : "zero density at the quantile"}): those cells are empty and no runs needed is given`,
    );
  const atCenter = r.quantiles.filter((qa) => Number.isFinite(qa.se1) && qa.atCenter).map((qa) => qa.q);
  if (atCenter.length)
    notes.push(
      `x_q equals the center (--center mean, ${r.center}) at q = ${atCenter.join(", ")}: Γ = se / (x_q − center) is undefined there, so those gamma_q cells are empty and no runs needed is given`,
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
  const text = !opts.out && !opts.json ? tableCsv(columns) : "";
  if (!opts.run?.quiet)
    for (const nd of needed)
      process.stderr.write(
        `varmap: runs needed for |Γ| ≤ ${nd.threshold}: ${nd.perLevel.map((v) => `q=${v.q}: ${v.n ?? "n/a"}`).join(", ")}; max ${
          nd.perLevel.some((v) => v.n === null) ? "n/a" : Math.max(...nd.perLevel.map((v) => v.n as number))
        }\n`,
      );
  if (!opts.run?.quiet) for (const n of notes) process.stderr.write(`varmap: warning: ${n}\n`);
  return {
    json: {
      family: m.family.name,
      k: m.k,
      center: r.center,
      singular: r.singular,
      rcond: r.rcond,
      quantiles: r.quantiles.map((qa) => ({ q: qa.q, x_q: qa.xq, se1: qa.se1, gamma1: gammaQ(qa.se1, qa.xq, r.center, 1) })),
      needed,
      notes,
    },
    text,
  };
}
