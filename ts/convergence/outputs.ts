// What `varmap convergence` writes (spec A.4) from the measured curves of every configuration: predictions for
// held-out configurations (--predict), convergence.csv, curves.csv and the summary. Shared by the direct CLI path
// and the job writer, so both write the same tables.
import type { Column } from "../data/write.js";
import type { VariabilityMap } from "../data/types.js";
import { keyColumns, type TableKeys } from "../mixture/samplesize-table.js";
import { ciFactors, convergenceCurve, convergencePoint, type ConvergenceOptions, type ConvergenceResult } from "./convergence.js";
import { predictCurves, type CurveMode } from "./predict.js";

export interface PredictOptions {
  method: string;
  p: number;
  reps: number;
  mode: CurveMode;
}

/** A map as the plan carries it (JSON): configuration indices, inputs and their normalization. */
export interface MapSpec {
  /** Factor name/value pairs in factor order (a plan's JSON may reorder object keys; the division streams are keyed by this order). */
  key: [string, string][];
  ids: number[];
  inputNames: string[];
  X: number[];
  normalization: VariabilityMap["normalization"];
}

export function mapSpec(m: VariabilityMap): MapSpec {
  return { key: Object.entries(m.key), ids: m.ids as number[], inputNames: m.inputNames, X: Array.from(m.X), normalization: m.normalization };
}

/** Per held-out configuration: its predicted curves (one per division that held it out), extrapolated or not. */
export type Predicted = Map<number, { w: Float64Array[]; extrapolated: boolean }>;

/**
 * Predicted curves of every map's held-out configurations, the width ARE at m = N over all of them, and the AREs of
 * the interval's endpoints at N (the centre — the mean for --ci mean — predicted by the same method on the same
 * divisions; for --ci sd the endpoints are proportional to s, so their AREs equal the width's).
 */
export function predictAll(
  maps: MapSpec[],
  results: ConvergenceResult[],
  o: ConvergenceOptions,
  pred: PredictOptions,
): { predicted: Predicted; widthAREatN: number; lowerAREatN: number; upperAREatN: number } {
  const predicted: Predicted = new Map();
  const errs: number[] = [],
    errLo: number[] = [],
    errHi: number[] = [];
  for (const spec of maps) {
    const ids = spec.ids;
    const len = results[ids[0]].w.length;
    if (ids.some((c) => results[c].w.length !== len)) throw new Error("predictAll: curves of one map differ in length (checked by the caller)");
    const W = new Float64Array(ids.length * len);
    ids.forEach((c, r) => W.set(results[c].w, r * len));
    const factor = Float64Array.from({ length: len }, (_, j) => ciFactors(o.kind, o.m0 + j, o.level).width);
    const map: VariabilityMap = {
      key: Object.fromEntries(spec.key),
      inputNames: spec.inputNames,
      X: Float64Array.from(spec.X),
      U: new Float64Array(0),
      rows: ids.length,
      normalization: spec.normalization,
      stat: "sd",
      y: new Float64Array(ids.length),
      ids,
    };
    const curves = predictCurves(map, W, len, factor, { ...pred, seed: o.seed });
    // the interval's centre at N (the mean, or the sd's interval midpoint), on the same divisions (same keys)
    const centre = (c: number) => 0.5 * (results[c].lower[len - 1] + results[c].upper[len - 1]);
    const centres = predictCurves(map, Float64Array.from(ids, centre), 1, Float64Array.of(1), { ...pred, mode: "per-m", seed: o.seed });
    curves.divisions.forEach((div, d) =>
      div.test.forEach((r, i) => {
        const c = ids[r];
        const w = div.w.slice(i * len, (i + 1) * len);
        const e = predicted.get(c) ?? { w: [], extrapolated: false };
        e.w.push(w);
        e.extrapolated ||= div.extrapolated[i];
        predicted.set(c, e);
        errs.push(Math.abs(w[len - 1] - results[c].w[len - 1]) / results[c].w[len - 1]);
        const cHat = centres.divisions[d].w[i];
        const lo = results[c].lower[len - 1],
          hi = results[c].upper[len - 1];
        errLo.push(Math.abs(cHat - w[len - 1] / 2 - lo) / Math.abs(lo));
        errHi.push(Math.abs(cHat + w[len - 1] / 2 - hi) / Math.abs(hi));
      }),
    );
  }
  return { predicted, widthAREatN: mean(errs), lowerAREatN: mean(errLo), upperAREatN: mean(errHi) };
}

function mean(v: number[]): number {
  const f = v.filter((x) => Number.isFinite(x));
  return f.length ? f.reduce((s, x) => s + x, 0) / f.length : NaN;
}

export function median(v: number[]): number {
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

const num = (v: number | null) => (v !== null && Number.isFinite(v) ? v : null);

export function convergenceColumns(k: TableKeys, rs: ConvergenceResult[], o: ConvergenceOptions, predicted?: Predicted): Column[] {
  const cols = keyColumns(k, rs.length, (i) => i);
  cols.push({ name: "N", values: Int32Array.from(rs, (r) => r.N), type: "int" });
  cols.push({ name: "m0", values: Int32Array.from(rs, (r) => r.m0), type: "int" });
  cols.push({ name: "w_m0", values: rs.map((r) => num(r.w[0])) });
  cols.push({ name: "w_N", values: rs.map((r) => num(r.w[r.w.length - 1])) });
  o.levels.forEach((l, i) => cols.push({ name: `m_${l}`, values: rs.map((r) => num(r.points[i])) }));
  o.levels.forEach((l, i) => cols.push({ name: `analytic_m_${l}`, values: rs.map((r) => num(r.analytic[i])) }));
  cols.push({ name: "nneeded_precision", values: rs.map((r) => num(r.needed)) });
  cols.push({ name: "rel_halfwidth_N", values: rs.map((r) => num(r.relHalfWidthN)) });
  cols.push({ name: "flat", values: rs.map((r) => String(r.flat)), type: "string" });
  if (predicted) {
    const curves = rs.map((_, c) => (predicted.has(c) ? meanCurve(predicted.get(c)!) : undefined));
    o.levels.forEach((l) => cols.push({ name: `pred_m_${l}`, values: curves.map((w) => (w ? num(convergencePoint(convergenceCurve(w), o.m0, l)) : null)) }));
    const errs = curves.map((w, c) => (w ? Array.from(w, (v, j) => Math.abs(v - rs[c].w[j]) / rs[c].w[j]) : undefined));
    cols.push({ name: "mean_err", values: errs.map((e) => (e ? num(e.reduce((s, x) => s + x, 0) / e.length) : null)) });
    cols.push({ name: "max_err", values: errs.map((e) => (e ? num(Math.max(...e)) : null)) });
    cols.push({ name: "extrapolated", values: rs.map((_, c) => (predicted.has(c) ? String(predicted.get(c)!.extrapolated) : null)), type: "string" });
  }
  return cols;
}

export function convergenceCurveColumns(k: TableKeys, rs: ConvergenceResult[], predicted?: Predicted): Column[] {
  const at: number[] = [],
    m: number[] = [],
    w: (number | null)[] = [],
    lo: (number | null)[] = [],
    hi: (number | null)[] = [],
    c: (number | null)[] = [];
  const wp: (number | null)[] = [],
    cp: (number | null)[] = [],
    err: (number | null)[] = [];
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
  const cols: Column[] = [
    ...keyColumns(k, at.length, (i) => at[i]),
    { name: "m", values: Int32Array.from(m), type: "int" },
    { name: "w", values: w },
    { name: "lower", values: lo },
    { name: "upper", values: hi },
    { name: "c", values: c },
  ];
  if (predicted) cols.push({ name: "w_pred", values: wp }, { name: "c_pred", values: cp }, { name: "err", values: err });
  return cols;
}

export function convergenceSummary(
  rs: ConvergenceResult[],
  o: ConvergenceOptions,
  pred?: PredictOptions & { widthAREatN: number; lowerAREatN: number; upperAREatN: number; predictedConfigurations: number },
) {
  return {
    configurations: rs.length,
    ci: o.kind,
    level: o.level,
    m0: o.m0,
    subsets: o.mode,
    median: Object.fromEntries(o.levels.map((l, i) => [`m_${l}`, median(rs.map((r) => r.points[i]))])),
    analyticMedian: Object.fromEntries(o.levels.map((l, i) => [`m_${l}`, median(rs.map((r) => r.analytic[i]))])),
    medianNeededPrecision: median(rs.map((r) => r.needed)),
    medianRelHalfWidthN: median(rs.map((r) => r.relHalfWidthN)),
    flat: rs.filter((r) => r.flat).length,
    ...(pred
      ? {
          predict: {
            method: pred.method,
            p: pred.p,
            divisions: pred.reps,
            curve: pred.mode,
            predictedConfigurations: pred.predictedConfigurations,
            widthAREatN: pred.widthAREatN,
            lowerAREatN: pred.lowerAREatN,
            upperAREatN: pred.upperAREatN,
          },
        }
      : {}),
  };
}
