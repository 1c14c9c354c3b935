// KS statistic, thresholds and noise floor (spec E.3), against scipy's ks_2samp and kstest.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { EdfMixture, NormalDistribution, QuantileFunction } from "../../ts/distribution/distributions.js";
import { KS_LEVELS, ksCoefficient, ksNoiseFloor, ksStatistic, ksThreshold, w1Relative } from "../../ts/distribution/ks.js";

interface Case {
  kind: "2samp" | "norm" | "pl";
  D: number;
  a?: number[];
  b?: number[];
  x?: number[];
  mu?: number;
  sigma?: number;
  p?: number[];
  v?: number[];
}
const cases = JSON.parse(readFileSync(new URL("../fixtures/ks-scipy.json", import.meta.url), "utf8")) as Case[];
const sorted = (v: number[]) => Float64Array.from(v).sort();

describe("KS statistic against scipy", () => {
  it("two-sample: an EDF (cdf method with one weight) against another, ties included", () => {
    for (const c of cases.filter((c) => c.kind === "2samp")) {
      const F = new EdfMixture([sorted(c.a!)], [1]);
      expect(Math.abs(ksStatistic(F, sorted(c.b!)) - c.D)).toBeLessThanOrEqual(1e-15);
    }
  });
  it("one-sample: a normal CDF", () => {
    for (const c of cases.filter((c) => c.kind === "norm"))
      expect(Math.abs(ksStatistic(new NormalDistribution(c.mu!, c.sigma!), sorted(c.x!)) - c.D)).toBeLessThanOrEqual(1e-15);
  });
  it("one-sample: the inverse of a piecewise-linear quantile function", () => {
    const c = cases.find((c) => c.kind === "pl")!;
    expect(Math.abs(ksStatistic(new QuantileFunction(Float64Array.from(c.p!), Float64Array.from(c.v!)), sorted(c.x!)) - c.D)).toBeLessThanOrEqual(1e-15);
  });
});

describe("thresholds and noise floor", () => {
  it("c(p) and the E.3 threshold table", () => {
    expect(KS_LEVELS.map((p) => ksCoefficient(p))).toEqual(KS_LEVELS.map((_, i) => expect.closeTo([1.358102, 1.627624, 1.949475, 2.693386][i], 6)));
    const table: Record<number, number[]> = { 150: [0.15682, 0.18794, 0.22511, 0.31101], 40: [0.30368, 0.36395, 0.43592, 0.60226] };
    for (const [n, row] of Object.entries(table)) KS_LEVELS.forEach((p, i) => expect(ksThreshold(p, Number(n))).toBeCloseTo(row[i], 5));
  });
  it("one-sample thresholds are the two-sample ones divided by √2", () => {
    for (const p of KS_LEVELS) expect(ksThreshold(p, 40, "one-sample") * Math.SQRT2).toBeCloseTo(ksThreshold(p, 40), 14);
  });
  it("noise floor 0.185 at n = 40, 0.0956 at n = 150", () => {
    expect(ksNoiseFloor(40)).toBeCloseTo(0.185, 3);
    expect(ksNoiseFloor(150)).toBeCloseTo(0.0956, 4);
  });
});

describe("W1 relative distance", () => {
  it("is 0 for the test EDF itself and scales with a shift", () => {
    const x = Float64Array.from([1, 2, 2, 4, 7]);
    expect(w1Relative(new EdfMixture([x], [1]), x)).toBe(0);
    const shifted = new EdfMixture([x.map((v) => v + 0.5)], [1]);
    expect(w1Relative(shifted, x)).toBeCloseTo(0.5 / (16 / 5), 12);
  });
});
