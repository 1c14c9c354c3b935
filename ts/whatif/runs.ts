// Runs needed at every candidate (spec D.2.1): m*(x) = the smallest m ≥ 2 with t_{1−α/2,m−1}·cv̂(x)/√m ≤ ε, the
// A.2.5 rule of meanRunsNeededCI. For a million candidates the t quantiles are cached per m and the smallest m
// found by bisection, with the very inequality meanRunsNeededCI tests, so both agree.
import { tQuantile } from "../data/stats.js";
import { meanRunsNeededCI } from "../mixture/runs-needed.js";
import { VarmapError } from "../errors.js";

export class RunsNeededTable {
  private readonly p: number;
  /** m → t_{p, m−1}, for the m the bisections visit. */
  private readonly t = new Map<number, number>();

  constructor(readonly precision: number, readonly level: number, readonly maxRuns = 1e7) {
    checkPrecisionLevel(precision, level);
    this.p = 1 - (1 - level) / 2;
  }

  private tAt(m: number): number {
    let v = this.t.get(m);
    if (v === undefined) this.t.set(m, (v = tQuantile(this.p, m - 1)));
    return v;
  }

  private ok(m: number, cv: number): boolean {
    return this.tAt(m) * cv / Math.sqrt(m) <= this.precision;
  }

  /** Runs needed at coefficient of variation cv (NaN for a negative or non-finite cv, as meanRunsNeededCI). */
  runsNeeded(cv: number): number {
    if (!(cv >= 0) || !Number.isFinite(cv)) return NaN;
    if (cv === 0 || this.ok(2, cv)) return 2;
    // Grow an upper bound geometrically, then bisect: ok(m) is monotone in m (t falls and √m grows).
    let lo = 2;
    let hi = 4;
    while (!this.ok(hi, cv)) {
      if (hi >= this.maxRuns) return meanRunsNeededCI(cv, this.precision, this.level, this.maxRuns);
      lo = hi;
      hi = Math.min(this.maxRuns, hi * 2);
    }
    while (hi - lo > 1) {
      const mid = (lo + hi) >>> 1;
      if (this.ok(mid, cv)) hi = mid;
      else lo = mid;
    }
    return hi;
  }
}

export function checkPrecisionLevel(precision: number, level: number): void {
  if (!(precision > 0) || !Number.isFinite(precision))
    throw new VarmapError("E_USAGE", `--precision ${precision} is not a positive number`, { remedy: "give the relative CI half-width, e.g. --precision 0.05 (±5%)" });
  if (!(level > 0 && level < 1))
    throw new VarmapError("E_USAGE", `--level ${level} is not in (0, 1)`, { remedy: "give a confidence level such as --level 0.95" });
}
