// Deterministic benchmark inputs: every run and every backend times the same numbers.
import { mulberry32Uniform } from "../util/mulberry32.js";

/** Uniform numbers in [0, 1) from a seeded generator (mulberry32). */
export function uniform(length: number, seed: number): Float64Array {
  const u = mulberry32Uniform(seed);
  const out = new Float64Array(length);
  for (let i = 0; i < length; i++) out[i] = u();
  return out;
}

/** Builds a value on first use: suites are imported to list them, inputs are made only for the cases that run. */
export function lazy<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}
