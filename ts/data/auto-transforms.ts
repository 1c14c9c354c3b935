// Transforms chosen for the user (issue 16): `--log-inputs auto` and `--log-response auto`.
//
// Inputs: an input column is log2-transformed when all its values are positive and either its distinct levels are
// all powers of two (at least 3 of them: thread counts, block and file sizes) or its values span more than a factor
// of AUTO_LOG_INPUT_SPAN (a ratio-scale axis: equal ratios matter more than equal differences). On the MOANA fread
// data this picks all four inputs, freq_khz too (it spans a factor 2.5): the setting that predicts best there (gp,
// the best method at every p: 8.40 / 5.87 / 5.54 % against 8.58 / 5.91 / 5.59 % with freq_khz linear; rbf also
// gains, delaunay and lsp lose a little: `node dist/bench/gp-workload.js --log-inputs ...`).
// Response: modelled on a log scale when every response (the map statistic) is positive.
import type { ConfigTable } from "./types.js";

/** Largest max/min ratio of a positive input left on a linear scale by --log-inputs auto. */
export const AUTO_LOG_INPUT_SPAN = 2;

function isPowerOfTwo(v: number): boolean {
  if (!(v > 0)) return false;
  const e = Math.log2(v);
  return Math.abs(e - Math.round(e)) < 1e-12;
}

/** The input columns --log-inputs auto log-transforms, with the reason for each (for the notes). */
export function autoLogInputs(table: ConfigTable): { name: string; reason: string }[] {
  const names = table.roles.inputs;
  const d = names.length;
  const out: { name: string; reason: string }[] = [];
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
    else if (hi / lo > AUTO_LOG_INPUT_SPAN) out.push({ name: names[j], reason: `it spans a factor ${+(hi / lo).toPrecision(3)} > ${AUTO_LOG_INPUT_SPAN}` });
  }
  return out;
}

/** --log-response auto: log when every response is positive. */
export function autoLogResponse(responses: readonly ArrayLike<number>[]): boolean {
  for (const y of responses) for (let i = 0; i < y.length; i++) if (!(y[i] > 0)) return false;
  return true;
}
