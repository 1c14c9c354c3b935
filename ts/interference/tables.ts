// The output tables of `varmap interference` (C.3) as writeTable columns.
import type { Column } from "../data/write.js";
import type { InterferenceResult } from "./types.js";

function keyColumns(res: InterferenceResult, rows: { factors: string[]; signalFactors: string[] }[], names = res.factorNames, skip = -1): Column[] {
  const cols: Column[] = [];
  names.forEach((name, f) => {
    if (f !== skip) cols.push({ name, values: rows.map((r) => r.factors[f]), type: "string" });
  });
  res.signalFactorNames.forEach((name, f) => cols.push({ name: `signal_${name}`, values: rows.map((r) => r.signalFactors[f]), type: "string" }));
  return cols;
}

/** pairs.csv: factors, probe, signal, instance, b_alone, b_int, degradation, dilation, ci_lo, ci_hi, n_alone, n_int, sd_ratio, … */
export function pairColumns(res: InterferenceResult): Column[] {
  const p = res.pairs;
  return [
    ...keyColumns(res, p),
    { name: "probe", values: p.map((r) => r.probe), type: "string" },
    { name: "signal", values: p.map((r) => r.signal), type: "string" },
    { name: "instance", values: p.map((r) => r.instance), type: "string" },
    { name: "b_alone", values: p.map((r) => r.bAlone) },
    { name: "b_int", values: p.map((r) => r.bInt) },
    { name: "degradation", values: p.map((r) => r.degradation) },
    { name: "dilation", values: p.map((r) => r.dilation) },
    { name: "ci_lo", values: p.map((r) => r.ciLo) },
    { name: "ci_hi", values: p.map((r) => r.ciHi) },
    { name: "n_alone", values: Int32Array.from(p, (r) => r.nAlone), type: "int" },
    { name: "n_int", values: Int32Array.from(p, (r) => r.nInt), type: "int" },
    { name: "sd_ratio", values: p.map((r) => r.sdRatio) },
    { name: "mixture_int", values: p.map((r) => r.mixtureInt), type: "string" },
    { name: "mixture_alone", values: p.map((r) => r.mixtureAlone), type: "string" },
    { name: "multimodal", values: p.map((r) => (r.multimodal === null ? null : String(r.multimodal))), type: "string" },
    { name: "relation", values: p.map((r) => r.relation), type: "string" },
    { name: "dent", values: p.map((r) => r.dent) },
    { name: "serialized_share", values: p.map((r) => r.serializedShare) },
  ];
}

/** matrix.csv: factors, probe, one column per signal app (D[probe][signal]; self-pairs: mean of the instances). */
export function matrixColumns(res: InterferenceResult): Column[] {
  const m = res.matrix;
  return [
    ...keyColumns(res, m),
    { name: "probe", values: m.map((r) => r.probe), type: "string" },
    ...res.apps.map((a, j): Column => ({ name: a, values: m.map((r) => r.cells[j]) })),
  ];
}

/** apps.csv: factors, app, sensitivity, aggressiveness, class. */
export function appColumns(res: InterferenceResult): Column[] {
  const a = res.appRows;
  return [
    ...keyColumns(res, a),
    { name: "app", values: a.map((r) => r.app), type: "string" },
    { name: "sensitivity", values: a.map((r) => r.sensitivity) },
    { name: "aggressiveness", values: a.map((r) => r.aggressiveness) },
    { name: "class", values: a.map((r) => r.class), type: "string" },
  ];
}

/** breakeven.csv: factors except the swept one, a, b, breakeven (number, empty unless a crossing is reported), status. */
export function breakEvenColumns(res: InterferenceResult, sweep: string): Column[] {
  const b = res.breakeven ?? [];
  const skip = res.factorNames.indexOf(sweep);
  const rows = b.map((r) => ({ ...r, factors: res.factorNames.map((_, f) => (f < skip ? r.factors[f] : f > skip ? r.factors[f - 1] : "")) }));
  return [
    ...keyColumns(res, rows, res.factorNames, skip),
    { name: "a", values: b.map((r) => r.a), type: "string" },
    { name: "b", values: b.map((r) => r.b), type: "string" },
    { name: "breakeven", values: b.map((r) => r.breakeven), type: "double" },
    { name: "status", values: b.map((r) => r.status), type: "string" },
  ];
}
