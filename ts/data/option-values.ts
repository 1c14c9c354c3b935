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
