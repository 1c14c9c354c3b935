// --smooth pchip (against scipy's PchipInterpolator), --per-level with monotone rearrangement, --folds, and the
// synthetic design's true laws (synth --truth; KS against the true CDF).
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { normCdf } from "../../ts/mixture/families.js";
import { configurationLaw, generateRuns, synthPlan, writeSynthPart } from "../../ts/data/synth.js";
import { familyLaw } from "../../ts/data/families.js";
import { EdfMixture, FamilyMixture, NormalDistribution } from "../../ts/distribution/distributions.js";
import { ksCoefficient, ksStatistic } from "../../ts/distribution/ks.js";
import { averageQuantiles, configRuns } from "../../ts/distribution/methods.js";
import { FEATURE_WEIGHT_FLOOR, featureScales, scaleInputs } from "../../ts/distribution/feature-weights.js";
import { Pchip, PchipCdfMixture, pchipCdf } from "../../ts/distribution/pchip.js";
import { perLevelQuantiles } from "../../ts/distribution/per-level.js";
import { foldAssignment, foldDivision } from "../../ts/distribution/folds.js";
import { interpolationWeights } from "../../ts/distribution/weights.js";
import { ksAgainstTruth, truthTable } from "../../ts/distribution/truth.js";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { rng } from "../helpers/backends.js";

interface PchipCase {
  x: number[];
  y: number[];
  t: number[];
  v: number[];
  d: number[];
}
const pchipCases = JSON.parse(readFileSync(new URL("../fixtures/pchip-scipy.json", import.meta.url), "utf8")) as PchipCase[];

describe("--smooth pchip", () => {
  it("the interpolant and its knot slopes equal scipy's PchipInterpolator (flat pieces included)", () => {
    for (const c of pchipCases) {
      const P = new Pchip(Float64Array.from(c.x), Float64Array.from(c.y));
      c.d.forEach((d, k) => expect(Math.abs(P.d[k] - d)).toBeLessThanOrEqual(1e-12 * Math.max(1, Math.abs(d))));
      c.t.forEach((t, k) => expect(Math.abs(P.value(t) - c.v[k])).toBeLessThanOrEqual(1e-14));
    }
  });

  it("each smoothed EDF runs from 0 at the smallest run to 1 at the largest through the EDF's jump midpoints", () => {
    const P = pchipCdf(Float64Array.from([1, 2, 2, 4, 7]))!;
    expect(Array.from(P.x)).toEqual([1, 2, 4, 7]);
    expect(Array.from(P.y)).toEqual([0, 0.4, 0.7, 1]);
    expect(pchipCdf(Float64Array.from([3, 3, 3]))).toBeNull();
  });

  it("the mixture of smoothed EDFs is a valid continuous CDF: monotone, in [0, 1], F(Q(p)) = p ± 1e-12, exact moments", () => {
    const r = rng(3);
    const samples = [0, 1, 2].map((i) => Float64Array.from({ length: 25 + 5 * i }, () => 100 * (i + 1) + 30 * r() * r()).sort());
    samples.push(Float64Array.from([150, 150, 150, 150])); // one configuration with a point mass
    const w = [0.4, 0.3, 0.2, 0.1];
    const F = new PchipCdfMixture(samples, w);
    let prev = 0;
    for (let x = 90; x <= 400; x += 0.05) {
      const v = F.cdf(x);
      expect(v).toBeGreaterThanOrEqual(prev - 1e-15);
      expect(v).toBeLessThanOrEqual(1);
      prev = v;
    }
    for (let j = 1; j < 1000; j++) {
      const p = j / 1000;
      const x = F.quantile(p);
      if (Math.abs(F.cdf(x) - p) > 1e-12) {
        // Only inside the point mass: F(x−) ≤ p ≤ F(x).
        expect(x).toBe(150);
        expect(F.cdfLeft(x)).toBeLessThanOrEqual(p);
        expect(F.cdf(x)).toBeGreaterThanOrEqual(p);
      }
    }
    // Mean and sd against the midpoint rule over 200,000 levels of the quantile function.
    const M = 200_000;
    let m1 = 0,
      m2 = 0;
    for (let j = 0; j < M; j++) {
      const q = F.quantile((j + 0.5) / M);
      m1 += q / M;
      m2 += (q * q) / M;
    }
    expect(F.mean()).toBeCloseTo(m1, 3);
    expect(F.sd()).toBeCloseTo(Math.sqrt(m2 - m1 * m1), 2);
  });
});

describe("--per-level", () => {
  // Configurations on a line, runs = location(u) + spread(u)·shape: every level's quantile is linear in u, so lr
  // recovers each exactly (some runs are negative: the levels are fitted on the linear scale); the rearranged
  // vector is the true quantile function at the levels.
  const u = Float64Array.from({ length: 9 }, (_, i) => i / 8);
  const shape = [-1.5, -0.4, 0, 0.3, 1.2, 2.5];
  const runs: number[] = [],
    offsets = [0];
  for (const x of u) {
    for (const z of shape) runs.push(-10 + 50 * x + (5 + 10 * x) * z);
    offsets.push(runs.length);
  }
  const train = configRuns(runs, offsets);

  it("lr per level recovers quantiles linear in the inputs; the levels are sorted (monotone rearrangement)", () => {
    const query = Float64Array.from([0.3, 0.77]);
    const F = perLevelQuantiles({ method: "lr" }, train, u, query, 1, 10);
    for (let q = 0; q < 2; q++) {
      const Q = F[q]!;
      for (let j = 1; j < Q.values.length; j++) expect(Q.values[j]).toBeGreaterThanOrEqual(Q.values[j - 1]);
      // Type-7 quantile of the 6-point shape at level j/10, moved to query u.
      const x = query[q];
      const s = [...shape].sort((a, b) => a - b);
      for (let j = 0; j <= 10; j++) {
        const h = (j / 10) * 5,
          lo = Math.floor(h),
          z = s[lo] + (h - lo) * ((s[Math.min(lo + 1, 5)] ?? s[lo]) - s[lo]);
        expect(Q.quantile(j / 10)).toBeCloseTo(-10 + 50 * x + (5 + 10 * x) * z, 8);
      }
    }
  });

  it("with Delaunay and K = n − 1 it is exactly the quantile method (the same barycentric weights, level by level)", () => {
    const r = rng(17);
    const n = 25,
      runsPer = 6;
    const U = Float64Array.from({ length: 2 * n }, () => r());
    const rr: number[] = [],
      off = [0];
    for (let i = 0; i < n; i++) {
      for (let k = 0; k < runsPer; k++) rr.push(50 + 40 * U[2 * i] + 20 * U[2 * i + 1] * r() + 5 * r());
      off.push(rr.length);
    }
    const c = configRuns(rr, off);
    const Q = Float64Array.from([0.4, 0.5, 0.55, 0.3, 0.62, 0.48]);
    const F = perLevelQuantiles({ method: "delaunay" }, c, U, Q, 2, runsPer - 1);
    const ws = interpolationWeights("delaunay", U, Q, 2);
    let checked = 0;
    for (let q = 0; q < 3; q++) {
      if (ws.extrapolated[q]) continue;
      checked++;
      const o = ws.offsets[q],
        e = ws.offsets[q + 1];
      const A = averageQuantiles(c, ws.index.subarray(o, e), ws.weight.subarray(o, e));
      for (let j = 0; j < runsPer; j++) expect(F[q]!.values[j]).toBeCloseTo(A.values[j], 9);
    }
    expect(checked).toBe(3);
  });

  it("a query far outside the data gets clamped, finite, monotone levels (the estimator's absurd-value clamp)", () => {
    // The linear fit at a finite but huge input would overflow to ±Infinity; the estimator clamps such predictions
    // to the training range widened by 1000 × the data's scale (issue 14), so the levels stay a valid distribution.
    // (A level that still comes out non-finite, e.g. NaN, gets no distribution: the `nonfinite` row flag.)
    const F = perLevelQuantiles({ method: "lr" }, train, u, Float64Array.from([0.5, 1e308]), 1, 10);
    expect(F[0]).not.toBeNull();
    const far = F[1]!.values;
    expect(Array.from(far).every(Number.isFinite)).toBe(true);
    for (let j = 1; j < far.length; j++) expect(far[j]).toBeGreaterThanOrEqual(far[j - 1]);
  });
});

describe("--folds", () => {
  it("every configuration is tested exactly once; folds differ in size by at most one; keyed by (seed, map)", () => {
    const n = 103,
      k = 10;
    const seen = new Uint8Array(n);
    const sizes: number[] = [];
    for (let f = 0; f < k; f++) {
      const { train, test } = foldDivision(n, k, f, "7", "a/b");
      expect(train.length + test.length).toBe(n);
      for (const r of test) seen[r]++;
      sizes.push(test.length);
    }
    expect(Array.from(seen).every((c) => c === 1)).toBe(true);
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
    expect(foldAssignment(n, k, "7", "a/b")).toEqual(foldAssignment(n, k, 7, "a/b"));
    expect(foldAssignment(n, k, "7", "a/b")).not.toEqual(foldAssignment(n, k, "8", "a/b"));
    expect(foldAssignment(n, k, "7", "a/b")).not.toEqual(foldAssignment(n, k, "7", "a/c"));
  });
});

describe("the synthetic design's true laws (synth --truth)", () => {
  it("exposing the law leaves every generated byte as before (sha256 of `synth --design moana --maps 1 --seed 3`)", () => {
    const dir = mkdtempSync(join(tmpdir(), "varmap-truth-"));
    try {
      const plan = synthPlan("moana", 3, 1);
      const file = join(dir, "m.csv");
      writeSynthPart(file, plan, 3, 0, 1, true);
      // Taken with the generator before configurationLaw existed (main at 2404631).
      expect(createHash("sha256").update(readFileSync(file)).digest("hex")).toBe("45d95647e3408910248764fc94b2866a46b3b3d55a0b90eaa3a7a3266eb4138b");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("the law has the target mean and cv, and the generated runs follow it (one-sample KS rejects ≈ 5% at p = 0.05)", () => {
    for (const design of ["moana", "mixture"] as const) {
      const plan = synthPlan(design, 5, 1);
      const count = design === "moana" ? plan.settings.length : 600;
      const runs = new Float64Array(plan.runs);
      let rejected = 0;
      for (let s = 0; s < count; s++) {
        const law = configurationLaw(plan, 5, 0, s);
        const F = new FamilyMixture(
          law.components.map((c) => {
            const l = familyLaw(c.family, c.mean, c.sd);
            return { w: c.weight, family: l.family, a: l.a, b: l.b };
          }),
        );
        // Mixture mean Σ w_j m_j is the target μ by construction (components sit at μ(1 + √ρ·cv·z_j), z centred).
        const mu = law.components.reduce((a, c) => a + c.weight * c.mean, 0);
        expect(Math.abs(law.floor - 1e-3 * mu) / mu).toBeLessThan(1e-12);
        generateRuns(plan, 5, 0, s, runs);
        const sorted = Float64Array.from(runs).sort();
        const D = ksStatistic({ cdf: (x) => (x < law.floor ? 0 : F.cdf(x)), cdfLeft: (x) => (x <= law.floor ? 0 : F.cdf(x)) }, sorted);
        if (D > ksCoefficient(0.05) / Math.sqrt(plan.runs)) rejected++;
      }
      // Binomial(count, 0.05): 2% … 9% is more than 3 standard deviations either side.
      expect(rejected / count).toBeGreaterThan(0.02);
      expect(rejected / count).toBeLessThan(0.09);
    }
  });

  it("KS against a true CDF is exact to about 1/M: continuous and step predictions", () => {
    const truth = { mixture: new FamilyMixture([{ w: 1, family: "normal", a: 0, b: 1 }]), floor: -Infinity };
    const xs = truthTable(truth);
    // Two normals: sup |Φ(x − 0.1) − Φ(x)| = 2Φ(0.05) − 1.
    expect(Math.abs(ksAgainstTruth(new NormalDistribution(0.1, 1), xs) - (2 * normCdf(0.05) - 1))).toBeLessThan(1e-3);
    // An EDF: the sup is at its jumps, max(i/n − Φ(x_i), Φ(x_i) − (i−1)/n).
    const r = rng(11);
    const s = Float64Array.from({ length: 30 }, () => 2 * (r() + r() + r() - 1.5)).sort();
    const exact = Math.max(...Array.from(s, (x, i) => Math.max((i + 1) / 30 - normCdf(x), normCdf(x) - i / 30)));
    expect(Math.abs(ksAgainstTruth(new EdfMixture([s], [1]), xs) - exact)).toBeLessThan(1e-3);
    expect(ksAgainstTruth(new NormalDistribution(0, 1), xs)).toBeLessThan(1e-3);
  });
});

describe("--positions weibull", () => {
  const runsA = [5, 1, 3, 9, 4],
    runsB = [2, 8, 6, 7, 10];
  const equal = configRuns([...runsA, ...runsB], [0, 5, 10]);
  it("equal run counts: averaged order statistics at k/(n + 1), the end segments extended to levels 0 and 1", () => {
    const Q = averageQuantiles(equal, [0, 1], [0.25, 0.75], undefined, "weibull");
    const a = [...runsA].sort((x, y) => x - y),
      b = [...runsB].sort((x, y) => x - y);
    const avg = a.map((v, k) => 0.25 * v + 0.75 * b[k]);
    expect(Array.from(Q.levels)).toEqual([0, 1 / 6, 2 / 6, 3 / 6, 4 / 6, 5 / 6, 1]);
    expect(Array.from(Q.values)).toEqual([avg[0] - (avg[1] - avg[0]), ...avg, avg[4] + (avg[4] - avg[3])]);
    for (let j = 1; j < 200; j++) expect(Math.abs(Q.cdf(Q.quantile(j / 200)) - j / 200)).toBeLessThanOrEqual(1e-12);
  });
  it("unequal run counts: Σ w_i Q_i(p) with each configuration's Weibull-position quantile function", () => {
    const c = configRuns([...runsA, 4, 1, 7], [0, 5, 8]);
    const Q = averageQuantiles(c, [0, 1], [0.6, 0.4], undefined, "weibull");
    const qw = (s: number[], p: number) => {
      const n = s.length,
        h = p * (n + 1),
        k = Math.min(Math.max(Math.floor(h), 1), n - 1);
      return s[k - 1] + (h - k) * (s[k] - s[k - 1]);
    };
    const a = [...runsA].sort((x, y) => x - y),
      b = [1, 4, 7];
    for (let j = 0; j <= 100; j++) expect(Q.quantile(j / 100)).toBeCloseTo(0.6 * qw(a, j / 100) + 0.4 * qw(b, j / 100), 12);
  });
});

describe("--feature-weights lr", () => {
  it("an input the log mean does not depend on shrinks to the floor; the one it depends on keeps scale 1", () => {
    // 6 × 6 grid on [0, 1]²: log mean depends on u0 only.
    const U: number[] = [],
      runs: number[] = [],
      offsets = [0];
    for (let i = 0; i < 6; i++)
      for (let j = 0; j < 6; j++) {
        U.push(i / 5, j / 5);
        for (let k = 0; k < 4; k++) runs.push(Math.exp(2 * (i / 5)) * (1 + 0.1 * k));
        offsets.push(runs.length);
      }
    const c = configRuns(runs, offsets);
    const s = featureScales(Float64Array.from(U), 2, c);
    expect(s[0]).toBe(1);
    expect(s[1]).toBe(FEATURE_WEIGHT_FLOOR);
    expect(Array.from(scaleInputs(Float64Array.from([0.5, 0.5]), s, 2))).toEqual([0.5, 0.5 * FEATURE_WEIGHT_FLOOR]);
  });
});
