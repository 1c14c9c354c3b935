// Distribution prediction at any scale of the runs (issue 44, item 15): runs × 1e298 overflowed the squared
// deviations (every sd Infinity: locscale scored KS 0, a perfect score, everywhere; normal was wrong) and runs × 1e-300
// underflowed them. Moments are now computed divided by a power of two when the runs lie outside 2^±256, so every
// KS statistic is the same at the three scales and the predicted summaries scale with the runs.
import { describe, expect, it } from "vitest";
import { FamilyMixture } from "../../ts/distribution/distributions.js";
import { configRuns, DIST_NAMES } from "../../ts/distribution/methods.js";
import { validateSplit, type DistributionMap } from "../../ts/distribution/validate.js";

// A 5 × 5 grid of configurations, 12 runs each: location 100 + 40 x1 + 10 x2, spread 5 + 10 x2, a skewed shape.
function map(scale: number): DistributionMap {
  const U: number[] = [];
  const runs: number[] = [];
  const offsets = [0];
  let seed = 3;
  const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  for (let i = 0; i < 5; i++)
    for (let j = 0; j < 5; j++) {
      U.push(i / 4, j / 4);
      for (let k = 0; k < 12; k++) runs.push((100 + 10 * i + 2.5 * j + (5 + 2.5 * j) * -Math.log(rnd())) * scale);
      offsets.push(runs.length);
    }
  return { U: Float64Array.from(U), d: 2, rows: 25, runs: configRuns(runs, offsets) };
}

const train = [0, 1, 2, 3, 4, 5, 7, 9, 10, 11, 13, 14, 15, 17, 19, 20, 21, 22, 23, 24];
const test = [6, 8, 12, 16, 18];
const dists = DIST_NAMES.filter((d) => d !== "params");

describe("distribution cv is scale-equivariant", () => {
  for (const [weights, smooth] of [
    ["delaunay", "none"],
    ["shepard", "none"],
    ["nearest", "none"],
    ["delaunay", "pchip"],
  ] as const) {
    const base = validateSplit(map(1), train, test, { dists, weights, smooth });
    for (const f of [1e298, 1e-300])
      it(`${weights} weights, --smooth ${smooth}, runs × ${f}: the same KS, summaries × ${f}`, () => {
        const other = validateSplit(map(f), train, test, { dists, weights, smooth });
        expect(other.length).toBe(base.length);
        other.forEach((r, i) => {
          const b = base[i];
          expect(r.method).toBe(b.method);
          expect(Math.abs(r.ks - b.ks), `${r.method} row ${r.row}`).toBeLessThan(1e-9);
          expect(Math.abs(r.w1Rel - b.w1Rel), `${r.method} w1`).toBeLessThan(1e-9);
          for (let k = 0; k < 4; k++) {
            expect(Math.abs(r.pred[k] / f / b.pred[k] - 1), `${r.method} pred ${k}`).toBeLessThan(1e-9);
            expect(Math.abs(r.truth[k] / f / b.truth[k] - 1), `${r.method} truth ${k}`).toBeLessThan(1e-9);
          }
        });
        // Not a degenerate pass: the predictions are imperfect at scale 1.
        expect(base.some((r) => r.method === "locscale" && r.ks > 0.05)).toBe(true);
      });
  }

  it("a family mixture near 1e306 (--dist params): quantiles, mean and sd scale with it", () => {
    const at = (shift: number) =>
      new FamilyMixture([
        { w: 0.4, family: "lognormal", a: Math.log(3e8) + shift, b: 0.3 },
        { w: 0.6, family: "lognormal", a: Math.log(1e8) + shift, b: 0.2 },
      ]);
    const f = 1e298;
    const base = at(0),
      big = at(Math.log(f));
    const ps = Float64Array.from({ length: 99 }, (_, j) => (j + 1) / 100);
    const qa = base.quantiles(ps),
      qb = big.quantiles(ps);
    for (let j = 0; j < ps.length; j++) expect(Math.abs(qb[j] / f / qa[j] - 1), `level ${ps[j]}`).toBeLessThan(1e-9);
    expect(Math.abs(big.mean() / f / base.mean() - 1)).toBeLessThan(1e-9);
    expect(Math.abs(big.sd() / f / base.sd() - 1)).toBeLessThan(1e-9);
  });
});
