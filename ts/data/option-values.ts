// Parsing of option values shared by the CLI and the library (here, below cli/, so data/ and the jobs can use it).
import { VarmapError } from "../errors.js";

/** "a, b,,c" -> ["a", "b", "c"]; undefined or "" -> []. */
export function splitList(s: string | undefined): string[] {
  return s
    ? s
        .split(",")
        .map((x) => x.trim())
        .filter(Boolean)
    : [];
}

/** The largest integer seed: seeds travel as JavaScript numbers (the mixture kernel widens them to 64 bits). */
export const MAX_INTEGER_SEED = Number.MAX_SAFE_INTEGER;

/**
 * The key a seed gives the counter-based generator (ts/data/random.ts): integer text ("7", "-3") keys as the number,
 * so "7" and 7 draw the same stream; any other text keys as the string itself.
 */
export function seedKey(seed: string | number): string | number {
  if (typeof seed === "number") return seed;
  return /^-?\d+$/.test(seed) && Number.isSafeInteger(Number(seed)) ? Number(seed) : seed;
}

/** A --seed flag for the counter-based generator: any non-empty text (integers key as numbers, see seedKey). */
export function parseSeedText(v: unknown, flag = "--seed"): string {
  const s = v === undefined ? "1" : String(v);
  if (s.trim() === "") throw new VarmapError("E_USAGE", `${flag} is empty`, { remedy: `give ${flag} an integer, e.g. ${flag} 1` });
  return s;
}

/** A --seed flag that must be an integer (the mixture kernel's streams are keyed by an integer): 0 … 2^53 − 1. */
export function parseIntegerSeed(v: unknown, flag = "--seed"): number {
  const s = v === undefined ? "1" : String(v).trim();
  const n = Number(s);
  if (!/^\d+$/.test(s) || !Number.isSafeInteger(n) || n > MAX_INTEGER_SEED)
    throw new VarmapError("E_USAGE", `${flag} must be an integer from 0 to ${MAX_INTEGER_SEED}, got '${String(v)}'`, { remedy: `e.g. ${flag} 1` });
  return n;
}

/**
 * The one integer primitive of the flags and the typed options: `v` (flag text or a number) must be a whole number
 * from `min` to `max`; `default` when absent (undefined). Every integer flag parses through it, so one message
 * shape: "--kmax must be an integer from 1 to 16, got '17'" ("… an integer >= 2 …", "… a positive integer …"),
 * `why` appended in parentheses.
 */
export function parseInteger(
  v: unknown,
  flag: string,
  o: { min?: number; max?: number; default?: number; example?: number | string; why?: string } = {},
): number {
  if (v === undefined && o.default !== undefined) return o.default;
  const min = o.min ?? Number.MIN_SAFE_INTEGER;
  const max = o.max ?? Number.MAX_SAFE_INTEGER;
  const text = typeof v === "number" ? String(v) : String(v ?? "").trim();
  const n = typeof v === "number" ? v : text === "" ? Number.NaN : Number(text);
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    const what =
      o.min === 1 && o.max === undefined
        ? "a positive integer"
        : o.min !== undefined && o.max !== undefined
          ? `an integer from ${min} to ${max}`
          : o.min !== undefined
            ? `an integer >= ${min}`
            : o.max !== undefined
              ? `an integer <= ${max}`
              : "an integer";
    throw new VarmapError("E_USAGE", `${flag} must be ${what}${o.why ? ` (${o.why})` : ""}, got '${String(v)}'`, {
      remedy: `e.g. ${flag} ${o.example ?? o.default ?? (o.min !== undefined && o.min > 0 ? o.min : 1)}`,
    });
  }
  return n;
}

/** A positive integer (>= 1): counts of divisions, folds, workers; `dflt` when absent. */
export function parsePositiveInteger(v: unknown, flag: string, dflt?: number): number {
  return parseInteger(v, flag, { min: 1, default: dflt, example: dflt });
}
