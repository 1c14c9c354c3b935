// Counter-based random numbers (DESIGN.md "Deterministic results"): every random choice in varmap comes from a
// stream keyed by (seed, task keys…), so results do not depend on worker count, shard layout, chunking or the
// order tasks finish in.
//
// The core is Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3", SC'11): a bijection of
// a 128-bit counter under a 64-bit key. The seed and keys are hashed into the key and the upper counter words;
// the lower counter words count 128-bit blocks within the stream. Two streams with different keys are
// statistically independent; the i-th value of a stream never depends on how many values other streams drew.
//
//   const r = counterRng(seed, configId);   // or counterRng(seed, "kmeans", task, restart)
//   r.next()    // uniform double in [0, 1), 53 random bits
//   r.normal()  // standard normal (Box–Muller, both halves used)
//   r.uint32()  // uniform 32-bit unsigned integer
//   r.int(n)    // uniform integer in [0, n)

export type RngKey = number | string | bigint;

export interface CounterRng {
  /** Uniform double in [0, 1) with 53 random bits. */
  next(): number;
  /** Standard normal deviate. */
  normal(): number;
  /** Uniform unsigned 32-bit integer. */
  uint32(): number;
  /** Uniform integer in [0, n), n ≤ 2^32 (rejection sampling, no modulo bias). */
  int(n: number): number;
  /** Exponential deviate with rate 1. */
  exponential(): number;
}

const M0 = 0xd2511f53;
const M1 = 0xcd9e8d57;
const W0 = 0x9e3779b9;
const W1 = 0xbb67ae85;

/** High 32 bits of the 64-bit product of two unsigned 32-bit integers. */
function mulhi(a: number, b: number): number {
  const a0 = a & 0xffff;
  const a1 = a >>> 16;
  const b0 = b & 0xffff;
  const b1 = b >>> 16;
  const lo = a0 * b0;
  const m1 = a1 * b0;
  const m2 = a0 * b1;
  const carry = ((lo >>> 16) + (m1 & 0xffff) + (m2 & 0xffff)) >>> 16;
  return (a1 * b1 + (m1 >>> 16) + (m2 >>> 16) + carry) >>> 0;
}

/** Philox4x32-10: encrypts counter (c0..c3) under key (k0, k1) into out[0..3]. */
export function philox4x32(c0: number, c1: number, c2: number, c3: number, k0: number, k1: number, out: Uint32Array): void {
  c0 >>>= 0;
  c1 >>>= 0;
  c2 >>>= 0;
  c3 >>>= 0;
  k0 >>>= 0;
  k1 >>>= 0;
  for (let r = 0; r < 10; r++) {
    const hi0 = mulhi(M0, c0);
    const lo0 = Math.imul(M0, c0) >>> 0;
    const hi1 = mulhi(M1, c2);
    const lo1 = Math.imul(M1, c2) >>> 0;
    c0 = (hi1 ^ c1 ^ k0) >>> 0;
    c1 = lo1;
    c2 = (hi0 ^ c3 ^ k1) >>> 0;
    c3 = lo0;
    k0 = (k0 + W0) >>> 0;
    k1 = (k1 + W1) >>> 0;
  }
  out[0] = c0;
  out[1] = c1;
  out[2] = c2;
  out[3] = c3;
}

/** murmur3's 32-bit finalizer: a bijective avalanche mix. */
function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** The 32-bit words of a key: integers exactly (up to 2^64 via bigint), strings by UTF-16 code units. */
function keyWords(k: RngKey): number[] {
  if (typeof k === "string") {
    const w = [0x5354524e, k.length]; // tag "STRN" so "1" and 1 differ
    for (let i = 0; i < k.length; i++) w.push(k.charCodeAt(i));
    return w;
  }
  if (typeof k === "bigint") {
    const v = BigInt.asUintN(64, k);
    return [Number(v & 0xffffffffn), Number(v >> 32n)];
  }
  if (!Number.isSafeInteger(k)) throw new RangeError(`random key must be a safe integer, a bigint or a string (got ${k})`);
  const neg = k < 0 ? 1 : 0;
  const a = Math.abs(k);
  return [a >>> 0, Math.floor(a / 4294967296) | (neg << 31)];
}

/** Hash (seed, keys…) into four 32-bit words with four differently-seeded chains. */
export function hashKeys(keys: RngKey[]): [number, number, number, number] {
  const h = [0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344];
  const absorb = (w: number) => {
    for (let j = 0; j < 4; j++) h[j] = fmix32((h[j] ^ w) + Math.imul(j + 1, 0x9e3779b9));
  };
  absorb(keys.length);
  for (const k of keys) {
    const ws = keyWords(k);
    absorb(ws.length);
    for (const w of ws) absorb(w >>> 0);
  }
  return [h[0], h[1], h[2], h[3]];
}

/** A stream of random numbers determined entirely by (seed, keys…). */
export function counterRng(seed: RngKey, ...keys: RngKey[]): CounterRng {
  const [k0, k1, c2, c3] = hashKeys([seed, ...keys]);
  const block = new Uint32Array(4);
  let counter = 0; // 128-bit blocks drawn so far (2^53 blocks is far beyond any use)
  let pos = 4;
  let spare = NaN;
  const uint32 = (): number => {
    if (pos === 4) {
      philox4x32(counter >>> 0, Math.floor(counter / 4294967296), c2, c3, k0, k1, block);
      counter++;
      pos = 0;
    }
    return block[pos++];
  };
  const next = (): number => ((uint32() >>> 5) * 67108864 + (uint32() >>> 6)) / 9007199254740992;
  return {
    uint32,
    next,
    normal(): number {
      if (!Number.isNaN(spare)) {
        const s = spare;
        spare = NaN;
        return s;
      }
      const u1 = 1 - next(); // (0, 1]: log is finite
      const u2 = next();
      const r = Math.sqrt(-2 * Math.log(u1));
      spare = r * Math.sin(2 * Math.PI * u2);
      return r * Math.cos(2 * Math.PI * u2);
    },
    int(n: number): number {
      if (!(n >= 1 && n <= 4294967296 && Number.isInteger(n))) throw new RangeError(`int(n) needs an integer 1 ≤ n ≤ 2^32 (got ${n})`);
      const limit = 4294967296 - (4294967296 % n);
      for (;;) {
        const u = uint32();
        if (u < limit) return u % n;
      }
    },
    exponential(): number {
      return -Math.log(1 - next());
    },
  };
}

/**
 * Balanced k-fold assignment of n items: a Fisher–Yates permutation drawn from `rng`, dealt round robin (the item at
 * position i goes to fold i mod k), so fold sizes differ by at most one. Every k-fold split in varmap (conformal
 * calibration, auto's inner folds, distribution cv, mixture cv) draws its folds here, each from its own keyed stream.
 */
export function balancedFolds(n: number, k: number, rng: CounterRng): Int32Array {
  const perm = Int32Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    const t = perm[i];
    perm[i] = perm[j];
    perm[j] = t;
  }
  const fold = new Int32Array(n);
  for (let pos = 0; pos < n; pos++) fold[perm[pos]] = pos % k;
  return fold;
}
