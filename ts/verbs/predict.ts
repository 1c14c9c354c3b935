// `predict`: the map statistic at new configurations with the models `fit` or `refit` saved, with trust columns
// and optional intervals. The CLI (ts/cli/commands/predict.ts) parses the flags into PredictOptions and prints
// the summary; distribution models files go to ts/verbs/distribution.ts (runPredictDistribution).
import { VarmapError } from "../errors.js";
import { checkRowColumns, readFileRows } from "../data/duckdb.js";
import { writeTable, tableCsv, type Column } from "../data/write.js";
import { matrix } from "../predict/matrix.js";
import { predictorFromJSON } from "../predict/registry.js";
import type { Predictor } from "../predict/estimator.js";
import { mapKey, readModelSets, type ModelsFile } from "../predict/models-file.js";
import { addCounts, countTrust, emptyCounts, isNonNegativeStat, trustWarnings, type TrustCounts } from "../predict/trust.js";
import {
  conformalHalfWidth,
  conformalInterval,
  conformalIntervalPerQuery,
  groupedHalfWidths,
  queryKinds,
  type GroupedConformal,
} from "../predict/conformal.js";
import { Hybrid } from "../predict/hybrid.js";
import { Gp } from "../predict/gp.js";
import { firstNonPositiveLogInput, logInputError } from "../predict/scaling.js";
import { isDistributionModelsFile } from "../distribution/model.js";

export interface PredictOptions {
  /** Configurations (.csv, .tsv or .parquet): the map's factor columns and input columns. */
  at: string;
  /** Predictions (.csv, .tsv, .json or .parquet); without it the CSV is in the summary (`csv`). */
  out?: string;
  /** Also lo, hi: a prediction interval of this coverage in (0, 1). */
  interval?: number;
}

export interface PredictSummary {
  out: string | null;
  predictions: number;
  stat: string;
  /** A negative prediction of a nonnegative statistic on a linear scale is clamped to 0. */
  clampsNegative: boolean;
  /** Per method (in the models file's order) its trust counts and, when known, the novel combinations. */
  methods: Record<string, TrustCounts & { novel?: number }>;
  /** The predictions as CSV when no `out` was given. */
  csv?: string;
  /** Warnings and notes, once per run: "warning: …" / "note: …". */
  messages: string[];
}

/** What a models file holds: the map statistic's models (runPredict) or distribution models (runPredictDistribution). */
export function modelsKind(path: string): "statistic" | "distribution" {
  return isDistributionModelsFile(path) ? "distribution" : "statistic";
}

export async function runPredict(modelsPath: string, options: PredictOptions): Promise<PredictSummary> {
  const level = options.interval;
  if (level !== undefined && !(level > 0 && level < 1))
    throw new VarmapError("E_USAGE", `--interval ${String(level)} is not a coverage level in (0, 1)`, { remedy: "e.g. --interval 0.9" });
  const sets = readModelSets(modelsPath);
  const file = sets[0];
  const at = options.at;
  const rows = await readConfigurations(at);
  const need = [...file.factors, ...file.inputs];
  checkRowColumns(rows, need, at);
  const numeric = (r: Record<string, unknown>, c: string, i: number): number => {
    const v = typeof r[c] === "number" ? (r[c] as number) : r[c] === null || r[c] === "" ? NaN : Number(r[c]);
    if (!Number.isFinite(v))
      throw new VarmapError("E_NONFINITE", `input '${c}' is ${r[c] === null ? "empty" : `'${r[c]}'`}, not a finite number`, {
        location: { file: at, row: i + 2, column: c },
        remedy: "give a number for every input",
      });
    return v;
  };
  // One prediction column per method: "prediction" for a single method, "prediction_<method>" side by side; each
  // followed by its interval bounds (with --interval) and its trust columns (ts/predict/trust.ts) named alike:
  // lo, hi, extrapolated, distance, clamped.
  const results = sets.map((set) => ({ method: set.method, ...predictWith(set, rows, at, numeric, level, modelsPath, sets.length > 1) }));
  if (level !== undefined && rows.length > 0 && results.every((r) => (r.noInterval ?? 0) === rows.length))
    throw new VarmapError("E_NO_CALIBRATION", `no method of ${modelsPath} has a conformal calibration or an interval of its own`, {
      location: { file: modelsPath },
      remedy: "refit with `varmap refit … --conformal-folds 10` (gp models give their own interval without it)",
    });
  const suffix = (method: string): string => (sets.length === 1 ? "" : `_${method}`);
  const predictions: Column[] = results.flatMap((r) => [
    { name: `prediction${suffix(r.method)}`, values: r.values },
    ...(r.lo && r.hi
      ? [
          { name: `lo${suffix(r.method)}`, values: r.lo },
          { name: `hi${suffix(r.method)}`, values: r.hi },
        ]
      : []),
    ...(r.novel ? [{ name: `novel${suffix(r.method)}`, values: Int32Array.from(r.novel), type: "int" as const }] : []),
    { name: `extrapolated${suffix(r.method)}`, values: Int32Array.from(r.extrapolated), type: "int" as const },
    { name: `distance${suffix(r.method)}`, values: r.distance },
    { name: `clamped${suffix(r.method)}`, values: Int32Array.from(r.clamped), type: "int" as const },
  ]);
  const columns: Column[] = [
    ...file.factors.map((f) => ({ name: f, values: rows.map((r) => String(r[f])), type: "string" as const })),
    ...file.inputs.map((c) => ({ name: c, values: rows.map((r, i) => numeric(r, c, i)) })),
    ...predictions,
  ];
  const out = options.out;
  let csv: string | undefined;
  if (out) await writeTable(out, columns);
  else csv = tableCsv(columns);
  // Warnings once per run (not per map or row): one line per kind and method.
  const messages: string[] = [];
  for (const r of results) for (const line of trustWarnings(r.counts, r.method)) messages.push(`warning: ${line}`);
  for (const r of results)
    if (r.noInterval)
      messages.push(
        `note: ${r.method}: no interval for ${r.noInterval} row(s) (lo/hi NaN): its models carry no conformal calibration (refit --conformal-folds 10)`,
      );
  for (const r of results)
    if (r.novel && r.novelCount)
      messages.push(
        `note: ${r.novelCount} of ${rows.length} prediction(s) of ${r.method} are for combinations never measured (column novel${suffix(r.method)}): expect group-out errors there (varmap cv --leave-out), not random-division ones`,
      );
  return {
    out: out ?? null,
    predictions: rows.length,
    stat: file.stat,
    clampsNegative: isNonNegativeStat(file.stat) && file.response === "linear",
    methods: Object.fromEntries(results.map((r) => [r.method, { ...r.counts, ...(r.novel ? { novel: r.novelCount } : {}) }])),
    ...(csv !== undefined ? { csv } : {}),
    messages,
  };
}

interface MethodPredictions {
  values: Float64Array;
  extrapolated: Uint8Array;
  distance: Float64Array;
  clamped: Uint8Array;
  counts: TrustCounts;
  lo?: Float64Array;
  hi?: Float64Array;
  /** Rows left without an interval (a method with neither a conformal calibration nor its own interval). */
  noInterval?: number;
  /** Per row, 1 when its combination was never measured (--conformal-groups' columns, or hybrid's own test); absent when unknown. */
  novel?: Uint8Array;
  novelCount?: number;
}

/**
 * One method's predictions at every row with their trust columns, each map's rows in one batch; with `level`,
 * interval bounds: conformal when the map's model carries a calibration (`fit --conformal-folds`), else the GP's
 * own interval for gp.
 */
function predictWith(
  file: ModelsFile,
  rows: Record<string, unknown>[],
  at: string,
  numeric: (r: Record<string, unknown>, c: string, i: number) => number,
  level?: number,
  modelsPath?: string,
  lenient = false,
): MethodPredictions {
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
  const out: MethodPredictions = {
    values: new Float64Array(rows.length),
    extrapolated: new Uint8Array(rows.length),
    distance: new Float64Array(rows.length),
    clamped: new Uint8Array(rows.length),
    counts: emptyCounts(),
    lo: level === undefined ? undefined : new Float64Array(rows.length),
    hi: level === undefined ? undefined : new Float64Array(rows.length),
  };
  // A negative sd (var, cv, ci90) is no answer: clamped to 0 and flagged. A log response is positive already.
  const nonNegative = isNonNegativeStat(file.stat) && file.response === "linear";
  for (const [key, idx] of groups) {
    const m = byKey.get(key)!;
    const model: Predictor = predictorFromJSON(m.model);
    const X = new Float64Array(idx.length * m.inputs.length);
    idx.forEach((i, k) => m.inputs.forEach((c, j) => (X[k * m.inputs.length + j] = numeric(rows[i], c, i))));
    const Xq = matrix(X, idx.length, m.inputs.length);
    const bad = firstNonPositiveLogInput(m.model.inputs?.log2 ?? [], m.inputs, X, idx.length);
    if (bad) throw logInputError(bad, { file: at, row: idx[bad.row] + 2 });
    const p = model.predictTrusted(Xq, { nonNegative });
    idx.forEach((i, k) => {
      out.values[i] = p.values[k];
      out.extrapolated[i] = p.extrapolated[k];
      out.distance[i] = p.distance[k];
      out.clamped[i] = p.clamped[k];
    });
    addCounts(out.counts, countTrust(p.values, p.extrapolated, p.negative, p.logClamped));
    const grouped = m.conformal && "groups" in m.conformal ? (m.conformal as GroupedConformal) : undefined;
    const kinds = grouped ? queryKinds(grouped.groups, Xq) : model instanceof Hybrid ? model.novelOf(Xq) : undefined;
    if (kinds) {
      out.novel ??= new Uint8Array(rows.length);
      idx.forEach((i, k) => (out.novel![i] = kinds[k] > 0 ? 1 : 0));
    }
    if (level === undefined) continue;
    let bounds: { lo: Float64Array; hi: Float64Array };
    if (grouped) {
      // Per query its novelty kind's half-width: a combination never measured is calibrated on leave-group-out residuals.
      const widths = groupedHalfWidths(grouped, level);
      bounds = conformalIntervalPerQuery(
        p.values,
        Float64Array.from(kinds!, (x) => widths[x]),
        grouped.response,
      );
    } else if (m.conformal) bounds = conformalInterval(p.values, conformalHalfWidth(m.conformal.residuals, level), m.conformal.response);
    else if (model instanceof Gp) bounds = model.predictInterval(Xq, level);
    else if (lenient) {
      // A refit file holds several methods: one without a calibration gets no interval (empty lo/hi, counted),
      // instead of failing every method (issue 44 item 6).
      idx.forEach((i) => ((out.lo![i] = Number.NaN), (out.hi![i] = Number.NaN)));
      out.noInterval = (out.noInterval ?? 0) + idx.length;
      continue;
    } else
      throw new VarmapError(
        "E_NO_CALIBRATION",
        `the ${file.method} model of map ${file.factors.map((f) => `${f}=${m.key[f]}`).join(", ") || "(the only map)"} has no conformal calibration`,
        {
          location: { file: modelsPath ?? file.source },
          remedy:
            "fit with `varmap fit … --conformal-folds 10` (or `--conformal-groups COLS` for combinations never measured) or `varmap refit … --conformal-folds 10` (gp models give their own interval without it)",
        },
      );
    // A nonnegative statistic's interval stops at 0, as its predictions do (on a linear scale they can cross it).
    const floor = nonNegative ? 0 : -Infinity;
    idx.forEach((i, k) => ((out.lo![i] = Math.max(floor, bounds.lo[k])), (out.hi![i] = Math.max(floor, bounds.hi[k]))));
  }
  if (out.novel) out.novelCount = out.novel.reduce((a, b) => a + b, 0);
  return out;
}

/** All rows of a CSV/Parquet file of configurations; CSV cells as text. */
export const readConfigurations = (path: string) => readFileRows(path, "the configurations");
