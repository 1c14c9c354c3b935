// Where the plan's model uncertainty comes from (issue 43). An UncertaintySource fits one map's measured
// configurations and returns, at any configuration of the map, a prediction of the statistic and the sd of its
// error on the model scale (log of the statistic when every value is positive: a relative error). Sources are
// looked up by name, so another calibration (e.g. group-out intervals for novel combinations) plugs in with
// registerUncertaintySource without touching the planner.
//
//   committee (default): the predictor fitted on all points gives the prediction; K fold models (each fitted
//     without one fold) give a local spread s(x) of predictions; the spread is scaled so that, on the measured
//     points, it matches their cross-validated (conformal) residuals: sd(x) = α s(x), α² = Σ r_i² / Σ s_i².
//     Locally adaptive: large where the fold models disagree (few or contradictory neighbours).
//   conformal: the same cross-validated residuals, one width for every point (split-conformal's rms residual):
//     where to measure is then decided by distance to the measured points alone (the planner's diversity step).
import { balancedFolds, counterRng } from "../data/random.js";
import { VarmapError } from "../errors.js";
import { matrix } from "../predict/matrix.js";
import { createPredictor } from "../predict/registry.js";

export interface MapTraining {
  /** rows × d raw inputs. */
  X: Float64Array;
  rows: number;
  d: number;
  y: Float64Array;
  /** Sampling variance of each y (NaN where unknown). */
  yVar?: Float64Array;
  /** Inputs (column indices) to log2 before normalizing. */
  log2: number[];
  /** Predictor name (ts/predict/registry.ts). */
  method: string;
  seed: string | number;
}

export interface MapPrediction {
  /** Predicted statistic at each query. */
  mean: Float64Array;
  /** sd of the prediction error on the model scale (log when `log`). */
  sd: Float64Array;
  log: boolean;
}

export interface UncertaintySource {
  name: string;
  description: string;
  /** Predictions and error sds at q query rows (q × d raw inputs). */
  predict(train: MapTraining, Xq: Float64Array, q: number): MapPrediction;
}

const FOLDS = 5;

/** Point predictions of `method` (log response when every y > 0); a fit that fails falls back to the mean. */
export function pointPredict(train: MapTraining, Xq: Float64Array, q: number): { mean: Float64Array; log: boolean; fitted: boolean } {
  const log = train.y.every((v) => v > 0);
  try {
    const p = fitModel(
      train,
      Array.from({ length: train.rows }, (_, i) => i),
    );
    return { mean: p.predict(matrix(Xq, q, train.d)), log, fitted: true };
  } catch (e) {
    if (!(e instanceof VarmapError)) throw e;
    return { mean: new Float64Array(q).fill(centre(train.y, log)), log, fitted: false };
  }
}

function centre(y: Float64Array, log: boolean): number {
  if (y.length === 0) return NaN;
  let s = 0;
  for (const v of y) s += log ? Math.log(v) : v;
  return log ? Math.exp(s / y.length) : s / y.length;
}

function spreadOf(y: Float64Array, log: boolean): number {
  const t = Array.from(y, (v) => (log ? Math.log(v) : v));
  const m = t.reduce((a, b) => a + b, 0) / Math.max(1, t.length);
  const v = t.reduce((a, b) => a + (b - m) ** 2, 0) / Math.max(1, t.length - 1);
  return Math.sqrt(v) || 1;
}

function fitModel(train: MapTraining, rows: number[]) {
  const d = train.d;
  const X = new Float64Array(rows.length * d);
  const y = new Float64Array(rows.length);
  rows.forEach((r, i) => {
    X.set(train.X.subarray(r * d, r * d + d), i * d);
    y[i] = train.y[r];
  });
  const log = train.y.every((v) => v > 0);
  return createPredictor(train.method, { response: log ? "log" : "linear", inputs: { log2: train.log2 } }).fit(matrix(X, rows.length, d), y);
}

const toScale = (v: number, log: boolean) => (log ? Math.log(Math.max(v, 1e-300)) : v);

/** Cross-validated residuals and fold-model predictions (model scale) at the queries; undefined when folds cannot be fitted. */
function folds(
  train: MapTraining,
  Xq: Float64Array,
  q: number,
  log: boolean,
): { resid: Float64Array; spreadTrain: Float64Array; spreadQ: Float64Array } | undefined {
  const n = train.rows;
  const K = Math.min(FOLDS, n);
  if (K < 2) return undefined;
  const fold = balancedFolds(n, K, counterRng(train.seed, "plan-committee", n));
  const resid = new Float64Array(n);
  const predsQ: Float64Array[] = [];
  const predsT: Float64Array[] = [];
  const Xt = matrix(train.X, n, train.d);
  for (let k = 0; k < K; k++) {
    const rows: number[] = [];
    for (let i = 0; i < n; i++) if (fold[i] !== k) rows.push(i);
    let model: ReturnType<typeof fitModel>;
    try {
      model = fitModel(train, rows);
    } catch (e) {
      if (e instanceof VarmapError) return undefined;
      throw e;
    }
    const pt = model.predict(Xt).map((v) => toScale(v, log));
    for (let i = 0; i < n; i++) if (fold[i] === k) resid[i] = toScale(train.y[i], log) - pt[i];
    predsT.push(pt);
    predsQ.push(model.predict(matrix(Xq, q, train.d)).map((v) => toScale(v, log)));
  }
  const sdAcross = (preds: Float64Array[], m: number) => {
    const out = new Float64Array(m);
    for (let i = 0; i < m; i++) {
      let s = 0,
        ss = 0;
      for (const p of preds) s += p[i];
      const mean = s / preds.length;
      for (const p of preds) ss += (p[i] - mean) ** 2;
      out[i] = Math.sqrt(ss / (preds.length - 1));
    }
    return out;
  };
  return { resid, spreadTrain: sdAcross(predsT, n), spreadQ: sdAcross(predsQ, q) };
}

const committee: UncertaintySource = {
  name: "committee",
  description: "spread of the K fold models, scaled to the cross-validated residuals (locally adaptive)",
  predict(train, Xq, q) {
    const p = pointPredict(train, Xq, q);
    const f = p.fitted ? folds(train, Xq, q, p.log) : undefined;
    if (!f) return { mean: p.mean, sd: new Float64Array(q).fill(spreadOf(train.y, p.log) * Math.sqrt(1 + 1 / Math.max(1, train.rows))), log: p.log };
    let rr = 0,
      ss = 0;
    for (let i = 0; i < train.rows; i++) {
      rr += f.resid[i] ** 2;
      ss += f.spreadTrain[i] ** 2;
    }
    const rms = Math.sqrt(rr / train.rows);
    const alpha = ss > 0 ? Math.sqrt(rr / ss) : 0;
    const sd = alpha > 0 ? f.spreadQ.map((s) => alpha * s) : new Float64Array(q).fill(rms);
    return { mean: p.mean, sd, log: p.log };
  },
};

const conformal: UncertaintySource = {
  name: "conformal",
  description: "one width for every point: the rms of the cross-validated residuals (split-conformal)",
  predict(train, Xq, q) {
    const p = pointPredict(train, Xq, q);
    const f = p.fitted ? folds(train, new Float64Array(0), 0, p.log) : undefined;
    const width = f ? Math.sqrt(f.resid.reduce((a, r) => a + r * r, 0) / train.rows) : spreadOf(train.y, p.log);
    return { mean: p.mean, sd: new Float64Array(q).fill(width), log: p.log };
  },
};

const SOURCES = new Map<string, UncertaintySource>([
  [committee.name, committee],
  [conformal.name, conformal],
]);

/** Adds (or replaces) an uncertainty source, e.g. group-out calibrated intervals. */
export function registerUncertaintySource(source: UncertaintySource): void {
  SOURCES.set(source.name, source);
}

export function uncertaintySourceNames(): string[] {
  return [...SOURCES.keys()];
}

export function uncertaintySource(name: string): UncertaintySource {
  const s = SOURCES.get(name);
  if (!s) throw new VarmapError("E_USAGE", `--uncertainty ${name} is not a known source`, { remedy: `use one of ${uncertaintySourceNames().join(", ")}` });
  return s;
}
