// Percentile bootstrap of the degradation when repetitions are aggregated by median or mean (C.2.2): the
// standalone and the interfered repetitions are resampled independently, B times, from one counter-based stream
// keyed by (seed, pair id), so a pair's interval does not depend on which other pairs are analysed or on workers.
//
// Speed (10,000 pairs × 5 repetitions × B = 2,000 is 2·10^8 index draws). A resample of n repetitions is a
// uniform sequence of n indices, i.e. one uniform number s in [0, n^n) whose base-n digits are the indices. For
// n ≤ 7 a table (built once per n) maps s to the multiset of drawn indices, and the statistic of each of the
// multisets (126 for n = 5) is computed once per pair: a resample then costs one table lookup. Numbers are drawn
// several at a time from each 32-bit word (rejection keeps them uniform). Larger n draws index by index and reads
// the median from the resample's counts over the sorted values, without sorting the resample.
import { counterRng, type CounterRng } from "../data/random.js";
import type { Aggregate, Metric } from "./types.js";

/** Degradation D in % from aggregated standalone and interfered responses (C.2.2). */
export function degradation(metric: Metric, alone: number, int: number): number {
  return metric === "throughput" ? (100 * (alone - int)) / alone : 100 * (1 - alone / int);
}

/** Runtime dilation in %: for throughput at a fixed volume, time scales as 1/bandwidth. */
export function dilation(metric: Metric, alone: number, int: number): number {
  return metric === "throughput" ? 100 * (alone / int - 1) : (100 * (int - alone)) / alone;
}

/** Draws uniform indices in [0, n) several at a time from one 32-bit word. */
export class IndexDrawer {
  private readonly digits: number;
  private readonly limit: number;
  private word = 0;
  private left = 0;

  constructor(
    private readonly n: number,
    private readonly rng: CounterRng,
  ) {
    let digits = 0;
    let pow = 1;
    while (n > 1 && pow * n <= 4294967296) {
      pow *= n;
      digits++;
    }
    this.digits = n > 1 ? digits : 0;
    this.limit = n > 1 ? Math.floor(4294967296 / pow) * pow : 0;
  }

  next(): number {
    if (this.n <= 1) return 0;
    if (this.left === 0) {
      let u: number;
      do u = this.rng.uint32();
      while (u >= this.limit);
      this.word = u;
      this.left = this.digits;
    }
    // (floor division, not %: on doubles V8 computes % with a slow fmod call)
    const q = Math.floor(this.word / this.n);
    const d = this.word - q * this.n;
    this.word = q;
    this.left--;
    return d;
  }
}

/** The aggregate of sorted values (best = max for throughput, min for time). */
export function aggregate(sorted: Float64Array, how: Aggregate, metric: Metric): number {
  const n = sorted.length;
  if (how === "best") return metric === "throughput" ? sorted[n - 1] : sorted[0];
  if (how === "mean") {
    let s = 0;
    for (let i = 0; i < n; i++) s += sorted[i];
    return s / n;
  }
  return n % 2 ? sorted[(n - 1) >> 1] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

/** One resample's aggregate: counts[] receives how often each sorted value was drawn. */
function resampleAggregate(sorted: Float64Array, how: "median" | "mean", drawer: IndexDrawer, counts: Int32Array): number {
  const n = sorted.length;
  if (how === "mean") {
    let s = 0;
    for (let i = 0; i < n; i++) s += sorted[drawer.next()];
    return s / n;
  }
  for (let j = 0; j < n; j++) counts[j] = 0;
  for (let i = 0; i < n; i++) counts[drawer.next()]++;
  // Order statistics (n-1)>>1 and n>>1 (equal for odd n) of the resample.
  const lo = (n - 1) >> 1;
  const hi = n >> 1;
  let cum = 0;
  let vlo = NaN;
  for (let j = 0; j < n; j++) {
    cum += counts[j];
    if (Number.isNaN(vlo) && cum > lo) vlo = sorted[j];
    if (cum > hi) return (vlo + sorted[j]) / 2;
  }
  return vlo;
}

/** The k-th smallest of v[from..to] (inclusive), partially reordering v (Hoare quickselect, middle pivot). */
function select(v: Float64Array, k: number, from: number, to: number): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const pivot = v[(lo + hi) >> 1];
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (v[i] < pivot) i++;
      while (v[j] > pivot) j--;
      if (i <= j) {
        const t = v[i];
        v[i] = v[j];
        v[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return v[k];
  }
  return v[k];
}

/**
 * Type-7 quantile of v (reordered in place): the order statistics at floor(h) and floor(h) + 1 by selection,
 * O(B) instead of sorting. Values must not be NaN.
 */
function quantileInPlace(v: Float64Array, p: number): number {
  const h = (v.length - 1) * p;
  const i = Math.floor(h);
  const a = select(v, i, 0, v.length - 1);
  if (i + 1 >= v.length || h === i) return a;
  // after selection every value right of i is ≥ v[i]: the next order statistic is their minimum
  let b = Infinity;
  for (let j = i + 1; j < v.length; j++) if (v[j] < b) b = v[j];
  return a + (h - i) * (b - a);
}

/** Sequences of n indices (as numbers s in [0, n^n)) → multiset id, and each multiset's counts. */
interface SequenceTable {
  size: number;
  multiset: Uint16Array;
  /** counts of multiset m: counts[m·n .. m·n + n) */
  counts: Uint8Array;
  multisets: number;
}

/** Resamples of up to this many repetitions use a sequence table (7^7 = 823,543 entries). */
export const MAX_TABLE_RUNS = 7;
const tables = new Map<number, SequenceTable>();

function sequenceTable(n: number): SequenceTable {
  const cached = tables.get(n);
  if (cached) return cached;
  const size = n ** n;
  const multiset = new Uint16Array(size);
  const idOfKey = new Int32Array((n + 1) ** n).fill(-1);
  const counts: number[] = [];
  const c = new Array<number>(n);
  let multisets = 0;
  for (let s = 0; s < size; s++) {
    c.fill(0);
    for (let i = 0, w = s; i < n; i++) {
      const q = Math.floor(w / n);
      c[w - q * n]++;
      w = q;
    }
    let key = 0;
    for (let j = n - 1; j >= 0; j--) key = key * (n + 1) + c[j];
    if (idOfKey[key] < 0) {
      idOfKey[key] = multisets++;
      counts.push(...c);
    }
    multiset[s] = idOfKey[key];
  }
  const t = { size, multiset, counts: Uint8Array.from(counts), multisets };
  tables.set(n, t);
  return t;
}

/** The statistic of every multiset of the table, over these sorted values. */
function multisetStats(sorted: Float64Array, how: "median" | "mean", t: SequenceTable): Float64Array {
  const n = sorted.length;
  const out = new Float64Array(t.multisets);
  const lo = (n - 1) >> 1;
  const hi = n >> 1;
  for (let m = 0; m < t.multisets; m++) {
    const base = m * n;
    if (how === "mean") {
      let s = 0;
      for (let j = 0; j < n; j++) s += t.counts[base + j] * sorted[j];
      out[m] = s / n;
      continue;
    }
    let cum = 0;
    let vlo = NaN;
    for (let j = 0; j < n; j++) {
      cum += t.counts[base + j];
      if (Number.isNaN(vlo) && cum > lo) vlo = sorted[j];
      if (cum > hi) {
        out[m] = (vlo + sorted[j]) / 2;
        break;
      }
    }
  }
  return out;
}

/** Draws one resample's statistic: by sequence table (n ≤ 7) or index by index. */
class ResampleStat {
  private readonly table?: SequenceTable;
  private readonly stats?: Float64Array;
  private readonly drawer: IndexDrawer;

  constructor(
    private readonly sorted: Float64Array,
    private readonly how: "median" | "mean",
    rng: CounterRng,
    private readonly counts: Int32Array,
  ) {
    const n = sorted.length;
    if (n <= MAX_TABLE_RUNS) {
      this.table = sequenceTable(n);
      this.stats = multisetStats(sorted, how, this.table);
      this.drawer = new IndexDrawer(this.table.size, rng);
    } else this.drawer = new IndexDrawer(n, rng);
  }

  next(): number {
    if (this.table) return this.stats![this.table.multiset[this.drawer.next()]];
    return resampleAggregate(this.sorted, this.how, this.drawer, this.counts);
  }
}

export interface BootstrapScratch {
  counts: Int32Array;
  stats: Float64Array;
}

export function bootstrapScratch(maxRuns: number, resamples: number): BootstrapScratch {
  return { counts: new Int32Array(Math.max(maxRuns, 1)), stats: new Float64Array(resamples) };
}

/**
 * Percentile interval of D (level e.g. 0.95) from B resamples of the standalone and interfered repetitions
 * (each sorted ascending), drawn from counterRng(seed, "interference-bootstrap", pairId).
 */
export function bootstrapDegradationCI(
  alone: Float64Array,
  int: Float64Array,
  how: "median" | "mean",
  metric: Metric,
  resamples: number,
  level: number,
  seed: number | string,
  pairId: string,
  scratch: BootstrapScratch = bootstrapScratch(Math.max(alone.length, int.length), resamples),
): [number, number] {
  const rng = counterRng(seed, "interference-bootstrap", pairId);
  const ra = new ResampleStat(alone, how, rng, scratch.counts);
  const ri = new ResampleStat(int, how, rng, scratch.counts);
  const stats = scratch.stats.length === resamples ? scratch.stats : new Float64Array(resamples);
  for (let b = 0; b < resamples; b++) {
    const a = ra.next();
    const x = ri.next();
    stats[b] = degradation(metric, a, x);
  }
  const tail = (1 - level) / 2;
  return [quantileInPlace(stats, tail), quantileInPlace(stats, 1 - tail)];
}
