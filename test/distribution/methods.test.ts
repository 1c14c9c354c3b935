// Methods of spec E.2 and the E.5 properties: exact order-statistic averaging, valid CDFs, identity at a
// training configuration, CDF mixing of mixtures = the explicit finite mixture.
import { describe, expect, it } from "vitest";
import { quantile7 } from "../../ts/data/stats.js";
import { EdfMixture, type QuantileFunction, type RunDistribution } from "../../ts/distribution/distributions.js";
import { ksStatistic } from "../../ts/distribution/ks.js";
import { averageQuantiles, configRuns, predictDistribution, predictMoments, sortedRunsOf } from "../../ts/distribution/methods.js";
import { combineMixtures } from "../../ts/distribution/mixtures.js";
import { interpolationWeights } from "../../ts/distribution/weights.js";
import { Mixture } from "../../ts/mixture/model.js";
import { rng } from "../helpers/backends.js";

function grid(seed: number, side: number) {
  const r = rng(seed);
  const U: number[] = [],
    runs: number[] = [],
    offsets = [0];
  for (let i = 0; i < side; i++)
    for (let j = 0; j < side; j++) {
      U.push(i / (side - 1), j / (side - 1));
      const mu = 100 + 50 * i + 20 * j * j,
        s = 5 + 3 * j;
      for (let k = 0; k < 40; k++) runs.push(mu + s * (r() + r() + r() - 1.5) * 2);
      offsets.push(runs.length);
    }
  return { U: Float64Array.from(U), runs: configRuns(runs, offsets), n: side * side };
}

describe("quantile averaging", () => {
  it("with equal run counts, the knots are exactly the weighted averages of the order statistics", () => {
    const g = grid(1, 4);
    const idx = [0, 5, 10],
      w = [0.2, 0.3, 0.5];
    const Q = averageQuantiles(g.runs, idx, w);
    expect(Q.levels.length).toBe(40);
    for (let j = 0; j < 40; j++) {
      const avg = idx.reduce((s, i, k) => s + w[k] * sortedRunsOf(g.runs, i)[j], 0);
      expect(Q.values[j]).toBe(avg);
      expect(Q.quantile(j / 39)).toBe(avg);
    }
  });
  it("with unequal run counts, it is Σ w_i Q_i(p) with the type-7 quantile functions at every level", () => {
    const runs = configRuns([1, 5, 2, 9, 3, 4, 10, 11, 12, 30, 31], [0, 4, 11]);
    const Q = averageQuantiles(runs, [0, 1], [0.25, 0.75]);
    for (const p of [0, 0.1, 1 / 3, 0.5, 0.77, 1]) {
      const want = 0.25 * quantile7(sortedRunsOf(runs, 0), p) + 0.75 * quantile7(sortedRunsOf(runs, 1), p);
      expect(Q.quantile(p)).toBeCloseTo(want, 12);
    }
  });
});

function checkValidCdf(F: RunDistribution, exactInverse: boolean) {
  // Plain comparisons in the loops (an expect per point is slow); one expect on the list of violations.
  const bad: string[] = [];
  let prev = -1;
  const lo = F.quantile(0.001),
    hi = F.quantile(0.999);
  for (let k = 0; k <= 2000; k++) {
    const x = lo - 0.1 * (hi - lo) + (1.2 * (hi - lo) * k) / 2000;
    const v = F.cdf(x);
    if (!(v >= 0 && v <= 1 && v >= prev && F.cdfLeft(x) <= v)) bad.push(`F(${x}) = ${v} after ${prev}`);
    prev = v;
  }
  for (let j = 1; j < 100; j++) {
    const p = j / 100,
      x = F.quantile(p);
    if (exactInverse ? !(Math.abs(F.cdf(x) - p) <= 1e-12) : !(F.cdf(x) >= p - 1e-12 && F.cdfLeft(x) <= p + 1e-12)) bad.push(`F(Q(${p})) = ${F.cdf(x)}`);
  }
  // The batch sweep (used for W1) gives exactly quantile() at ascending levels.
  const ps = Float64Array.from({ length: 401 }, (_, j) => j / 400);
  if (F.quantiles) {
    const q = F.quantiles(ps);
    ps.forEach((p, j) => q[j] !== F.quantile(p) && bad.push(`quantiles()[${j}] = ${q[j]} but quantile(${p}) = ${F.quantile(p)}`));
  }
  expect(bad).toEqual([]);
}

describe("every method predicts a valid distribution", () => {
  const g = grid(2, 5);
  const trainRows = Array.from({ length: g.n }, (_, i) => i).filter((i) => i % 3 !== 1);
  const testRows = Array.from({ length: g.n }, (_, i) => i).filter((i) => i % 3 === 1);
  const pick = (rows: number[]) => Float64Array.from(rows.flatMap((r) => [g.U[2 * r], g.U[2 * r + 1]]));
  const sub = configRuns(
    trainRows.flatMap((r) => Array.from(sortedRunsOf(g.runs, r))),
    trainRows.reduce((o, _r) => (o.push(o[o.length - 1] + 40), o), [0]),
  );
  for (const weights of ["delaunay", "nearest", "shepard"] as const)
    it(`${weights} weights are convex and every method gives a monotone CDF in [0, 1] inverting its quantile function`, () => {
      const ws = interpolationWeights(weights, pick(trainRows), pick(testRows), 2);
      for (let q = 0; q < testRows.length; q++) {
        let s = 0;
        for (let k = ws.offsets[q]; k < ws.offsets[q + 1]; k++) {
          expect(ws.weight[k]).toBeGreaterThanOrEqual(0);
          s += ws.weight[k];
        }
        expect(s).toBeCloseTo(1, 12);
      }
      const moments = predictMoments("weights", sub, ws, pick(trainRows), pick(testRows), 2);
      for (let q = 0; q < testRows.length; q += 2) {
        for (const m of ["quantile", "locscale", "normal"] as const) checkValidCdf(predictDistribution(m, sub, ws, q, moments), true);
        checkValidCdf(predictDistribution("cdf", sub, ws, q, moments), false);
      }
    });
});

describe("at a training configuration", () => {
  it("Delaunay puts weight 1 on its vertex: cdf gives KS = 0 with its own EDF, quantile its own type-7 quantile function", () => {
    const g = grid(3, 4);
    const q = 6;
    const ws = interpolationWeights("delaunay", g.U, g.U.subarray(2 * q, 2 * q + 2), 2);
    const at = Array.from(ws.index.subarray(ws.offsets[0], ws.offsets[1])).findIndex((i, k) => i === q && ws.weight[ws.offsets[0] + k] === 1);
    expect(at).toBeGreaterThanOrEqual(0);
    const own = sortedRunsOf(g.runs, q);
    expect(ksStatistic(predictDistribution("cdf", g.runs, ws, 0), own)).toBe(0);
    const Q = predictDistribution("quantile", g.runs, ws, 0) as QuantileFunction;
    for (let j = 0; j < 40; j++) expect(Q.quantile(j / 39)).toBe(own[j]);
    // Its reported mean and sd are the configuration's sample mean and sd (n − 1), as the scalar maps use.
    expect(Q.mean()).toBeCloseTo(g.runs.mean[q], 9);
    expect(Q.sd()).toBeCloseTo(g.runs.sd[q], 9);
  });
});

describe("CDF mixing of per-configuration mixtures", () => {
  it("equals the explicit finite mixture: pdf and cdf to 1e-14 at 1,000 points", () => {
    const mixes2 = [
      new Mixture("normal", [0.3, 0.7], [10, 14], [1, 2]),
      new Mixture("gamma", [1], [9], [1.3]),
      new Mixture("lognormal", [0.5, 0.5], [2.3, 2.6], [0.1, 0.2]),
    ];
    const w = [0.2, 0.5, 0.3];
    const F = combineMixtures(mixes2, w);
    expect(F.components.length).toBe(5);
    let worst = 0;
    for (let k = 0; k < 1000; k++) {
      const x = 3 + (20 * k) / 999;
      const cdf = mixes2.reduce((s, m, i) => s + w[i] * m.cdf(x), 0);
      const pdf = mixes2.reduce((s, m, i) => s + w[i] * m.pdf(x), 0);
      worst = Math.max(worst, Math.abs(F.cdf(x) - cdf), (Math.abs(F.pdf(x) - pdf) / Math.max(pdf, 1e-300)) * Math.min(pdf, 1));
    }
    expect(worst).toBeLessThanOrEqual(1e-14);
  });
});

describe("EDF mixture", () => {
  it("is Σ w_i F_i with the right mean and sd", () => {
    const a = Float64Array.from([1, 2, 3]),
      b = Float64Array.from([2, 10]);
    const F = new EdfMixture([a, b], [0.4, 0.6]);
    expect(F.cdf(2)).toBeCloseTo(0.4 * (2 / 3) + 0.6 * 0.5, 15);
    expect(F.cdfLeft(2)).toBeCloseTo(0.4 * (1 / 3), 15);
    expect(F.mean()).toBeCloseTo(0.4 * 2 + 0.6 * 6, 14);
    const ex2 = 0.4 * (14 / 3) + 0.6 * 52;
    expect(F.sd()).toBeCloseTo(Math.sqrt(ex2 - 4.4 * 4.4), 12);
  });
});
