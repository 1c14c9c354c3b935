// A counter-based generator keyed by (seed, task key): the i-th number of a stream is a pure function of
// (seed, key, i), so a task draws the same numbers whichever worker or shard runs it and in whatever order.
// The mixing is murmur3's 32-bit finalizer applied in rounds with the key words injected (a small Threefry-like
// construction); it is not cryptographic, only well mixed, which is all random divisions need.

function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Folds a list of non-negative integers (or strings) into two 32-bit key words. */
export function keyWords(parts: readonly (number | string)[]): [number, number] {
  let a = 0x9e3779b9;
  let b = 0x7f4a7c15;
  const absorb = (w: number): void => {
    a = fmix32((a ^ w) + 0x632be5ab);
    b = fmix32((b + Math.imul(w ^ a, 0x27d4eb2d)) ^ 0x165667b1);
  };
  for (const p of parts) {
    if (typeof p === "string") {
      absorb(0x51ed270b ^ p.length);
      for (let i = 0; i < p.length; i++) absorb(p.charCodeAt(i));
    } else {
      if (!Number.isSafeInteger(p) || p < 0) throw new Error(`key parts must be non-negative safe integers, got ${p}`);
      absorb(p >>> 0);
      absorb(Math.floor(p / 4294967296) >>> 0);
    }
  }
  return [a >>> 0, b >>> 0];
}

/** The 32-bit output number `counter` of the stream keyed by (k0, k1). */
export function block32(k0: number, k1: number, counter: number): number {
  let x = (counter >>> 0) ^ k0;
  let y = Math.floor(counter / 4294967296) ^ k1;
  for (let r = 0; r < 4; r++) {
    x = fmix32((x + y + r) ^ k1);
    y = fmix32(y ^ x ^ k0 ^ Math.imul(r + 1, 0x9e3779b9));
  }
  return (x ^ y) >>> 0;
}

/** A stream of uniform doubles in [0, 1) with 53 random bits, keyed by (seed, ...key). */
export class KeyedStream {
  private readonly k0: number;
  private readonly k1: number;
  private counter = 0;

  constructor(seed: number | string, key: readonly (number | string)[]) {
    [this.k0, this.k1] = keyWords([seed, ...key]);
  }

  /** Uniform in [0, 1). */
  next(): number {
    const hi = block32(this.k0, this.k1, this.counter++) >>> 5; // 27 bits
    const lo = block32(this.k0, this.k1, this.counter++) >>> 6; // 26 bits
    return (hi * 67108864 + lo) / 9007199254740992;
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
}

/** Number of training points for a fraction p of n (the golden splits round: 0.7 × 864 = 604.8 → 605). */
export function trainSize(n: number, p: number): number {
  return Math.min(n, Math.max(0, Math.round(p * n)));
}

/**
 * A random train/test division of n points with round(p·n) training points, drawn by a partial Fisher–Yates
 * shuffle from the stream; both index lists ascending (the order the references are given training points).
 */
export function randomDivision(n: number, p: number, stream: KeyedStream): { train: Int32Array; test: Int32Array } {
  const k = trainSize(n, p);
  const perm = new Int32Array(n);
  for (let i = 0; i < n; i++) perm[i] = i;
  for (let i = 0; i < k; i++) {
    const j = i + stream.int(n - i);
    const t = perm[i];
    perm[i] = perm[j];
    perm[j] = t;
  }
  const inTrain = new Uint8Array(n);
  for (let i = 0; i < k; i++) inTrain[perm[i]] = 1;
  const train = new Int32Array(k);
  const test = new Int32Array(n - k);
  for (let i = 0, a = 0, b = 0; i < n; i++) {
    if (inTrain[i]) train[a++] = i;
    else test[b++] = i;
  }
  return { train, test };
}
