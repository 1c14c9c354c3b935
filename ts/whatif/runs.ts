// Runs needed at every candidate (spec D.2.1): m*(x) = the smallest m ≥ 2 with t_{1−α/2,m−1}·cv̂(x)/√m ≤ ε, the
// A.2.5 rule of meanRunsNeededCI, tested with the same inequality. For a million candidates two things change:
// t quantiles are cached per m, and the search starts at the normal-theory guess and steps (as meanRunsNeededCI
// does) or, far from it, bisects. Beyond ν = 2000 degrees of freedom the t quantile comes from its Cornish–Fisher
// expansion to 1/ν⁴ (Abramowitz & Stegun 26.7.5; remainder O(ν⁻⁵), below 1e-16 relative there) instead of
// tQuantile's bisection on the incomplete beta function (about 1 ms each, and itself only good to about 1e-13 at
// ν = 5000 and 1e-11 at ν = 1e5): unpredictable models (lr, mars far out) give cvs whose runs needed spread over
// millions of distinct m. Below that (runs needed ≤ 2000, cv up to about 1.14 at ε = 0.05) the answers equal
// meanRunsNeededCI's exactly.
import { tQuantile } from "../data/stats.js";
import { normQuantile } from "../util/special.js";
import { VarmapError } from "../errors.js";

/** Degrees of freedom from which the Cornish–Fisher expansion replaces the exact bisection. */
export const CORNISH_FISHER_NU = 2000;

/** Student t quantile at p for ν ≥ CORNISH_FISHER_NU by the Cornish–Fisher expansion (z = the normal quantile). */
export function tQuantileLargeNu(z: number, nu: number): number {
  const z2 = z * z;
  const g1 = ((z2 + 1) * z) / 4;
  const g2 = (((5 * z2 + 16) * z2 + 3) * z) / 96;
  const g3 = ((((3 * z2 + 19) * z2 + 17) * z2 - 15) * z) / 384;
  const g4 = (((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 - 945) * z) / 92160;
  return z + (g1 + (g2 + (g3 + g4 / nu) / nu) / nu) / nu;
}

export class RunsNeededTable {
  private readonly p: number;
  private readonly z: number;
  /** t[m] = t_{p, m−1} below the Cornish–Fisher range, filled as the searches visit m (0 = not yet). */
  private readonly t = new Float64Array(CORNISH_FISHER_NU + 1);

  constructor(
    readonly precision: number,
    readonly level: number,
    readonly maxRuns = 1e7,
  ) {
    checkPrecisionLevel(precision, level);
    this.p = 1 - (1 - level) / 2;
    this.z = normQuantile(this.p);
  }

  private tAt(m: number): number {
    if (m - 1 >= CORNISH_FISHER_NU) return tQuantileLargeNu(this.z, m - 1);
    return this.t[m] || (this.t[m] = tQuantile(this.p, m - 1));
  }

  private ok(m: number, cv: number): boolean {
    return (this.tAt(m) * cv) / Math.sqrt(m) <= this.precision;
  }

  /** Runs needed at coefficient of variation cv (NaN for a negative or non-finite cv; Infinity beyond maxRuns). */
  runsNeeded(cv: number): number {
    if (!(cv >= 0) || !Number.isFinite(cv)) return NaN;
    if (cv === 0 || this.ok(2, cv)) return 2;
    // ok(m) is monotone in m (t falls, √m grows) and the answer lies a few runs above the normal guess.
    const guess = Math.max(2, Math.ceil(((this.z * cv) / this.precision) ** 2));
    if (guess >= this.maxRuns) return this.ok(this.maxRuns, cv) ? this.bisect(2, this.maxRuns, cv) : Infinity;
    let n = guess;
    for (let k = 0; k < 8 && !this.ok(n, cv); k++) n++;
    if (!this.ok(n, cv)) {
      // Far from the guess (small m, where t ≫ z): bisect.
      let hi = n * 2;
      while (!this.ok(hi, cv)) {
        if (hi >= this.maxRuns) return Infinity;
        n = hi;
        hi = Math.min(this.maxRuns, hi * 2);
      }
      return this.bisect(n, hi, cv);
    }
    while (n > 2 && this.ok(n - 1, cv)) n--;
    return n;
  }

  /** Smallest m in (lo, hi] with ok(m), given !ok(lo) and ok(hi). */
  private bisect(lo: number, hi: number, cv: number): number {
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (this.ok(mid, cv)) hi = mid;
      else lo = mid;
    }
    return hi;
  }
}

export function checkPrecisionLevel(precision: number, level: number): void {
  if (!(precision > 0) || !Number.isFinite(precision))
    throw new VarmapError("E_USAGE", `--precision ${precision} is not a positive number`, {
      remedy: "give the relative CI half-width, e.g. --precision 0.05 (±5%)",
    });
  if (!(level > 0 && level < 1))
    throw new VarmapError("E_USAGE", `--level ${level} is not in (0, 1)`, { remedy: "give a confidence level such as --level 0.95" });
}
