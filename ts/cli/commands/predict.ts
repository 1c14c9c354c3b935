// `varmap predict models.json --at configs.csv --out predictions.csv`: the map statistic at new configurations.
import type { Command } from "commander";
import { VarmapError } from "../../errors.js";
import { formatOf, literal, openDb, queryRows } from "../../data/duckdb.js";
import { writeTable, tableCsv, type Column } from "../../data/write.js";
import { matrix } from "../../predict/matrix.js";
import { predictorFromJSON } from "../../predict/registry.js";
import type { Predictor } from "../../predict/estimator.js";
import { mapKey, readModelSets, type ModelsFile } from "../../predict/models-file.js";
import { addDistributionPredictOptions, predictDistributionAction } from "../distribution.js";
import { isDistributionModelsFile } from "../../distribution/model.js";
import { conformalHalfWidth, conformalInterval } from "../../predict/conformal.js";
import { Gp } from "../../predict/gp.js";

export function register(program: Command): void {
  const cmd = program
    .command("predict")
    .description("predict the map statistic at new configurations with the models `varmap fit` or `varmap refit` saved")
    .argument("<models>", "models file written by `varmap fit --out`, or models.json of a `varmap refit` output (every method side by side)")
    .requiredOption("--at <path>", "configurations (.csv or .parquet): the map's factor columns and input columns")
    .option("--out <path>", "predictions (.csv, .json or .parquet); default: CSV on stdout")
    .option("--quiet", "no notes on stderr")
    .option(
      "--interval <level>",
      "also columns lo, hi: a prediction interval of this coverage, e.g. 0.9 (conformal from `fit --conformal-folds`; gp without it: its own)",
    );
  addDistributionPredictOptions(cmd).action(async (modelsPath: string, opts: Record<string, unknown>) => {
    if (isDistributionModelsFile(modelsPath)) return predictDistributionAction(modelsPath, opts, readRows);
    const level = opts.interval === undefined ? undefined : Number(opts.interval);
    if (level !== undefined && !(level > 0 && level < 1))
      throw new VarmapError("E_USAGE", `--interval ${String(opts.interval)} is not a coverage level in (0, 1)`, { remedy: "e.g. --interval 0.9" });
    const sets = readModelSets(modelsPath);
    const file = sets[0];
    const at = String(opts.at);
    const rows = await readRows(at);
    const need = [...file.factors, ...file.inputs];
    const have = new Set(rows.length ? Object.keys(rows[0]) : need);
    const missing = need.find((c) => !have.has(c));
    if (missing)
      throw new VarmapError("E_COLUMN", `column '${missing}' is missing`, {
        location: { file: at, column: missing },
        remedy: `give the columns ${need.join(", ")}`,
      });
    const numeric = (r: Record<string, unknown>, c: string, i: number): number => {
      const v = typeof r[c] === "number" ? (r[c] as number) : r[c] === null || r[c] === "" ? NaN : Number(r[c]);
      if (!Number.isFinite(v))
        throw new VarmapError("E_NONFINITE", `input '${c}' is ${r[c] === null ? "empty" : `'${r[c]}'`}, not a finite number`, {
          location: { file: at, row: i + 2, column: c },
          remedy: "give a number for every input",
        });
      return v;
    };
    // One prediction column per method: "prediction" for a single method, "prediction_<method>" side by side.
    const predictions = sets.flatMap((set) => {
      const suffix = sets.length === 1 ? "" : `_${set.method}`;
      const r = predictWith(set, rows, at, numeric, level, modelsPath);
      return [
        { name: `prediction${suffix}`, values: r.prediction },
        ...(r.lo && r.hi
          ? [
              { name: `lo${suffix}`, values: r.lo },
              { name: `hi${suffix}`, values: r.hi },
            ]
          : []),
      ];
    });
    const columns: Column[] = [
      ...file.factors.map((f) => ({ name: f, values: rows.map((r) => String(r[f])), type: "string" as const })),
      ...file.inputs.map((c) => ({ name: c, values: rows.map((r, i) => numeric(r, c, i)) })),
      ...predictions,
    ];
    if (opts.out) {
      await writeTable(String(opts.out), columns);
      if (!opts.quiet)
        process.stderr.write(`varmap: ${rows.length} prediction(s) of ${file.stat} (${sets.map((x) => x.method).join(", ")}) written to ${opts.out}\n`);
    } else process.stdout.write(tableCsv(columns));
  });
}

/**
 * One method's predictions at every row, each map's rows in one batch; with `level`, interval bounds: conformal
 * when the map's model carries a calibration (`fit --conformal-folds`), else the GP's own interval for gp.
 */
function predictWith(
  file: ModelsFile,
  rows: Record<string, unknown>[],
  at: string,
  numeric: (r: Record<string, unknown>, c: string, i: number) => number,
  level?: number,
  modelsPath?: string,
): { prediction: Float64Array; lo?: Float64Array; hi?: Float64Array } {
  const byKey = new Map(file.maps.map((m) => [mapKey(file.factors, m.key), m]));
  const groups = new Map<string, number[]>();
  rows.forEach((r, i) => {
    const key = mapKey(file.factors, Object.fromEntries(file.factors.map((f) => [f, String(r[f])])));
    if (!byKey.has(key))
      throw new VarmapError("E_UNKNOWN_MAP", `no ${file.method} model for the map ${file.factors.map((f) => `${f}=${r[f]}`).join(", ")}`, {
        location: { file: at, row: i + 2 },
        remedy: `predict only maps the models file has (${file.maps.length} fitted from ${file.source})`,
      });
    (groups.get(key) ?? groups.set(key, []).get(key)!).push(i);
  });
  const prediction = new Float64Array(rows.length);
  const lo = level === undefined ? undefined : new Float64Array(rows.length);
  const hi = level === undefined ? undefined : new Float64Array(rows.length);
  for (const [key, idx] of groups) {
    const m = byKey.get(key)!;
    const model: Predictor = predictorFromJSON(m.model);
    const X = new Float64Array(idx.length * m.inputs.length);
    idx.forEach((i, k) => m.inputs.forEach((c, j) => (X[k * m.inputs.length + j] = numeric(rows[i], c, i))));
    const Xq = matrix(X, idx.length, m.inputs.length);
    const p = model.predict(Xq);
    idx.forEach((i, k) => (prediction[i] = p[k]));
    if (level === undefined) continue;
    let bounds: { lo: Float64Array; hi: Float64Array };
    if (m.conformal) bounds = conformalInterval(p, conformalHalfWidth(m.conformal.residuals, level), m.conformal.response);
    else if (model instanceof Gp) bounds = model.predictInterval(Xq, level);
    else
      throw new VarmapError(
        "E_NO_CALIBRATION",
        `the ${file.method} model of map ${file.factors.map((f) => `${f}=${m.key[f]}`).join(", ") || "(the only map)"} has no conformal calibration`,
        {
          location: { file: modelsPath ?? file.source },
          remedy: "fit with `varmap fit … --conformal-folds 10` (gp models give their own interval without it)",
        },
      );
    idx.forEach((i, k) => ((lo![i] = bounds.lo[k]), (hi![i] = bounds.hi[k])));
  }
  return { prediction, lo, hi };
}

/** All rows of a CSV/Parquet file; CSV cells as text (numbers parsed by the caller, exactly). */
async function readRows(path: string): Promise<Record<string, unknown>[]> {
  const db = await openDb();
  try {
    const src = formatOf(path) === "parquet" ? `read_parquet(${literal(path)})` : `read_csv(${literal(path)}, header = true, all_varchar = true)`;
    return await queryRows(db.con, `SELECT * FROM ${src}`);
  } catch (e) {
    if (e instanceof VarmapError) throw e;
    throw new VarmapError("E_READ", `cannot read the configurations: ${(e as Error).message.split("\n")[0]}`, {
      location: { file: path },
      remedy: "give a CSV file with a header line, or a Parquet file",
    });
  } finally {
    db.close();
  }
}
