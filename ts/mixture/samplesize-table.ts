// The tables `varmap samplesize` writes (spec A.4): samplesize.csv (one row per configuration) and curves.csv
// (key, q, n, gamma_q), built from each configuration's key (factor values, inputs) and its SampleSizeRow. Used by
// the direct CLI path and by the job writer, so both write the same bytes.
import type { Column } from "../data/write.js";
import type { ConfigTable } from "../data/types.js";
import { levelName, type SampleSizeOptions, type SampleSizeRow } from "./samplesize-config.js";
import { gammaQ } from "./samplesize.js";

/** Key columns: names of the factors then the inputs, and each configuration's values as strings. */
export interface TableKeys {
  factors: string[];
  inputs: string[];
  /** Per configuration: factor values then input values (inputs as String(number)). */
  values: string[][];
}

export function keysOf(t: ConfigTable): TableKeys {
  const d = t.roles.inputs.length;
  const values: string[][] = [];
  for (let c = 0; c < t.count; c++) values.push([...t.factorValues.map((f) => f[c]), ...Array.from(t.inputs.subarray(c * d, (c + 1) * d), (v) => String(v))]);
  return { factors: [...t.roles.factors], inputs: [...t.roles.inputs], values };
}

export function keyColumns(k: TableKeys, count: number, at: (i: number) => number): Column[] {
  const cols: Column[] = [];
  k.factors.forEach((name, f) => cols.push({ name, values: Array.from({ length: count }, (_, i) => k.values[at(i)][f]), type: "string" }));
  const nf = k.factors.length;
  k.inputs.forEach((name, j) => cols.push({ name, values: Array.from({ length: count }, (_, i) => Number(k.values[at(i)][nf + j])) }));
  return cols;
}

/** null for NaN/±∞ (an empty CSV cell), and for null (JSON's encoding of NaN in results.jsonl). */
const num = (v: number | null) => (v !== null && Number.isFinite(v) ? v : null);
const bool = (v: boolean) => String(v);

export function samplesizeColumns(k: TableKeys, rows: SampleSizeRow[], o: SampleSizeOptions, full?: SampleSizeRow[]): Column[] {
  const cols = keyColumns(k, rows.length, (i) => i);
  cols.push({ name: "n", values: Int32Array.from(rows, (r) => r.n), type: "int" });
  cols.push({ name: "family", values: rows.map((r) => r.family), type: "string" });
  cols.push({ name: "k", values: Int32Array.from(rows, (r) => r.k), type: "int" });
  cols.push({ name: "floor_bound", values: rows.map((r) => bool(r.floorBound)), type: "string" });
  cols.push({ name: "fallback", values: rows.map((r) => bool(r.fallback)), type: "string" });
  if (o.stats.includes("q")) {
    o.qs.forEach((q, i) => {
      const L = levelName(q);
      cols.push({ name: `x_q${L}`, values: rows.map((r) => num(r.quantiles[i].xq)) });
      cols.push({ name: `se1_q${L}`, values: rows.map((r) => num(r.quantiles[i].se1)) });
      cols.push({ name: `gamma1_q${L}`, values: rows.map((r) => num(r.quantiles[i].gamma1)) });
      cols.push({ name: `gamma_q${L}`, values: rows.map((r) => num(r.quantiles[i].gammaN)) });
      o.taus.forEach((tau, j) => cols.push({ name: `nneeded_q${L}_t${levelName(tau)}`, values: rows.map((r) => num(r.quantiles[i].needed[j])) }));
    });
    o.taus.forEach((tau, j) => cols.push({ name: `nneeded_t${levelName(tau)}`, values: rows.map((r) => num(r.needed[j])) }));
    if (full) o.taus.forEach((tau, j) => cols.push({ name: `full_nneeded_t${levelName(tau)}`, values: full.map((r) => num(r.needed[j])) }));
  }
  if (o.stats.some((s) => s !== "q")) {
    cols.push({ name: "cv", values: rows.map((r) => num(r.cv)) });
    cols.push({ name: "kurtosis", values: rows.map((r) => num(r.kurtosis)) });
  }
  if (o.stats.includes("mean")) cols.push({ name: "nneeded_mean", values: rows.map((r) => num(r.neededMean)) });
  if (o.stats.includes("sd")) cols.push({ name: "nneeded_sd", values: rows.map((r) => num(r.neededSd)) });
  if (o.stats.includes("var")) cols.push({ name: "nneeded_var", values: rows.map((r) => num(r.neededVar)) });
  cols.push({ name: "singular_information", values: rows.map((r) => bool(r.singularInformation)), type: "string" });
  cols.push({ name: "quadrature_inexact", values: rows.map((r) => bool(r.quadratureInexact)), type: "string" });
  cols.push({ name: "x_q_at_center", values: rows.map((r) => bool(r.xqAtCenter)), type: "string" });
  cols.push({ name: "too_few_runs", values: rows.map((r) => bool(r.tooFewRuns)), type: "string" });
  cols.push({ name: "nneeded_floored", values: rows.map((r) => bool(r.floored ?? false)), type: "string" });
  cols.push({ name: "note", values: rows.map((r) => r.note ?? ""), type: "string" });
  return cols;
}

export interface SampleSizeSummary {
  configurations: number;
  thresholds: number[];
  /** Median over configurations of the runs needed per threshold (max over the quantile levels). */
  medianNeeded: number[];
  medianNeededMean: number;
  fallback: number;
  singularInformation: number;
  tooFewRuns: number;
  /** Rows whose runs needed were raised to the model's parameter count. */
  floored: number;
  /** Rows with an empty runs-needed value (their `note` says why). */
  empty: number;
}

function median(v: number[]): number {
  const s = v.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  return s.length % 2 ? s[(s.length - 1) / 2] : 0.5 * (s[s.length / 2 - 1] + s[s.length / 2]);
}

export function samplesizeSummary(rows: SampleSizeRow[], o: SampleSizeOptions): SampleSizeSummary {
  return {
    configurations: rows.length,
    thresholds: o.taus,
    medianNeeded: o.taus.map((_, j) => median(rows.map((r) => r.needed[j]))),
    medianNeededMean: median(rows.map((r) => r.neededMean)),
    fallback: rows.filter((r) => r.fallback).length,
    singularInformation: rows.filter((r) => r.singularInformation).length,
    tooFewRuns: rows.filter((r) => r.tooFewRuns).length,
    floored: rows.filter((r) => r.floored).length,
    empty: rows.filter((r) => o.stats.includes("q") && r.needed.some((v) => !Number.isFinite(v))).length,
  };
}

/** The headline: how many runs for what precision, and how many rows are raised or empty. */
export function samplesizeHeadline(s: SampleSizeSummary, o: SampleSizeOptions): string {
  const parts: string[] = [];
  const qs = o.qs.join(", ");
  const scale = o.center === "mean" ? "relative to x_q − mean" : "relative to x_q";
  if (o.stats.includes("q"))
    parts.push(
      `median runs needed for the SE of the q = ${qs} quantiles (${scale}) ${o.taus.map((tau, i) => `≤ ${100 * tau} %: ${fmt(s.medianNeeded[i])}`).join(", ")}`,
    );
  if (o.stats.includes("mean")) parts.push(`for the mean within ±${100 * o.precision} % at ${100 * o.level} % confidence: ${fmt(s.medianNeededMean)}`);
  const flags: string[] = [];
  if (s.floored) flags.push(`${s.floored} raised to the model's parameter count (nneeded_floored)`);
  if (s.empty) flags.push(`${s.empty} with empty runs needed (see their note)`);
  if (s.fallback) flags.push(`${s.fallback} without a usable mixture (order statistic)`);
  return `${parts.join("; ")}${flags.length ? ` — of ${s.configurations} configuration(s): ${flags.join(", ")}` : ""}`;
}

const fmt = (v: number) => (Number.isFinite(v) ? String(v) : "n/a");

export function curveColumns(k: TableKeys, rows: SampleSizeRow[], ns: number[]): Column[] {
  const at: number[] = [],
    q: number[] = [],
    n: number[] = [],
    g: (number | null)[] = [];
  rows.forEach((r, c) => {
    for (const x of r.quantiles)
      for (const m of ns) {
        at.push(c);
        q.push(x.q);
        n.push(m);
        g.push(num(gammaQ(x.se1 ?? NaN, x.xq ?? NaN, r.center ?? NaN, m)));
      }
  });
  return [
    ...keyColumns(k, at.length, (i) => at[i]),
    { name: "q", values: q },
    { name: "n", values: Int32Array.from(n), type: "int" },
    { name: "gamma_q", values: g },
  ];
}
