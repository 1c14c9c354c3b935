// `varmap convergence <runs> …`: how the confidence interval of the sd (or mean) narrows with the number of runs m,
// the 75% / 90% convergence points of seed 000 §6 (Fig. 10), the analytic baseline they almost equal, the runs
// needed for a target precision, and (--predict) the same for configurations left out of a predictor's training.
import type { Command } from "commander";
import { addDataOptions } from "../options.js";
import { describeConfig, loadDataset, optionsFromCli } from "../../data/load.js";
import { writeTable, type Column } from "../../data/write.js";
import type { ConfigTable } from "../../data/types.js";
import { VarmapError } from "../../errors.js";
import { ciFactors, convergenceCurve, convergencePoint, measureConvergence, type CiKind, type ConvergenceOptions, type ConvergenceResult, type SubsetMode } from "../../convergence/convergence.js";
import { predictCurves, type CurveMode } from "../../convergence/predict.js";
import { METHOD_NAMES } from "../../predict/registry.js";
import { choice, integer, level, numberList, positiveNumber } from "../samplesize-options.js";

type Opts = Record<string, unknown>;

export function register(program: Command): void {
  const cmd = program
    .command("convergence")
    .description("CI of the sd or mean against the number of runs: 75%/90% convergence points (seed 000 §6), measured and predicted")
    .argument("<runs>", "runs table (.csv or .parquet), one row per run");
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
    .option("--out <path>", "convergence table (.csv, .json or .parquet)")
    .option("--curves <file>", "long table: key, m, w, lower, upper, c, w_pred, c_pred, err")
    .option("--seed <s>", "seed of subsets and divisions", "1")
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
  if (o.to !== undefined && o.to < o.m0 + 2) throw new VarmapError("E_USAGE", `--to ${o.to} is below --from ${o.m0} + 2`, { remedy: "give --to at least --from + 2" });
  let pred: PredictOpts | undefined;
  if (opts.predict !== undefined) {
    const method = String(opts.predict);
    if (!METHOD_NAMES.includes(method)) throw new VarmapError("E_METHOD", `unknown method '${method}'`, { remedy: `use one of ${METHOD_NAMES.join(", ")}` });
    const p = Number(opts.p);
    if (!(p > 0 && p < 1)) throw new VarmapError("E_USAGE", `--p '${String(opts.p)}' is not in (0, 1)`, { remedy: "give a training fraction such as --p 0.9" });
    pred = { method, p, reps: integer(opts.reps, "--reps", 1, 100_000), mode: choice(opts.predictCurve, "--predict-curve", ["per-m", "plug-in"] as const) };
  }
  if (!opts.out && !opts.json && !opts.curves) throw new VarmapError("E_USAGE", "no output", { remedy: "give --out convergence.csv (and optionally --curves curves.csv), or --json" });
  const note = opts.quiet ? undefined : (m: string) => process.stderr.write(`varmap: ${m}\n`);

  const data = await loadDataset(file, { ...optionsFromCli(opts), stat: "sd" });
  const t = data.table;
  const M = (c: number) => Math.min(t.offsets[c + 1] - t.offsets[c], o.to ?? Infinity) - o.m0 + 1;
  for (let c = 0; c < t.count; c++) {
    const N = t.offsets[c + 1] - t.offsets[c];
    if (N < o.m0 + 2)
      throw new VarmapError("E_TOO_FEW_RUNS", `${N} runs, but convergence from m0 = ${o.m0} needs at least ${o.m0 + 2}`, {
        location: { file, row: t.firstRow?.[c], configuration: describeConfig(t, c) },
        remedy: `lower --from (e.g. --from ${Math.max(2, N - 2)}), or select configurations with enough runs using --where`,
      });
  }
  const results: ConvergenceResult[] = [];
  for (let c = 0; c < t.count; c++) results.push(measureConvergence(t.runs.subarray(t.offsets[c], t.offsets[c + 1]), o, c));

  // Predicted curves per map (configurations must share one curve length within a map)
  const predicted = new Map<number, { w: Float64Array[]; extrapolated: boolean; count: number }>();
  const summaryPred: Record<string, unknown> = {};
  if (pred) {
    const errsAtN: number[] = [];
    for (const map of data.maps) {
      const ids = map.ids as number[];
      const len = M(ids[0]);
      if (ids.some((c) => M(c) !== len))
        throw new VarmapError("E_USAGE", `the configurations of map ${JSON.stringify(map.key)} have different run counts`, {
          remedy: "give --to so that every configuration's curve has the same length",
        });
      const W = new Float64Array(map.rows * len);
      ids.forEach((c, r) => W.set(results[c].w, r * len));
      const factor = Float64Array.from({ length: len }, (_, j) => ciFactors(o.kind, o.m0 + j, o.level).width);
      const curves = predictCurves(map, W, len, factor, { ...pred, seed: o.seed });
      for (const div of curves.divisions)
        div.test.forEach((r, i) => {
          const c = ids[r];
          const w = div.w.slice(i * len, (i + 1) * len);
          const e = predicted.get(c) ?? { w: [], extrapolated: false, count: 0 };
          e.w.push(w);
          e.extrapolated ||= div.extrapolated[i];
          e.count++;
          predicted.set(c, e);
          errsAtN.push(Math.abs(w[len - 1] - results[c].w[len - 1]) / results[c].w[len - 1]);
        });
    }
    summaryPred.method = pred.method;
    summaryPred.p = pred.p;
    summaryPred.divisions = pred.reps;
    summaryPred.predictedConfigurations = predicted.size;
    summaryPred.widthAREatN = mean(errsAtN);
  }

  const columns = tableColumns(t, results, o, pred ? predicted : undefined);
  const curves = opts.curves ? curveColumns(t, results, pred ? predicted : undefined) : undefined;
  if (opts.out) await writeTable(String(opts.out), columns);
  if (curves) await writeTable(String(opts.curves), curves);
  const summary = {
    configurations: t.count,
    ci: o.kind,
    level: o.level,
    m0: o.m0,
    subsets: o.mode,
    median: Object.fromEntries(o.levels.map((l, i) => [`m_${l}`, median(results.map((r) => r.points[i]))])),
    analyticMedian: Object.fromEntries(o.levels.map((l, i) => [`m_${l}`, median(results.map((r) => r.analytic[i]))])),
    medianNeededPrecision: median(results.map((r) => r.needed)),
    flat: results.filter((r) => r.flat).length,
    ...(pred ? { predict: summaryPred } : {}),
  };
  note?.(`${t.count} configuration(s): median ${o.levels.map((l, i) => `m_${l} = ${summary.median[`m_${l}`]} (analytic ${summary.analyticMedian[`m_${l}`]})`).join(", ")}${pred ? `; ${pred.method} width ARE at N = ${((summaryPred.widthAREatN as number) * 100).toFixed(2)}%` : ""}`);
  if (opts.json) process.stdout.write(JSON.stringify(summary, null, 2) + "\n");
}

function mean(v: number[]): number {
  const f = v.filter((x) => Number.isFinite(x));
  return f.length ? f.reduce((s, x) => s + x, 0) / f.length : NaN;
}

function median(v: number[]): number {
  const s = v.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  return s.length % 2 ? s[(s.length - 1) / 2] : 0.5 * (s[s.length / 2 - 1] + s[s.length / 2]);
}

/** The mean predicted curve of a configuration (over the divisions that held it out). */
function meanCurve(e: { w: Float64Array[] }): Float64Array {
  const out = new Float64Array(e.w[0].length);
  for (const w of e.w) for (let j = 0; j < out.length; j++) out[j] += w[j] / e.w.length;
  return out;
}

const num = (v: number) => (Number.isFinite(v) ? v : null);

function keyColumns(t: ConfigTable, count: number, at: (i: number) => number): Column[] {
  const d = t.roles.inputs.length;
  const cols: Column[] = [];
  t.roles.factors.forEach((name, f) => cols.push({ name, values: Array.from({ length: count }, (_, i) => t.factorValues[f][at(i)]), type: "string" }));
  t.roles.inputs.forEach((name, j) => cols.push({ name, values: Array.from({ length: count }, (_, i) => t.inputs[at(i) * d + j]) }));
  return cols;
}

function tableColumns(t: ConfigTable, rs: ConvergenceResult[], o: ConvergenceOptions, predicted?: Map<number, { w: Float64Array[]; extrapolated: boolean }>): Column[] {
  const cols = keyColumns(t, rs.length, (i) => i);
  cols.push({ name: "N", values: Int32Array.from(rs, (r) => r.N), type: "int" });
  cols.push({ name: "m0", values: Int32Array.from(rs, (r) => r.m0), type: "int" });
  cols.push({ name: "w_m0", values: rs.map((r) => num(r.w[0])) });
  cols.push({ name: "w_N", values: rs.map((r) => num(r.w[r.w.length - 1])) });
  o.levels.forEach((l, i) => cols.push({ name: `m_${l}`, values: rs.map((r) => num(r.points[i])) }));
  o.levels.forEach((l, i) => cols.push({ name: `analytic_m_${l}`, values: rs.map((r) => num(r.analytic[i])) }));
  cols.push({ name: "nneeded_precision", values: rs.map((r) => num(r.needed)) });
  cols.push({ name: "flat", values: rs.map((r) => String(r.flat)), type: "string" });
  if (predicted) {
    const curve = (c: number) => (predicted.has(c) ? meanCurve(predicted.get(c)!) : undefined);
    const curves = rs.map((_, c) => curve(c));
    o.levels.forEach((l) =>
      cols.push({ name: `pred_m_${l}`, values: curves.map((w) => (w ? num(convergencePoint(convergenceCurve(w), o.m0, l)) : null)) }),
    );
    const errs = curves.map((w, c) => (w ? Array.from(w, (v, j) => Math.abs(v - rs[c].w[j]) / rs[c].w[j]) : undefined));
    cols.push({ name: "mean_err", values: errs.map((e) => (e ? num(e.reduce((s, x) => s + x, 0) / e.length) : null)) });
    cols.push({ name: "max_err", values: errs.map((e) => (e ? num(Math.max(...e)) : null)) });
    cols.push({ name: "extrapolated", values: rs.map((_, c) => (predicted.has(c) ? String(predicted.get(c)!.extrapolated) : null)), type: "string" });
  }
  return cols;
}

function curveColumns(t: ConfigTable, rs: ConvergenceResult[], predicted?: Map<number, { w: Float64Array[] }>): Column[] {
  const at: number[] = [], m: number[] = [], w: (number | null)[] = [], lo: (number | null)[] = [], hi: (number | null)[] = [], c: (number | null)[] = [];
  const wp: (number | null)[] = [], cp: (number | null)[] = [], err: (number | null)[] = [];
  rs.forEach((r, ci) => {
    const p = predicted?.has(ci) ? meanCurve(predicted.get(ci)!) : undefined;
    const pc = p ? convergenceCurve(p) : undefined;
    for (let j = 0; j < r.m.length; j++) {
      at.push(ci);
      m.push(r.m[j]);
      w.push(num(r.w[j]));
      lo.push(num(r.lower[j]));
      hi.push(num(r.upper[j]));
      c.push(num(r.c[j]));
      wp.push(p ? num(p[j]) : null);
      cp.push(pc ? num(pc[j]) : null);
      err.push(p ? num(Math.abs(p[j] - r.w[j]) / r.w[j]) : null);
    }
  });
  const cols = [...keyColumns(t, at.length, (i) => at[i]), { name: "m", values: Int32Array.from(m), type: "int" as const }, { name: "w", values: w }, { name: "lower", values: lo }, { name: "upper", values: hi }, { name: "c", values: c }];
  if (predicted) cols.push({ name: "w_pred", values: wp }, { name: "c_pred", values: cp }, { name: "err", values: err });
  return cols;
}


