// `varmap convergence <runs> …`: how the confidence interval of the sd (or mean) narrows with the number of runs m,
// the 75% / 90% convergence points of seed 000 §6 (Fig. 10), the analytic baseline they almost equal, the runs
// needed for a target precision, and (--predict) the same for configurations left out of a predictor's training.
import type { Command } from "commander";
import { jobOptionsFromFlags, dataOptionsFromFlags } from "../flags.js";
import { addDataOptions } from "../options.js";
import { describeConfig, loadDataset } from "../../data/load.js";
import { TABLE_OUTPUT, writeTable } from "../../data/write.js";
import { VarmapError } from "../../errors.js";
import type { CiKind, ConvergenceOptions, SubsetMode } from "../../convergence/convergence.js";
import type { CurveMode } from "../../convergence/predict.js";
import { mapSpec } from "../../convergence/outputs.js";
import { convergenceFingerprint, convergenceOutputs, job as convergenceJob, measureChunk, type ConvergencePlan } from "../../jobs/convergence.js";
import { keysOf } from "../../mixture/samplesize-table.js";
import { runJob } from "../../pool/job.js";
import { sharedCopy } from "../../pool/threads.js";
import { METHOD_NAMES } from "../../predict/registry.js";
import { choice, integer, level, numberList, positiveNumber } from "../samplesize-options.js";

type Opts = Record<string, unknown>;

export function register(program: Command): void {
  const cmd = program
    .command("convergence")
    .description("CI of the sd or mean against the number of runs: 75%/90% convergence points (seed 000 §6), measured and predicted")
    .argument("<runs>", "runs table (.csv, .tsv or .parquet), one row per run");
  addDataOptions(cmd)
    .option("--ci <kind>", "sd (chi-square interval of σ, the paper's) | mean (Student t)", "sd")
    .option("--level <l>", "confidence level of the interval", "0.9")
    .option("--from <m0>", "smallest number of runs m0", "10")
    .option("--to <N>", "largest number of runs (default: each configuration's run count)")
    .option("--levels <list>", "convergence levels", "0.75,0.9")
    .option("--subsets <mode>", "average (B random subsets per m) | nested (first m of one seeded permutation) | order (first m in run order)", "average")
    .option("--reps-subsets <B>", "random subsets per m with --subsets average", "200")
    .option("--predict <method>", `predict the curves of held-out configurations: ${METHOD_NAMES.join(", ")}`)
    .option("--p <p>", "training fraction of each division", "0.9")
    .option("--reps <R>", "random divisions", "1")
    .option("--predict-curve <mode>", "per-m (a model per m) | plug-in (ŝ at N times the width factor)", "per-m")
    .option("--precision <eps>", "target relative CI half-width for nneeded_precision", "0.05")
    .option("--out <path>", "convergence table (.csv, .tsv, .json or .parquet)")
    .option("--curves <file>", "long table: key, m, w, lower, upper, c, w_pred, c_pred, err")
    .option("--seed <s>", "seed of subsets and divisions", "1")
    .option("--workers <n>", "worker threads with an --out directory (default: one per core)")
    .option("--shard <i/N>", "with an --out directory: run only the i-th of N slices of the configurations (combine with `varmap merge`)")
    .option("--no-resume", "with an --out directory: discard the results already there and start over")
    .option("--json", "print a summary as JSON on stdout")
    .option("--quiet", "no notes on stderr")
    .action(async (file: string, opts: Opts) => {
      await convergenceAction(file, opts);
    });
}

interface PredictOpts {
  method: string;
  p: number;
  reps: number;
  mode: CurveMode;
}

export async function convergenceAction(file: string, opts: Opts): Promise<void> {
  const o: ConvergenceOptions = {
    kind: choice(opts.ci, "--ci", ["sd", "mean"] as const) as CiKind,
    level: level(opts.level, "--level"),
    m0: integer(opts.from, "--from", 2, 1_000_000),
    to: opts.to === undefined ? undefined : integer(opts.to, "--to", 4, 1_000_000),
    levels: numberList(opts.levels, "--levels", (v) => v > 0 && v <= 1, "give levels in (0, 1], e.g. --levels 0.75,0.9"),
    mode: choice(opts.subsets, "--subsets", ["average", "nested", "order"] as const) as SubsetMode,
    reps: integer(opts.repsSubsets, "--reps-subsets", 1, 1_000_000),
    seed: integer(opts.seed, "--seed", 0, Number.MAX_SAFE_INTEGER),
    precision: positiveNumber(opts.precision, "--precision", "give a relative half-width such as --precision 0.05"),
  };
  if (o.to !== undefined && o.to < o.m0 + 2)
    throw new VarmapError("E_USAGE", `--to ${o.to} is below --from ${o.m0} + 2`, { remedy: "give --to at least --from + 2" });
  let pred: PredictOpts | undefined;
  if (opts.predict !== undefined) {
    const method = String(opts.predict);
    if (!METHOD_NAMES.includes(method)) throw new VarmapError("E_METHOD", `unknown method '${method}'`, { remedy: `use one of ${METHOD_NAMES.join(", ")}` });
    const p = Number(opts.p);
    if (!(p > 0 && p < 1)) throw new VarmapError("E_USAGE", `--p '${String(opts.p)}' is not in (0, 1)`, { remedy: "give a training fraction such as --p 0.9" });
    pred = { method, p, reps: integer(opts.reps, "--reps", 1, 100_000), mode: choice(opts.predictCurve, "--predict-curve", ["per-m", "plug-in"] as const) };
  }
  if (!opts.out && !opts.json && !opts.curves)
    throw new VarmapError("E_USAGE", "no output", { remedy: "give --out convergence.csv (and optionally --curves curves.csv), or --json" });
  // An --out without a table extension is a job directory: journal, resume, --shard, `varmap merge`.
  const jobDir = opts.out !== undefined && !TABLE_OUTPUT.test(String(opts.out)) ? String(opts.out) : undefined;
  if (opts.shard !== undefined && !jobDir)
    throw new VarmapError("E_USAGE", "--shard needs an --out directory", { remedy: "give --out DIR (no .csv extension)" });
  const jobOpts = jobDir
    ? jobOptionsFromFlags(opts as { shard?: string; workers?: string; resume?: boolean; quiet?: boolean }, jobDir, "convergence")
    : undefined;
  const note = opts.quiet ? undefined : (m: string) => process.stderr.write(`varmap: ${m}\n`);

  const data = await loadDataset(file, { ...dataOptionsFromFlags(opts), stat: "sd" });
  const t = data.table;
  const len = (c: number) => Math.min(t.offsets[c + 1] - t.offsets[c], o.to ?? Infinity) - o.m0 + 1;
  for (let c = 0; c < t.count; c++) {
    const N = t.offsets[c + 1] - t.offsets[c];
    if (N < o.m0 + 2)
      throw new VarmapError("E_TOO_FEW_RUNS", `${N} runs, but convergence from m0 = ${o.m0} needs at least ${o.m0 + 2}`, {
        location: { file, row: t.firstRow?.[c], configuration: describeConfig(t, c) },
        remedy: `lower --from (e.g. --from ${Math.max(2, N - 2)}), or select configurations with enough runs using --where`,
      });
  }
  if (pred)
    for (const map of data.maps) {
      const ids = map.ids as number[];
      if (ids.some((c) => len(c) !== len(ids[0])))
        throw new VarmapError("E_USAGE", `the configurations of map ${JSON.stringify(map.key)} have different run counts`, {
          remedy: "give --to so that every configuration's curve has the same length",
        });
    }
  const keys = keysOf(t);
  const plan: ConvergencePlan = {
    format: "varmap-job",
    version: 1,
    verb: "convergence",
    fingerprint: convergenceFingerprint(t.runs, t.offsets, keys.values),
    options: o,
    predict: pred ?? null,
    maps: pred ? data.maps.map(mapSpec) : null,
    keys: { factors: keys.factors, inputs: keys.inputs },
    configs: t.count,
    chunk: Math.max(16, Math.min(256, Math.ceil(t.count / 64))),
    curves: opts.curves !== undefined,
  };
  const ctx = { plan, runs: sharedCopy(t.runs), offsets: sharedCopy(t.offsets), keys: keys.values };
  if (jobDir && jobOpts) {
    const s = await runJob(convergenceJob, ctx, jobOpts);
    if (opts.json) process.stdout.write(JSON.stringify(s, null, 2) + "\n");
    else if (s.summary) note?.(`wrote ${s.files.join(", ")} in ${jobDir}: ${JSON.stringify(s.summary)}`);
    return;
  }
  const out = convergenceOutputs(plan, measureChunk(ctx, 0, t.count), keys.values);
  // Everything is computed before anything is written.
  if (opts.out) await writeTable(String(opts.out), out.table);
  if (out.curves) await writeTable(String(opts.curves), out.curves);
  const sm = out.summary;
  note?.(
    `${t.count} configuration(s): median ${o.levels.map((l) => `m_${l} = ${sm.median[`m_${l}`]} (analytic ${sm.analyticMedian[`m_${l}`]})`).join(", ")}${sm.predict ? `; ${sm.predict.method} width ARE at N = ${(sm.predict.widthAREatN * 100).toFixed(2)}%` : ""}`,
  );
  if (opts.json) process.stdout.write(JSON.stringify(sm, null, 2) + "\n");
}
