// `summary`: what a models file holds, in the style of R's summary(): per map its method, inputs and their scaling,
// the fitted terms (coefficients, MARS terms with GCV and R², LSP neighbourhoods), and — given the data the models
// were fitted on — the in-sample R², RMSE and mean absolute relative error. The CLI (ts/cli/commands/summary.ts)
// parses the flags into SummaryOptions and prints the summary.
import { loadDataset, type LoadOptions } from "../data/load.js";
import type { VariabilityMap } from "../data/types.js";
import { VarmapError } from "../errors.js";
import { LinearRegression } from "../predict/lr.js";
import { LinearShepard } from "../predict/lsp.js";
import { Mars } from "../predict/mars.js";
import { matrix } from "../predict/matrix.js";
import { mapKey, readModelSets, type MapModel, type ModelsFile } from "../predict/models-file.js";
import { predictorFromJSON } from "../predict/registry.js";
import type { Predictor } from "../predict/estimator.js";
import { Gp } from "../predict/gp.js";
import { Rbf } from "../predict/rbf.js";
import { AutoMethod, type AutoState } from "../predict/auto.js";
import { describeKey } from "./common.js";

export interface SummaryOptions {
  /** The data the models were fitted on (with the same column roles): adds in-sample R², RMSE and mean ARE. */
  data?: { file: string; load: LoadOptions };
}

export interface InSample {
  rsq: number;
  rmse: number;
  meanAre: number;
}

interface MapSummaryText {
  key: Record<string, string>;
  method: string;
  rows: number;
  response: "linear" | "log";
  inputs: { name: string; log2: boolean; lo: number; hi: number }[];
  details: Record<string, unknown>;
  text: string[];
  inSample?: InSample;
}

/** One map's summary as `varmap summary --json` prints it. */
export type MapSummary = Omit<MapSummaryText, "text">;

export interface SummarySummary {
  /** Every map of every method in the models file. */
  maps: MapSummary[];
  /** The summary as `varmap summary` prints it. */
  text: string;
}

export async function runSummary(path: string, options: SummaryOptions = {}): Promise<SummarySummary> {
  const sets = readModelSets(path);
  let maps: Map<string, VariabilityMap> | undefined;
  if (options.data) {
    const data = await loadDataset(options.data.file, options.data.load);
    maps = new Map(data.maps.map((m) => [mapKey(sets[0].factors, m.key), m]));
  }
  const out = sets.flatMap((set) => set.maps.map((m) => summarizeMap(set, m, maps)));
  return { maps: out.map(({ text: _t, ...rest }) => rest), text: out.map((s) => s.text.join("\n")).join("\n\n") + "\n" };
}

/** What a fitted model holds (coefficients, terms, hyperparameters), as JSON details and text lines. */
function describeModel(model: Predictor, inputs: string[], rows: number): { details: Record<string, unknown>; text: string[] } {
  const details: Record<string, unknown> = {};
  const text: string[] = [];
  const m = { inputs, rows };
  if (model instanceof LinearRegression) {
    const c = model.coefficients;
    details.coefficients = Array.from(c);
    text.push("Coefficients (slopes per unit of the normalized inputs):");
    const names = ["(Intercept)", ...m.inputs];
    const w = Math.max(...names.map((n) => n.length));
    names.forEach((n, i) => text.push(`  ${n.padEnd(w)}  ${c[i].toPrecision(8)}`));
  } else if (model instanceof Mars) {
    Object.assign(details, model.stats, { terms: model.termLabels(m.inputs) });
    text.push(
      ...model
        .summary(m.inputs)
        .split("\n")
        .map((l) => `  ${l}`),
    );
  } else if (model instanceof LinearShepard) {
    const r = Array.from(model.radii).sort((a, b) => a - b);
    const np = Math.min(m.rows - 1, Math.floor((3 * m.inputs.length + 1) / 2));
    Object.assign(details, {
      nodes: m.rows,
      neighbours: np,
      radiusMin: r[0],
      radiusMedian: r[r.length >> 1],
      radiusMax: r[r.length - 1],
      rankDeficientNodes: model.rankDeficientNodes,
    });
    text.push(
      `  ${m.rows} nodes, each a local linear fit to its ${np} nearest others; radius of influence min ${r[0].toPrecision(4)}, median ${r[r.length >> 1].toPrecision(4)}, max ${r[r.length - 1].toPrecision(4)} (normalized units)`,
      `  ${model.rankDeficientNodes} rank-deficient local fit(s); interpolates the training responses exactly`,
    );
  } else if (model instanceof Gp) {
    const h = model.hyperparametersFitted;
    Object.assign(details, h);
    const g = (v: number) => v.toPrecision(4);
    text.push(
      `  ${m.rows} training points; ARD kernel on the normalized inputs (one length scale each)`,
      `  length scales (small = the input matters): ${m.inputs.map((name, j) => `${name} ${g(h.lengthScales[j])}`).join(", ")}`,
      `  nugget ${g(h.nugget)} (relative to σ² ${g(h.sigma2)})${h.noiseScale !== undefined ? `, measured-noise weight τ ${g(h.noiseScale)}` : ""}; −log likelihood ${g(h.nll)}${h.converged ? "" : " (not converged)"}`,
      ...h.notes.map((n) => `  note: ${n}`),
    );
  } else if (model instanceof Rbf) {
    const sm = model.smoothing;
    Object.assign(details, { smoothing: sm.lambda, gcv: sm.gcv, scales: sm.scales, notes: sm.notes });
    text.push(
      `  ${m.rows} centres; smoothing λ ${sm.lambda.toPrecision(4)} (GCV score ${sm.gcv.toPrecision(4)}); input scales ${sm.scales.map((v) => v.toPrecision(3)).join(", ")}`,
      ...sm.notes.map((n) => `  note: ${n}`),
    );
  } else if (model instanceof AutoMethod) {
    const c = model.choice;
    const inner = describeModel(predictorFromJSON((model.toJSON().state as AutoState).model), m.inputs, m.rows);
    Object.assign(details, { chosen: c.chosen, innerScores: c.scores, chosenModel: inner.details });
    const scores = Object.entries(c.scores)
      .sort((a, b) => (a[1] ?? Infinity) - (b[1] ?? Infinity))
      .map(([k, v]) => `${k} ${v === null ? "failed" : `${(100 * v).toPrecision(3)} %`}`)
      .join(", ");
    text.push(`  chosen: ${c.chosen} (lowest inner cross-validated mean ARE; candidates: ${scores})`, ...inner.text.map((l) => `  ${l}`));
  } else {
    text.push(
      `  ${m.rows} training points${model.method === "delaunay" ? "; piecewise-linear interpolant on the Delaunay simplices (exact at the training points)" : ""}`,
    );
  }
  return { details, text };
}

function summarizeMap(set: ModelsFile, m: MapModel, data: Map<string, VariabilityMap> | undefined): MapSummaryText {
  const model = predictorFromJSON(m.model);
  const sc = m.model.inputs;
  const inputs = m.inputs.map((name, j) => ({ name, log2: sc.log2.includes(j), lo: sc.lo[j], hi: sc.hi[j] }));
  const scale = (i: (typeof inputs)[number]) =>
    sc.kind === "unit" ? `${i.name}${i.log2 ? " (log2)" : ""} [${i.log2 ? 2 ** i.lo : i.lo}, ${i.log2 ? 2 ** i.hi : i.hi}]` : i.name;
  const text = [
    `Map ${describeKey(m.key)}: ${set.method}, ${m.rows} configurations, response ${set.stat} on the ${set.response} scale`,
    `Inputs${sc.kind === "unit" ? " (normalized to [0, 1] over the map; log2 first where marked)" : ""}: ${inputs.map(scale).join(", ")}`,
  ];
  const described = describeModel(model, m.inputs, m.rows);
  const details = described.details;
  text.push(...described.text);
  const summary: MapSummaryText = { key: m.key, method: set.method, rows: m.rows, response: set.response, inputs, details, text };
  if (data) {
    const map = data.get(mapKey(set.factors, m.key));
    if (!map)
      throw new VarmapError("E_UNKNOWN_MAP", `the data has no map ${describeKey(m.key)}`, {
        remedy: "give --data the file (and column flags) the models were fitted on",
      });
    const cols = m.inputs.map((c) => map.inputNames.indexOf(c));
    if (cols.some((j) => j < 0))
      throw new VarmapError("E_COLUMN", `map ${describeKey(m.key)} of the data lacks the model's inputs ${m.inputs.join(", ")}`, {
        remedy: "give the same column flags as when fitting",
      });
    const X = new Float64Array(map.rows * cols.length);
    for (let i = 0; i < map.rows; i++) cols.forEach((j, k) => (X[i * cols.length + k] = map.X[i * map.inputNames.length + j]));
    const p = model.predict(matrix(X, map.rows, cols.length));
    summary.inSample = inSample(p, map.y);
    const s = summary.inSample;
    text.push(
      `In-sample (${map.rows} configurations of --data): R² ${s.rsq.toFixed(4)}, RMSE ${s.rmse.toPrecision(4)}, mean ARE ${(100 * s.meanAre).toFixed(2)}%`,
    );
  }
  return summary;
}

function inSample(p: Float64Array, y: Float64Array): InSample {
  let mean = 0;
  for (const v of y) mean += v / y.length;
  let rss = 0,
    tss = 0,
    are = 0;
  for (let i = 0; i < y.length; i++) {
    rss += (p[i] - y[i]) ** 2;
    tss += (y[i] - mean) ** 2;
    are += Math.abs(p[i] - y[i]) / Math.abs(y[i]);
  }
  return { rsq: tss > 0 ? 1 - rss / tss : NaN, rmse: Math.sqrt(rss / y.length), meanAre: are / y.length };
}
