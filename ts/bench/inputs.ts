// Deterministic benchmark inputs: every run and every backend times the same numbers.

/** Uniform numbers in [0, 1) from a seeded generator (mulberry32). */
export function uniform(length: number, seed: number): Float64Array {
  let a = seed >>> 0;
  const out = new Float64Array(length);
  for (let i = 0; i < length; i++) {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    out[i] = ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  return out;
}

/** Builds a value on first use: suites are imported to list them, inputs are made only for the cases that run. */
export function lazy<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}
