// Transforms chosen for the user (issue 16): `--log-inputs auto` and `--log-response auto`.
//
// Inputs: an input column is log2-transformed when all its values are positive and its distinct levels are all
// powers of two (at least 3 of them: thread counts, block and file sizes). A positive input whose values span more
// than a factor of AUTO_LOG_INPUT_SPAN is a candidate: a ratio-scale axis may be better modelled by ratios, but a
// continuous input sampled evenly from near zero is not (logging u ~ U(0, 1) leaves most of the log axis to a few
// points near 0: gp's error on such a map rose from 5.4 % to 8.1 %). When a judge is registered (the predict layer's
// spline GCV, see ts/predict/log-inputs-judge.ts; the CLI and the library entry register it), the responses decide
// each candidate; without one every candidate is logged. On the MOANA fread data both ways log all four inputs,
// freq_khz too (it spans a factor 2.5): the setting that predicts best there (gp, the best method at every p:
// 8.40 / 5.87 / 5.54 % against 8.58 / 5.91 / 5.59 % with freq_khz linear: `node dist/bench/gp-workload.js ...`).
// Response: modelled on a log scale when every response (the map statistic) is positive.
import { factorGroups } from "./maps.js";
import type { ConfigTable } from "./types.js";

/** Largest max/min ratio of a positive input left on a linear scale by --log-inputs auto. */
export const AUTO_LOG_INPUT_SPAN = 2;

function isPowerOfTwo(v: number): boolean {
  if (!(v > 0)) return false;
  const e = Math.log2(v);
  return Math.abs(e - Math.round(e)) < 1e-12;
}

/** One map's configurations as a judge sees them: raw inputs (rows × d, row-major) and responses. */
export interface JudgedMap {
  X: Float64Array;
  y: Float64Array;
  rows: number;
}

/**
 * Decides which candidate inputs (column indices) to log2-transform, from a sample of the maps. `logged` are the
 * inputs logged by rule (powers of two), `candidates` those the span rule proposes. Returns the candidates to log
 * and, per candidate, the reason for the choice; or undefined when it cannot judge (the span rule then applies).
 */
export type LogInputsJudge = (
  maps: JudgedMap[],
  d: number,
  logged: number[],
  candidates: number[],
) => { log: number[]; reasons: Map<number, string> } | undefined;

let registeredJudge: LogInputsJudge | undefined;

/** Registers the judge of --log-inputs auto's candidates (the entry points wire the predict layer's in). */
export function registerLogInputsJudge(judge: LogInputsJudge | undefined): void {
  registeredJudge = judge;
}

/** At most this many maps, and this many configurations each, are shown to the judge (largest maps first). */
export const JUDGED_MAPS = 3;
export const JUDGED_ROWS = 400;

/** A deterministic sample of the table's maps for the judge: evenly spaced configurations of the largest maps. */
function judgedMaps(table: ConfigTable, y: Float64Array): JudgedMap[] {
  const d = table.roles.inputs.length;
  const groups = factorGroups(table, (c) => Number.isFinite(y[c]));
  const largest = [...groups.values()].sort((a, b) => b.length - a.length).slice(0, JUDGED_MAPS);
  return largest.map((members) => {
    const rows = Math.min(members.length, JUDGED_ROWS);
    const X = new Float64Array(rows * d);
    const yy = new Float64Array(rows);
    for (let k = 0; k < rows; k++) {
      const c = members[Math.floor((k * members.length) / rows)];
      X.set(table.inputs.subarray(c * d, (c + 1) * d), k * d);
      yy[k] = y[c];
    }
    return { X, y: yy, rows };
  });
}

/**
 * The input columns --log-inputs auto log-transforms, with the reason for each, and the candidates it leaves
 * linear (for the notes). `y`: each configuration's response (the map statistic), for the judge.
 */
export function autoLogInputs(
  table: ConfigTable,
  y?: Float64Array,
  judge: LogInputsJudge | undefined = registeredJudge,
): { name: string; reason: string }[] & { linear?: { name: string; reason: string }[] } {
  const names = table.roles.inputs;
  const d = names.length;
  const out: { name: string; reason: string }[] & { linear?: { name: string; reason: string }[] } = [];
  const candidates: number[] = [];
  const spanReason = new Map<number, string>();
  for (let j = 0; j < d; j++) {
    let lo = Infinity,
      hi = -Infinity,
      positive = true,
      powers = true;
    const levels = new Set<number>();
    for (let c = 0; c < table.count; c++) {
      const v = table.inputs[c * d + j];
      if (!(v > 0)) positive = false;
      if (!isPowerOfTwo(v)) powers = false;
      lo = Math.min(lo, v);
      hi = Math.max(hi, v);
      if (levels.size < 4) levels.add(v);
    }
    if (!positive || table.count === 0) continue;
    if (powers && levels.size >= 3) out.push({ name: names[j], reason: "its levels are powers of two" });
    else if (hi / lo > AUTO_LOG_INPUT_SPAN) {
      candidates.push(j);
      spanReason.set(j, `it spans a factor ${+(hi / lo).toPrecision(3)} > ${AUTO_LOG_INPUT_SPAN}`);
    }
  }
  const verdict =
    candidates.length && judge && y
      ? judge(
          judgedMaps(table, y),
          d,
          out.map((o) => names.indexOf(o.name)),
          candidates,
        )
      : undefined;
  const linear: { name: string; reason: string }[] = [];
  for (const j of candidates) {
    const why = verdict?.reasons.get(j);
    const reason = why ? `${spanReason.get(j)}; ${why}` : (spanReason.get(j) as string);
    if (!verdict || verdict.log.includes(j)) out.push({ name: names[j], reason });
    else linear.push({ name: names[j], reason });
  }
  out.sort((a, b) => names.indexOf(a.name) - names.indexOf(b.name)); // column order, as before the judge
  if (linear.length) out.linear = linear;
  return out;
}

/** --log-response auto: log when every response is positive. */
export function autoLogResponse(responses: readonly ArrayLike<number>[]): boolean {
  for (const y of responses) for (let i = 0; i < y.length; i++) if (!(y[i] > 0)) return false;
  return true;
}
