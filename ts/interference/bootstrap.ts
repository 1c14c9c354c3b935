// Percentile bootstrap of the degradation when repetitions are aggregated by median or mean (C.2.2): the
// standalone and the interfered repetitions are resampled independently, B times, from one counter-based stream
// keyed by (seed, pair id), so a pair's interval does not depend on which other pairs are analysed or on workers.
//
// Speed (10,000 pairs × 5 repetitions × B = 2,000 is 2·10^8 index draws): each 32-bit draw yields several
// base-n digits (13 for n = 5; rejection keeps them uniform), and a resample's median is read from the
// resample's counts over the sorted values, without sorting the resample.
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
    const d = this.word % this.n;
    this.word = (this.word - d) / this.n;
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
  counts.fill(0, 0, n);
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

/** Type-7 quantile of values (sorted in place). */
function quantileInPlace(v: Float64Array, p: number): number {
  const h = (v.length - 1) * p;
  const i = Math.floor(h);
  return i + 1 < v.length ? v[i] + (h - i) * (v[i + 1] - v[i]) : v[i];
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
  const da = new IndexDrawer(alone.length, rng);
  const di = new IndexDrawer(int.length, rng);
  const stats = scratch.stats.length === resamples ? scratch.stats : new Float64Array(resamples);
  for (let b = 0; b < resamples; b++) {
    const a = resampleAggregate(alone, how, da, scratch.counts);
    const x = resampleAggregate(int, how, di, scratch.counts);
    stats[b] = degradation(metric, a, x);
  }
  stats.sort();
  const tail = (1 - level) / 2;
  return [quantileInPlace(stats, tail), quantileInPlace(stats, 1 - tail)];
}
