// Output files: written to a temporary name in the same directory, then renamed, so a reader (or a rerun after
// kill -9) sees either the old file or the complete new one, never a partial one. Numbers are formatted with a
// documented rounding so outputs are identical across backends whose kernels agree to their tolerance.
import { csvQuote, writeFileAtomic } from "../data/atomic.js";

// One atomic writer (temp file, fsync, rename) for every output: data/atomic.ts's, re-exported for the engine.
export { writeFileAtomic };

/** Significant digits kept in result values (ARE and its summaries). See formatValue. */
export const RESULT_DIGITS = 10;

/**
 * A result value as written: rounded to RESULT_DIGITS significant digits, then the shortest representation that
 * reads back to that double. Kernels agree across backends to ~1e-12 relative, far below the 5e-11 step, so
 * native and wasm runs write the same text (a value would have to sit within 1e-12 of a rounding boundary to
 * differ). Non-finite values are written as NaN / Infinity / -Infinity.
 */
export function roundResult(x: number): number {
  if (!Number.isFinite(x) || x === 0) return x;
  return Number(x.toPrecision(RESULT_DIGITS));
}

export function formatValue(x: number): string {
  return String(roundResult(x));
}

/** One CSV field of a result file: numbers rounded (formatValue), text quoted by data/write.ts's rule. */
export function csvField(v: string | number): string {
  return csvQuote(typeof v === "number" ? formatValue(v) : v);
}

export function csvRow(r: readonly (string | number)[]): string {
  return r.map(csvField).join(",");
}

export function csvText(header: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  return [header, ...rows].map(csvRow).join("\n") + "\n";
}
