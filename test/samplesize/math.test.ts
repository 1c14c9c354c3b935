// Properties of the delta-method machinery (spec A.5 items 5–8 and 10).
import { describe, expect, it } from "vitest";
import { counterRng } from "../../ts/data/random.js";
import { FAMILY_NAMES, type FamilyName } from "../../ts/mixture/families.js";
import { Mixture } from "../../ts/mixture/model.js";
import { meanRunsNeededCI } from "../../ts/mixture/runs-needed.js";
import {
  bootstrapQuantileSE,
  deltaQuantileSE,
  fisherEmpirical,
  fisherExpected,
  gammaQ,
  gammaShapeCdfDerivative,
  mixtureQuantile,
  mixtureScore,
  orderStatisticSE1,
  quantileGradient,
} from "../../ts/mixture/samplesize.js";
import { integrateVector } from "../../ts/mixture/quadrature.js";
import { gammaP } from "../../ts/mixture/families.js";

const TABLE7 = new Mixture("normal", [0.03977, 0.96023], [1.6023, -0.06634], [2.3462, 0.8376]);
const rel = (a: number, b: number) => Math.abs(a - b) / Math.abs(b);

/** θ = (π_1..π_{k−1}, a, b) → mixture. */
function fromTheta(fam: FamilyName, k: number, th: ArrayLike<number>): Mixture {
  const w = Array.from(th).slice(0, k - 1);
  w.push(1 - w.reduce((s, v) => s + v, 0));
  return new Mixture(fam, w, Array.from(th).slice(k - 1, 2 * k - 1), Array.from(th).slice(2 * k - 1, 3 * k - 1));
}
function toTheta(m: Mixture): number[] {
  return [...m.w.slice(0, m.k - 1), ...m.a, ...m.b];
}

/** Random well-separated parameters of one family on a scale around 1 (positive families) or 0 (normal). */
function randomMixture(fam: FamilyName, k: number, seed: number): Mixture {
  const r = counterRng(seed, fam, k);
  const raw = Array.from({ length: k }, () => 0.5 + r.next());
  const w = raw.map((v) => v / raw.reduce((s, x) => s + x, 0));
  const a: number[] = [],
    b: number[] = [];
  for (let j = 0; j < k; j++) {
    if (fam === "normal") {
      a.push(j * 2 + r.next());
      b.push(0.5 + r.next());
    } else if (fam === "gamma") {
      a.push(2 + 10 * r.next());
      b.push((0.2 + r.next()) * (j + 1));
    } else {
      a.push(j * 0.8 + 0.3 * r.next());
      b.push(0.1 + 0.3 * r.next());
    }
  }
  return new Mixture(fam, w, a, b);
}

describe("delta-method invariances (A.5 item 5)", () => {
  it("se1 is the same with σ, log σ and σ² as parameters, to 1e-12", () => {
    for (const fam of FAMILY_NAMES) {
      const m = randomMixture(fam, 2, 3);
      const qs = [0.1, 0.9];
      const nat = deltaQuantileSE(m, qs).quantiles;
      for (const bScale of ["log", "variance"] as const) {
        const other = deltaQuantileSE(m, qs, { bScale }).quantiles;
        other.forEach((o, i) => expect(rel(o.se1, nat[i].se1)).toBeLessThan(1e-12));
      }
    }
  });
  it("rescaling the data by 1000 leaves Γ (--center none) unchanged to 1e-12", () => {
    const big = new Mixture(
      "normal",
      TABLE7.w,
      TABLE7.a.map((v) => 1000 * (v + 5)),
      TABLE7.b.map((v) => 1000 * v),
    );
    const small = new Mixture(
      "normal",
      TABLE7.w,
      TABLE7.a.map((v) => v + 5),
      TABLE7.b,
    );
    const qs = [0.05, 0.1, 0.9, 0.95];
    const a = deltaQuantileSE(small, qs).quantiles,
      b = deltaQuantileSE(big, qs).quantiles;
    a.forEach((x, i) => expect(rel(gammaQ(b[i].se1, b[i].xq, 0, 40), gammaQ(x.se1, x.xq, 0, 40))).toBeLessThan(1e-12));
    // a scale family: the log families shift μ by log 1000
    const ln = randomMixture("weibull", 2, 5);
    const ln2 = new Mixture(
      "weibull",
      ln.w,
      ln.a.map((v) => v + Math.log(1000)),
      ln.b,
    );
    const c = deltaQuantileSE(ln, qs).quantiles,
      d = deltaQuantileSE(ln2, qs).quantiles;
    c.forEach((x, i) => expect(rel(gammaQ(d[i].se1, d[i].xq, 0, 10), gammaQ(x.se1, x.xq, 0, 10))).toBeLessThan(1e-12));
  });
});

describe("quantile gradient (A.5 item 6)", () => {
  it("matches central differences (step 1e-6 relative) to 1e-7 for all six families and k = 1..3", () => {
    for (const fam of FAMILY_NAMES)
      for (let k = 1; k <= 3; k++)
        for (const q of [0.05, 0.5, 0.9]) {
          const m = randomMixture(fam, k, 11);
          const th = toTheta(m);
          const g = quantileGradient(m, q).g;
          let gmax = 0;
          for (const v of g) gmax = Math.max(gmax, Math.abs(v));
          for (let i = 0; i < th.length; i++) {
            const h = 1e-6 * Math.max(Math.abs(th[i]), 1e-3);
            const up = th.slice(),
              dn = th.slice();
            up[i] += h;
            dn[i] -= h;
            const fd = (mixtureQuantile(fromTheta(fam, k, up), q) - mixtureQuantile(fromTheta(fam, k, dn), q)) / (2 * h);
            expect(Math.abs(fd - g[i]) / Math.max(gmax, 1e-300), `${fam} k=${k} q=${q} θ${i}`).toBeLessThan(1e-7);
          }
        }
  });
  it("the gamma shape derivative of the CDF agrees with differences of gammaP", () => {
    for (const [a, t] of [
      [0.7, 0.3],
      [3, 2],
      [3, 6],
      [40, 38],
      [200, 230],
    ]) {
      const h = 1e-5 * a;
      const fd = (gammaP(a + h, t) - gammaP(a - h, t)) / (2 * h);
      expect(Math.abs(gammaShapeCdfDerivative(a, t) - fd)).toBeLessThan(1e-8);
    }
  });
});

describe("quadrature vs Monte Carlo (A.5 item 7)", () => {
  it("per family at k = 2: the empirical information of 10⁶ draws is within 5 MC SEs; ∫ s f = 0 to 1e-12", () => {
    const n = 1_000_000;
    for (const fam of FAMILY_NAMES) {
      const m = randomMixture(fam, 2, 7);
      const info = fisherExpected(m);
      expect(info.inexact).toBe(false);
      let smax = 0;
      for (const v of info.I) smax = Math.max(smax, Math.abs(v));
      for (const v of info.meanScore) expect(Math.abs(v) / Math.sqrt(smax)).toBeLessThan(1e-12);
      const rng = counterRng(2026, "mc", fam);
      const x = m.sample(n, () => rng.next());
      const emp = fisherEmpirical(m, x);
      // MC SE of each entry from the variance of s_a s_b over the draws
      const P = info.P,
        ss = new Float64Array(P * P);
      const sc = new Float64Array(P);
      for (let i = 0; i < n; i++) {
        mixtureScore(m, x[i], sc);
        for (let a = 0; a < P; a++) for (let b = a; b < P; b++) ss[a * P + b] += (sc[a] * sc[b]) ** 2;
      }
      let zmax = 0;
      for (let a = 0; a < P; a++)
        for (let b = a; b < P; b++) {
          const mean = emp.I[a * P + b];
          const se = Math.sqrt(Math.max(ss[a * P + b] / n - mean * mean, 0) / n);
          zmax = Math.max(zmax, Math.abs(mean - info.I[a * P + b]) / se);
        }
      expect(zmax, fam).toBeLessThan(5);
    }
  }, 120_000);
});

describe("delta vs bootstrap (A.5 item 8)", () => {
  it("Table 7 (sd reading), n = 250, R = 400 refits: bootstrap SD / delta SE within [0.85, 1.15]", () => {
    const qs = [0.1, 0.9];
    const delta = deltaQuantileSE(TABLE7, qs).quantiles.map((x) => x.se1 / Math.sqrt(250));
    const boot = bootstrapQuantileSE(TABLE7, qs, 250, 400, 1, "table7");
    boot.forEach((b, i) => {
      const ratio = b / delta[i];
      expect(ratio).toBeGreaterThan(0.85);
      expect(ratio).toBeLessThan(1.15);
    });
  }, 120_000);
  it("the order-statistic constants c_q = sqrt(q(1−q))/f(x_q) are 1.4755 and 1.6945", () => {
    const r = deltaQuantileSE(TABLE7, [0.1, 0.9]).quantiles;
    expect(orderStatisticSE1(0.1, r[0].f)).toBeCloseTo(1.4755, 4);
    expect(orderStatisticSE1(0.9, r[1].f)).toBeCloseTo(1.6945, 4);
  });
});

describe("mean runs needed (A.5 item 10)", () => {
  it("CV 0.02, 0.1, 0.2, 0.5 → 3, 18, 64, 387 runs (ε = 0.05, 95%)", () => {
    expect([0.02, 0.1, 0.2, 0.5].map((cv) => meanRunsNeededCI(cv, 0.05, 0.95))).toEqual([3, 18, 64, 387]);
  });
});

describe("large gamma shapes (the log-scale score path)", () => {
  it("the information from v = log x equals an integral over x of the direct score, to 1e-8", () => {
    const m = new Mixture("gamma", [0.3, 0.7], [50, 400], [0.02, 0.0026]);
    const info = fisherExpected(m);
    const P = info.P,
      s = new Float64Array(P);
    const direct = integrateVector(
      (x, out) => {
        const lf = mixtureScore(m, x, s);
        const f = Math.exp(lf);
        let t = 0;
        for (let i = 0; i < P; i++) for (let j = 0; j < P; j++) out[t++] = s[i] * s[j] * f;
      },
      P * P,
      [0.3, 0.8, 0.9, 0.95, 1, 1.05, 1.1, 1.2, 2.5],
      { relTol: 1e-12 },
    );
    let scale = 0;
    for (const v of info.I) scale = Math.max(scale, Math.abs(v));
    for (let i = 0; i < P * P; i++) expect(Math.abs(info.I[i] - direct.value[i]) / scale).toBeLessThan(1e-8);
  });
});

import { configStats, minRunsFor, statValues } from "../../ts/data/stats.js";
describe("--stat cv (spec A.4)", () => {
  it("is sd/mean per configuration and needs 2 runs", () => {
    const s = configStats({ count: 2, runs: Float64Array.from([1, 2, 3, 10, 14]), offsets: Int32Array.from([0, 3, 5]) });
    const cv = statValues(s, "cv");
    expect(cv[0]).toBeCloseTo(1 / 2, 15);
    expect(cv[1]).toBeCloseTo(Math.sqrt(8) / 12, 15);
    expect(minRunsFor("cv")).toBe(2);
  });
});

import { mixtureKurtosis } from "../../ts/mixture/samplesize.js";
describe("--moments model: the mixture's kurtosis", () => {
  it("is 3 for a normal, the closed form for a lognormal, ∞ without a fourth moment", () => {
    expect(mixtureKurtosis(new Mixture("normal", [1], [5], [2]))).toBeCloseTo(3, 10);
    const s2 = 0.3 ** 2;
    expect(mixtureKurtosis(new Mixture("lognormal", [1], [0.2], [0.3]))).toBeCloseTo(Math.exp(4 * s2) + 2 * Math.exp(3 * s2) + 3 * Math.exp(2 * s2) - 3, 8);
    expect(mixtureKurtosis(new Mixture("loglogistic", [1], [0], [0.3]))).toBe(Infinity);
    // a two-point-like normal mixture has kurtosis below 3
    expect(mixtureKurtosis(new Mixture("normal", [0.5, 0.5], [-3, 3], [0.5, 0.5]))).toBeLessThan(2);
  });
});
