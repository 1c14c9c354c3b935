// --dist params (experimental): the (family, k) with the smallest BIC sum, E_MIXTURE_MODEL when none was fitted
// to every configuration, and the exact mixture back at a configuration with weight 1.
import { describe, expect, it } from "vitest";
import { FamilyMixture } from "../../ts/distribution/distributions.js";
import { fitKey, mapMixtures, predictParams, type FitRow } from "../../ts/distribution/params.js";
import type { WeightSet } from "../../ts/distribution/weights.js";

const keys = [fitKey(["a", 1]), fitKey(["a", 2])];
const fits: FitRow[] = [
  { key: keys[0], family: "normal", k: 1, bic: 100, params: { w: [1], mean: [10], sd: [2] } },
  { key: keys[1], family: "normal", k: 1, bic: 100, params: { w: [1], mean: [20], sd: [3] } },
  { key: keys[0], family: "normal", k: 2, bic: 90, params: { w: [0.7, 0.3], mean: [14, 9], sd: [1, 0.5] } },
  { key: keys[1], family: "normal", k: 2, bic: 95, params: { w: [0.4, 0.6], mean: [18, 25], sd: [2, 1] } },
  { key: keys[0], family: "lognormal", k: 1, bic: 80, params: { w: [1], mu: [2.3], sigma: [0.2] } },
];
const one = (i: number): WeightSet => ({
  offsets: Int32Array.from([0, 1]),
  index: Int32Array.from([i]),
  weight: Float64Array.from([1]),
  extrapolated: new Uint8Array(1),
  distance: new Float64Array(1),
});

describe("params", () => {
  it("chooses the smallest BIC sum among models fitted to every configuration (lognormal k=1 lacks one)", () => {
    const m = mapMixtures(fits, keys, "test");
    expect([m.family, m.k]).toEqual(["normal", 2]);
    // Components ordered by location: configuration 0's (9, 14).
    const F = predictParams(m, one(0), 0)!;
    const want = new FamilyMixture([
      { w: 0.3, family: "normal", a: 9, b: 0.5 },
      { w: 0.7, family: "normal", a: 14, b: 1 },
    ]);
    for (const x of [8, 9.5, 12, 14, 15.5]) expect(F.cdf(x)).toBeCloseTo(want.cdf(x), 14);
  });
  it("E_MIXTURE_MODEL when no (family, k) covers every configuration", () => {
    expect(() =>
      mapMixtures(
        fits.filter((f) => !(f.key === keys[1] && f.family === "normal")),
        keys,
        "test",
      ),
    ).toThrow(/E_MIXTURE_MODEL|no \(family, k\)/);
  });
  it("the interpolated quantile sweep of a mixture matches its bisected quantiles", () => {
    const F = new FamilyMixture([
      { w: 0.4, family: "normal", a: 10, b: 1 },
      { w: 0.6, family: "gamma", a: 9, b: 2 },
    ]);
    const ps = Float64Array.from({ length: 99 }, (_, j) => (j + 1) / 100);
    const q = F.quantiles(ps);
    ps.forEach((p, j) => expect(Math.abs(q[j] - F.quantile(p))).toBeLessThan(1e-5 * (F.quantile(0.99) - F.quantile(0.01))));
  });
});
