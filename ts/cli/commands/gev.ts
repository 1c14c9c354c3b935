// `varmap gev <runs>`: a GEV fit per configuration (seed 002; spec B.3) with standard errors, return levels,
// the nested Gumbel fit and its likelihood-ratio test, goodness of fit and (optionally) plot diagnostics.
import type { Command } from "commander";
import { Option } from "commander";
import { getBackend } from "../../backend/index.js";
import { addDataOptions, splitList } from "../options.js";
import { describeConfig, loadDataset, optionsFromCli } from "../../data/load.js";
import { tableFormat, writeTable, type Column } from "../../data/write.js";
import { VarmapError } from "../../errors.js";
import { DEFAULT_GEV_OPTIONS, fitGevConfigs, gevColumnNames, type GevConfigResult, type GevRunOptions } from "../../evt/configs.js";
import type { ConfigTable } from "../../data/types.js";

export function register(program: Command): void {
  const cmd = program
    .command("gev")
    .description("GEV fit of every configuration's runs: location, scale, shape with SEs, return levels, Gumbel LR test, KS/AD")
    .argument("<runs>", "runs table (.csv or .parquet), one row per run");
  addDataOptions(cmd)
    .addOption(new Option("--tail <side>", "upper: maxima (times); lower: minima (fit −x, e.g. throughput limited by the slowest node)").choices(["upper", "lower"]).default("upper"))
    .option("--block <B>", "fit the maxima of consecutive blocks of B runs in run order", "1")
    .option("--gumbel", "also report the Gumbel fit's SEs and return levels (gumbel_se_*, gumbel_rl<T>)")
    .option("--return-periods <list>", "return periods T > 1, comma-separated", "10,100,1000")
    .option("--level <p>", "confidence level of the intervals", "0.95")
    .option("--profile", "profile-likelihood intervals for the shape and the return levels (instead of Wald)")
    .addOption(new Option("--information <kind>", "standard errors from the observed or the expected information").choices(["observed", "expected"]).default("observed"))
    .option("--min-runs <n>", "configurations with fewer runs (blocks) get the row flag too_few_runs", "10")
    .option("--strict", "a configuration without a valid fit is an error (E_TOO_FEW_RUNS, E_GEV_DEGENERATE, E_GEV_UNBOUNDED, E_GEV_NOT_CONVERGED)")
    .option("--out <path>", "fits table: .csv, .json or .parquet (one row per configuration)")
    .option("--diagnostics <path>", "plot data (pp, qq, rl_point, rl_curve, density), long format")
    .option("--json", "print a machine-readable summary on stdout")
    .option("--quiet", "no notes on stderr")
    .action(async (file: string, opts: Record<string, unknown>) => {
      const o = parseGevOptions(opts);
      const out = opts.out as string | undefined;
      const diagPath = opts.diagnostics as string | undefined;
      if (!out) throw new VarmapError("E_USAGE", "--out is required", { remedy: "pass --out gev.csv (or .json/.parquet)" });
      tableFormat(out);
      if (diagPath) tableFormat(diagPath);
      const note = opts.quiet ? undefined : (m: string) => process.stderr.write(`varmap: ${m}\n`);
      const data = await loadDataset(file, { ...optionsFromCli(opts), stat: "mean", allowNoInputs: true });
      const t = data.table;
      if (o.block > 1) {
        for (let c = 0; c < t.count; c++) {
          const blocks = Math.floor((t.offsets[c + 1] - t.offsets[c]) / o.block);
          if (blocks < 10)
            throw new VarmapError("E_USAGE", `--block ${o.block} leaves ${blocks} block(s) of ${t.offsets[c + 1] - t.offsets[c]} runs (at least 10 are needed)`, {
              location: { file, configuration: describeConfig(t, c) },
              remedy: "use a smaller --block, or select configurations with more runs (--where)",
            });
        }
      }
      note?.(`fitting a GEV to ${t.count} configuration(s)${o.block > 1 ? ` (maxima of blocks of ${o.block})` : ""}, tail ${o.tail}`);
      const results = fitGevConfigs(getBackend(), t.runs, t.offsets, 0, t.count, o);
      if (opts.strict) strictCheck(results, t, file);
      const counts: Record<string, number> = {};
      for (const r of results) counts[r.flag || "ok"] = (counts[r.flag || "ok"] ?? 0) + 1;
      if (diagPath) await writeTable(diagPath, diagColumns(results, t));
      await writeTable(out, gevColumns(results, t, o));
      note?.(`wrote ${results.length} row(s) to ${out}${diagPath ? ` and diagnostics to ${diagPath}` : ""}; ${Object.entries(counts).map(([k, v]) => `${k}: ${v}`).join(", ")}`);
      if (opts.json) process.stdout.write(JSON.stringify({ verb: "gev", configurations: results.length, flags: counts, out, diagnostics: diagPath ?? null }, null, 2) + "\n");
    });
}

/** Validates every gev option before anything is read or written. */
export function parseGevOptions(opts: Record<string, unknown>): GevRunOptions {
  const block = Number(opts.block ?? 1);
  if (!Number.isInteger(block) || block < 1) throw new VarmapError("E_USAGE", `--block must be a positive integer, got '${String(opts.block)}'`);
  const periods = splitList(String(opts.returnPeriods ?? "10,100,1000")).map(Number);
  if (periods.length === 0 || periods.some((T) => !Number.isFinite(T) || T <= 1))
    throw new VarmapError("E_USAGE", `--return-periods must be numbers > 1, got '${String(opts.returnPeriods)}'`, { remedy: "e.g. --return-periods 10,100,1000" });
  const level = Number(opts.level ?? 0.95);
  if (!(level > 0 && level < 1)) throw new VarmapError("E_USAGE", `--level must be in (0, 1), got '${String(opts.level)}'`);
  const minRuns = Number(opts.minRuns ?? 10);
  if (!Number.isInteger(minRuns) || minRuns < 3) throw new VarmapError("E_USAGE", `--min-runs must be an integer >= 3 (the MLE needs 3 distinct values), got '${String(opts.minRuns)}'`);
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
    diagnostics: Boolean(opts.diagnostics),
  };
}

const STRICT_CODES: Record<string, [string, string]> = {
  too_few_runs: ["E_TOO_FEW_RUNS", "give more runs, or lower --min-runs (the SEs are meaningless below about 10)"],
  degenerate: ["E_GEV_DEGENERATE", "fewer than 3 distinct values: there is no spread to fit; drop the configuration (--where)"],
  unbounded: ["E_GEV_UNBOUNDED", "the likelihood grows without bound as ξ → −1 (runs piled at an upper endpoint); check the data or use --tail lower"],
  not_converged: ["E_GEV_NOT_CONVERGED", "the fit did not converge; check the runs for outliers or mixed regimes"],
  singular_information: ["E_GEV_NOT_CONVERGED", "the observed information is singular at the estimate; check the runs"],
};

function strictCheck(results: GevConfigResult[], t: ConfigTable, file: string): void {
  results.forEach((r, c) => {
    const entry = STRICT_CODES[r.flag];
    if (entry)
      throw new VarmapError(entry[0], `no valid GEV fit (${r.flag}, ${r.n} runs)`, { location: { file, row: t.firstRow?.[c], configuration: describeConfig(t, c) }, remedy: entry[1] });
  });
}

function keyColumns(t: ConfigTable, rowsPer: (c: number) => number): Column[] {
  const idx: number[] = [];
  for (let c = 0; c < t.count; c++) for (let k = 0; k < rowsPer(c); k++) idx.push(c);
  const d = t.roles.inputs.length;
  const cols: Column[] = [];
  t.roles.factors.forEach((name, f) => cols.push({ name, values: idx.map((c) => t.factorValues[f][c]), type: "string" }));
  t.roles.inputs.forEach((name, j) => cols.push({ name, values: idx.map((c) => t.inputs[c * d + j]) }));
  return cols;
}

function gevColumns(results: GevConfigResult[], t: ConfigTable, o: GevRunOptions): Column[] {
  const cols = keyColumns(t, () => 1);
  const strings = new Set(["tail", "converged", "regular", "flag"]);
  for (const name of gevColumnNames(o)) {
    const values = results.map((r) => r.cells[name] ?? null);
    cols.push({ name, values, type: strings.has(name) ? "string" : name === "n" || name === "iterations" || name === "n_outliers" ? "int" : "double" });
  }
  return cols;
}

function diagColumns(results: GevConfigResult[], t: ConfigTable): Column[] {
  const cols = keyColumns(t, (c) => results[c].diag?.length ?? 0);
  const rows = results.flatMap((r) => r.diag ?? []);
  const num = (v: number) => (Number.isFinite(v) ? v : null);
  cols.push({ name: "kind", values: rows.map((r) => r.kind), type: "string" });
  cols.push({ name: "x", values: rows.map((r) => num(r.x)) });
  cols.push({ name: "y", values: rows.map((r) => num(r.y)) });
  cols.push({ name: "lo", values: rows.map((r) => num(r.lo)) });
  cols.push({ name: "hi", values: rows.map((r) => num(r.hi)) });
  cols.push({ name: "outlier", values: rows.map((r) => (r.outlier === null ? null : String(r.outlier))), type: "string" });
  return cols;
}
