// mulberry32: a tiny seeded 32-bit generator for inputs that only need to be deterministic (benchmark and
// self-test data, a sampler's local stream). The model's random choices use counterRng (ts/data/random.ts) instead.

/** The generator's stream of unsigned 32-bit integers from `seed` (any integer; taken modulo 2^32). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

/** Uniform numbers in [0, 1): uint32 / 2^32. */
export function mulberry32Uniform(seed: number): () => number {
  const next = mulberry32(seed);
  return () => next() / 4294967296;
}

/** Uniform numbers in (0, 1): (uint32 + 0.5) / 2^32, never 0 or 1 (safe for logarithms and inverse CDFs). */
export function mulberry32Open(seed: number): () => number {
  const next = mulberry32(seed);
  return () => (next() + 0.5) / 4294967296;
}
