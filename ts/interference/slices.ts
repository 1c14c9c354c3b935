// Time slices (C.2.5): LWM² splits every execution into fixed-length slices aligned with the system clock, and
// records each instance's bytes (or ops) per slice and the servers' traffic. From them:
//  - the 90% cut (seed 003 §2.3): throughput counts only up to t₉₀, the first slice end at which either instance
//    has written 90% of its volume, which cuts the tail that server-side imbalance stretches;
//  - the noise filter (§2.2): drop the execution if the servers moved more than 1 + noiseMax times the bytes the
//    applications wrote;
//  - dent depth against a periodic signal, and the serialization test of C.2.4.
import { VarmapError } from "../errors.js";
import type { RunRecord, SliceRecord } from "./types.js";

/** One execution's slices: a series per instance over the experiment's common slice range. */
export interface SlicedExecution {
  experiment: string;
  /** Bytes per slice, per instance (in the order of the experiment's runs-table rows), over `length` slices. */
  series: Float64Array[];
  /** First and last slice (relative) in which each instance has a row: the instance was running. */
  span: [number, number][];
  /** Throughput up to t₉₀ per instance, in bytes (or ops) per second. */
  rates: number[];
  t90: number;
  /** Σ server bytes / Σ application bytes, or null without server_bytes. */
  serverRatio: number | null;
}

/** Builds the execution's series and its 90%-cut rates. `slicesOf[i]` are the slice rows of rows[i]. */
export function sliceExecution(rows: RunRecord[], slicesOf: SliceRecord[][], sliceSeconds: number, file: string): SlicedExecution {
  const experiment = rows[0].experiment;
  let first = Infinity;
  let last = -Infinity;
  for (const list of slicesOf)
    for (const s of list) {
      first = Math.min(first, s.slice);
      last = Math.max(last, s.slice);
    }
  const length = last - first + 1;
  if (length > 1e7)
    throw new VarmapError("E_BAD_VALUE", `experiment ${experiment} spans ${length} slices`, {
      location: { file },
      remedy: "number slices by index (0, 1, 2, …), not by time stamp in microseconds",
    });
  const server = new Float64Array(length);
  let hasServer = false;
  const series = rows.map((r, i) => {
    const list = slicesOf[i];
    if (list.length === 0)
      throw new VarmapError(
        "E_SLICES_MISSING",
        `experiment ${experiment} has slices for one instance but none for ${r.app}${r.instance === null ? "" : ` (instance ${r.instance})`}`,
        {
          location: { file, row: r.row },
          remedy: "give slices for both instances of the execution, or none",
        },
      );
    const s = new Float64Array(length);
    const seen = new Uint8Array(length);
    for (const x of list) {
      const k = x.slice - first;
      if (seen[k])
        throw new VarmapError("E_BAD_VALUE", `slice ${x.slice} of ${r.app} in experiment ${experiment} appears twice`, {
          location: { file, row: x.row, column: "slice" },
          remedy: "give one row per instance and slice",
        });
      seen[k] = 1;
      s[k] = x.bytes;
      if (x.serverBytes !== null) {
        // Server traffic belongs to the execution: repeated on each instance's row or given on one.
        server[k] = Math.max(server[k], x.serverBytes);
        hasServer = true;
      }
    }
    return s;
  });
  const span = slicesOf.map((list): [number, number] => {
    let a = Infinity;
    let b = -Infinity;
    for (const x of list) {
      a = Math.min(a, x.slice - first);
      b = Math.max(b, x.slice - first);
    }
    return [a, b];
  });
  const totals = series.map((s) => s.reduce((a, b) => a + b, 0));
  totals.forEach((t, i) => {
    if (!(t > 0))
      throw new VarmapError("E_NONPOSITIVE_RESPONSE", `${rows[i].app} wrote nothing in experiment ${experiment} (its slices sum to ${t})`, {
        location: { file, row: slicesOf[i][0].row },
        remedy: "drop the execution or give the bytes each slice wrote",
      });
  });
  // t₉₀: the first slice end at which either instance's cumulative volume reaches 90% of its total.
  const cum = series.map(() => 0);
  let cut = length - 1;
  outer: for (let k = 0; k < length; k++) {
    for (let i = 0; i < series.length; i++) cum[i] += series[i][k];
    for (let i = 0; i < series.length; i++)
      if (cum[i] >= 0.9 * totals[i]) {
        cut = k;
        break outer;
      }
  }
  const t90 = (cut + 1) * sliceSeconds;
  const rates = cum.map((c) => c / t90);
  let serverRatio: number | null = null;
  if (hasServer) serverRatio = server.reduce((a, b) => a + b, 0) / totals.reduce((a, b) => a + b, 0);
  return { experiment, series, span, rates, t90, serverRatio };
}

/** Probe rates in slices where the signal is active (> 5% of its busiest slice) and silent, over the overlap. */
export interface DentSums {
  activeSum: number;
  activeN: number;
  silentSum: number;
  silentN: number;
}

export function dentSums(ex: SlicedExecution, probe: number, signal: number, sliceSeconds: number, acc: DentSums): void {
  const sig = ex.series[signal];
  let max = 0;
  for (let k = 0; k < sig.length; k++) max = Math.max(max, sig[k]);
  const from = Math.max(ex.span[probe][0], ex.span[signal][0]);
  const to = Math.min(ex.span[probe][1], ex.span[signal][1]);
  for (let k = from; k <= to; k++) {
    const rate = ex.series[probe][k] / sliceSeconds;
    if (sig[k] > 0.05 * max) {
      acc.activeSum += rate;
      acc.activeN++;
    } else {
      acc.silentSum += rate;
      acc.silentN++;
    }
  }
}

/** dent = 100·(1 − mean probe rate while the signal is active / mean while it is silent); null without both. */
export function dentDepth(s: DentSums): number | null {
  if (s.activeN === 0 || s.silentN === 0 || !(s.silentSum > 0)) return null;
  return 100 * (1 - s.activeSum / s.activeN / (s.silentSum / s.silentN));
}

/**
 * Share of an instance's slices (over its span) in which it runs below 10% of `rate` on its own: a periodic app
 * (I/O alternating with computation) idles by design in that share of its time. Used on standalone executions.
 */
export function idleCounts(ex: SlicedExecution, i: number, rate: number, sliceSeconds: number): { idle: number; slices: number } {
  const [from, to] = ex.span[i];
  let idle = 0;
  for (let k = from; k <= to; k++) if (ex.series[i][k] / sliceSeconds < 0.1 * rate) idle++;
  return { idle, slices: Math.max(0, to - from + 1) };
}

/**
 * Serialization evidence over the overlapping slices (C.2.4's test; varmap's definition): instance i is *held
 * back* in a slice when it runs below 10% of its standalone rate while j runs at 80% or more of its own (and the
 * same with i and j swapped). A quiet slice is only evidence when the quiet instance is active, i.e. has I/O to
 * do: a periodic instance is quiet by design in its idle phases, so the quiet slices an instance also shows on
 * its own (its standalone idle share × the overlap) are not counted — only the excess is. `serial` is the sum of
 * both instances' excess (fractional), `overlap` the number of overlapping slices.
 */
export function serializationCounts(
  ex: SlicedExecution,
  i: number,
  j: number,
  aloneI: number,
  aloneJ: number,
  sliceSeconds: number,
  idleI = 0,
  idleJ = 0,
): { serial: number; overlap: number } {
  const from = Math.max(ex.span[i][0], ex.span[j][0]);
  const to = Math.min(ex.span[i][1], ex.span[j][1]);
  let quietI = 0;
  let quietJ = 0;
  for (let k = from; k <= to; k++) {
    const ri = ex.series[i][k] / sliceSeconds;
    const rj = ex.series[j][k] / sliceSeconds;
    if (ri < 0.1 * aloneI && rj >= 0.8 * aloneJ) quietI++;
    else if (rj < 0.1 * aloneJ && ri >= 0.8 * aloneI) quietJ++;
  }
  const overlap = Math.max(0, to - from + 1);
  const serial = Math.max(0, quietI - idleI * overlap) + Math.max(0, quietJ - idleJ * overlap);
  return { serial, overlap };
}
