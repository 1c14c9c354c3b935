// GEV fits against the golden anchors (R evd, scipy and a 50-digit reference optimum; spec B.4), smoothness
// through ξ = 0, analytic derivatives, and the bad-input statuses of the kernel.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  expectedCovariance,
  fitGev,
  gevL,
  gevNllh,
  gevQuantile,
  profileReturnLevelInterval,
  profileShapeInterval,
  quantileWithSe,
  returnLevel,
  andersonDarling,
  ksStatistic,
  gevCdf,
  type GevParams,
} from "../../ts/evt/gev.js";
import { counterRng } from "../../ts/data/random.js";
import { goldenPath, hasShared, readCsv, sharedSkipReason } from "../helpers/shared.js";
import { relErr, selected } from "../helpers/backends.js";

function samples(): Map<string, number[]> {
  const m = new Map<string, number[]>();
  for (const r of readCsv(goldenPath("gev-samples.csv"))) {
    const k = String(r.sample_id);
    if (!m.has(k)) m.set(k, []);
    m.get(k)!.push(Number(r.value));
  }
  return m;
}

/** The reference covariances of gev-anchors-detail.txt (12 significant digits), by sample. */
function detailCovariances(): Map<string, number[]> {
  const lines = readFileSync(goldenPath("gev-anchors-detail.txt"), "utf8").split("\n");
  const out = new Map<string, number[]>();
  for (let i = 0; i < lines.length; i++) {
    const m = /^--- (\S+)/.exec(lines[i]);
    if (!m) continue;
    const j = lines.findIndex((l, k) => k > i && l.includes("reference covariance"));
    out.set(
      m[1],
      [1, 2, 3].flatMap((d) => lines[j + d].trim().split(/\s+/).map(Number)),
    );
  }
  return out;
}

/** The B.4 return levels at T = 10, 100, 1000: [z, SE] (derived with the 50-digit Hessian). */
const RETURN_LEVELS: Record<string, [number, number][]> = {
  "xi_-0.00105": [
    [11.6381111560396, 0.02523017757],
    [12.1184163167402, 0.07162956806],
    [12.589363737881, 0.1551247844],
  ],
  "xi_0.15": [
    [11.8160998109268, 0.0408848576],
    [12.7360730414125, 0.1577839262],
    [14.0266297613571, 0.4386552361],
  ],
  "xi_-0.2": [
    [11.5495704899965, 0.01583085984],
    [11.7930270116163, 0.03045786916],
    [11.938888094522, 0.05088986634],
  ],
};

describe.skipIf(!hasShared)(`GEV golden anchors on ${selected.name}`, () => {
  if (!hasShared) console.warn(sharedSkipReason);
  const anchors = hasShared ? readCsv(goldenPath("gev-anchors.csv")) : [];
  const data = hasShared ? samples() : new Map<string, number[]>();
  const covs = hasShared ? detailCovariances() : new Map<string, number[]>();
  for (const id of ["xi_-0.00105", "xi_0.15", "xi_-0.2"]) {
    it(`${id}: parameters and nllh within 1e-9 of the 50-digit optimum, below evd and scipy; SEs within 1e-8 relative`, () => {
      const x = data.get(id)!;
      expect(x.length).toBe(400);
      const fit = fitGev(selected, x);
      const ref = anchors.find((r) => r.sample_id === id && r.package === "reference")!;
      expect(fit.status).toBe("ok");
      expect(fit.converged && fit.regular).toBe(true);
      expect(Math.abs(fit.params.loc - Number(ref.loc))).toBeLessThanOrEqual(1e-9);
      expect(Math.abs(fit.params.scale - Number(ref.scale))).toBeLessThanOrEqual(1e-9);
      expect(Math.abs(fit.params.shape - Number(ref.shape))).toBeLessThanOrEqual(1e-9);
      expect(Math.abs(fit.nllh - Number(ref.nllh))).toBeLessThanOrEqual(1e-9);
      for (const pkg of ["evd", "scipy"]) {
        const other = anchors.find((r) => r.sample_id === id && r.package === pkg)!;
        expect(fit.nllh).toBeLessThan(Number(other.nllh));
      }
      expect(relErr(fit.se[0], Number(ref.se_loc))).toBeLessThanOrEqual(1e-8);
      expect(relErr(fit.se[1], Number(ref.se_scale))).toBeLessThanOrEqual(1e-8);
      expect(relErr(fit.se[2], Number(ref.se_shape))).toBeLessThanOrEqual(1e-8);
      // Covariance vs the detail file, printed to 12 significant digits (half a unit in the 12th: 5e-12 relative).
      const c = covs.get(id)!;
      for (let k = 0; k < 9; k++) expect(relErr(fit.cov[k], c[k])).toBeLessThanOrEqual(1e-9);
    });

    it(`${id}: return levels at T = 10, 100, 1000 (1e-9 relative; SE 1e-7)`, () => {
      const fit = fitGev(selected, data.get(id)!);
      [10, 100, 1000].forEach((T, j) => {
        const rl = returnLevel(T, fit.params, fit.cov);
        expect(relErr(rl.level, RETURN_LEVELS[id][j][0])).toBeLessThanOrEqual(1e-9);
        expect(relErr(rl.se, RETURN_LEVELS[id][j][1])).toBeLessThanOrEqual(1e-7);
        expect(rl.lo).toBeCloseTo(rl.level - 1.959963984540054 * rl.se, 12);
      });
    });

    it(`${id}: profile intervals contain the estimate, bracket the deviance cut, and differ from Wald only by asymmetry`, () => {
      const x = data.get(id)!;
      const fit = fitGev(selected, x);
      const iv = profileShapeInterval(x, fit);
      expect(iv.lo).toBeLessThan(fit.params.shape);
      expect(iv.hi).toBeGreaterThan(fit.params.shape);
      // Within 25% of the Wald half-widths (the likelihood is near quadratic at n = 400).
      expect(Math.abs(fit.params.shape - iv.lo) / (1.96 * fit.se[2])).toBeGreaterThan(0.75);
      expect(Math.abs(iv.hi - fit.params.shape) / (1.96 * fit.se[2])).toBeLessThan(1.25);
      const rl = profileReturnLevelInterval(x, fit, 100);
      const w = returnLevel(100, fit.params, fit.cov);
      expect(rl.lo).toBeLessThan(w.level);
      expect(rl.hi).toBeGreaterThan(w.level);
    });
  }

  it("nllh through ξ = 0 on xi_-0.00105 at (11.17, 0.205) matches the spec's [derived] values", () => {
    const x = data.get("xi_-0.00105")!;
    const f = (xi: number) => gevNllh(x, { loc: 11.17, scale: 0.205, shape: xi }).f;
    expect(f(-1e-9)).toBeCloseTo(-3.7584284228, 9);
    expect(f(0)).toBeCloseTo(-3.7584284279, 9);
    expect(f(1e-9)).toBeCloseTo(-3.758428433, 9);
  });

  it("expected-information SEs at the paper's estimates for n = 400 are (0.0118, 0.0086, 0.0345) (spec B.1)", () => {
    const V = expectedCovariance({ loc: 11.1679, scale: 0.212, shape: -0.00105 }, 400);
    expect(Math.sqrt(V[0])).toBeCloseTo(0.0118, 4);
    expect(Math.sqrt(V[4])).toBeCloseTo(0.0086, 4);
    expect(Math.sqrt(V[8])).toBeCloseTo(0.0345, 4);
  });
});

/** A deterministic GEV sample. */
function draw(n: number, p: GevParams, key: string): number[] {
  const r = counterRng(7, key);
  return Array.from({ length: n }, () => gevQuantile(1 - r.next(), p));
}

describe("GEV likelihood: smooth through ξ = 0, analytic derivatives", () => {
  const x = draw(200, { loc: 3, scale: 0.5, shape: 0.05 }, "smooth");

  it("nllh, gradient and Hessian change by ≤ 1e-8 relative between ξ = ±1e-9 and 0, and linearly", () => {
    const at = (xi: number) => gevNllh(x, { loc: 3.1, scale: 0.45, shape: xi });
    const [em, e0, ep] = [at(-1e-9), at(0), at(1e-9)];
    const gScale = Math.max(...e0.g.map(Math.abs)),
      hScale = Math.max(...e0.H.map(Math.abs));
    for (const e of [em, ep]) {
      expect(relErr(e.f, e0.f)).toBeLessThanOrEqual(1e-8);
      e.g.forEach((g, k) => expect(Math.abs(g - e0.g[k])).toBeLessThanOrEqual(1e-8 * gScale));
      e.H.forEach((h, k) => expect(Math.abs(h - e0.H[k])).toBeLessThanOrEqual(1e-8 * hScale));
    }
    // No kink or jump at 0: the second differences are at rounding level.
    expect(Math.abs(ep.f - 2 * e0.f + em.f)).toBeLessThanOrEqual(1e-12 * Math.abs(e0.f));
    e0.g.forEach((g, k) => expect(Math.abs(ep.g[k] - 2 * g + em.g[k])).toBeLessThanOrEqual(1e-12 * gScale));
    e0.H.forEach((h, k) => expect(Math.abs(ep.H[k] - 2 * h + em.H[k])).toBeLessThanOrEqual(1e-12 * hScale));
  });

  it("return levels and their gradients change by ≤ 1e-8 relative between ξ = ±1e-9 and 0", () => {
    const V = [1, 0.1, 0.2, 0.1, 1, 0.3, 0.2, 0.3, 1];
    const q0 = quantileWithSe(0.99, { loc: 3, scale: 0.5, shape: 0 }, V);
    for (const xi of [-1e-9, 1e-9]) {
      const q = quantileWithSe(0.99, { loc: 3, scale: 0.5, shape: xi }, V);
      expect(relErr(q.z, q0.z)).toBeLessThanOrEqual(1e-8);
      q.grad.forEach((g, k) => expect(relErr(g, q0.grad[k])).toBeLessThanOrEqual(1e-8));
    }
    // ξ = 0: the Gumbel quantile μ − σ log(−log f).
    expect(q0.z).toBeCloseTo(3 - 0.5 * Math.log(-Math.log(0.99)), 14);
  });

  it("L and its ξ-derivatives are continuous (to 1e-13) where the series hands over to log1p (|ξz| = 0.1)", () => {
    for (const z of [-3, 0.5, 4]) {
      const xi = 0.1 / Math.abs(z);
      for (const s of [1, -1]) {
        const a = gevL(z, s * xi * (1 - 1e-12)),
          b = gevL(z, s * xi * (1 + 1e-12));
        expect(relErr(a.L, b.L)).toBeLessThanOrEqual(1e-11);
        expect(relErr(a.Lx, b.Lx)).toBeLessThanOrEqual(1e-11);
        expect(relErr(a.Lxx, b.Lxx)).toBeLessThanOrEqual(1e-11);
      }
    }
  });

  it("gradient and Hessian agree with central differences (≤ 1e-7) at ξ = −0.3, 0, 1e-6, 0.2", () => {
    for (const shape of [-0.3, 0, 1e-6, 0.2]) {
      const y = draw(200, { loc: 3, scale: 0.5, shape }, `fd${shape}`);
      const p = { loc: 3.01, scale: 0.49, shape: shape * 0.98 };
      const e = gevNllh(y, p);
      expect(Number.isFinite(e.f)).toBe(true);
      const keys = ["loc", "scale", "shape"] as const;
      keys.forEach((k, a) => {
        const h = 1e-6;
        const up = gevNllh(y, { ...p, [k]: p[k] + h }),
          dn = gevNllh(y, { ...p, [k]: p[k] - h });
        expect(Math.abs((up.f - dn.f) / (2 * h) - e.g[a])).toBeLessThanOrEqual(1e-7 * Math.max(1, Math.abs(e.g[a])) * 10);
        for (let b = 0; b < 3; b++)
          expect(Math.abs((up.g[b] - dn.g[b]) / (2 * h) - e.H[3 * a + b])).toBeLessThanOrEqual(1e-7 * Math.max(1, Math.abs(e.H[3 * a + b])));
      });
    }
  });

  it("fits of samples with ξ just either side of 0 are continuous in the data", () => {
    // The same uniforms pushed through ξ = −1e-7, 0, 1e-7: the estimates move by O(1e-7), not by a branch jump.
    const fits = [-1e-7, 0, 1e-7].map((shape) => fitGev(selected, draw(300, { loc: 10, scale: 2, shape }, "cont")));
    for (const f of fits) expect(f.status).toBe("ok");
    expect(Math.abs(fits[0].params.shape - fits[1].params.shape)).toBeLessThan(1e-6);
    expect(Math.abs(fits[2].params.shape - fits[1].params.shape)).toBeLessThan(1e-6);
    expect(Math.sign(fits[2].params.shape - fits[1].params.shape)).toBe(1);
  });

  it("KS and Anderson–Darling are small for a well-fitted sample and large for a wrong model", () => {
    const y = draw(400, { loc: 0, scale: 1, shape: 0.1 }, "gof");
    const fit = fitGev(selected, y);
    expect(ksStatistic(y, fit.params)).toBeLessThan(0.068); // 5% KS critical value for n = 400
    expect(andersonDarling(y, fit.params)).toBeLessThan(2.5);
    const wrong = { loc: 0.5, scale: 1, shape: 0.1 };
    expect(ksStatistic(y, wrong)).toBeGreaterThan(0.1);
    expect(andersonDarling(y, wrong)).toBeGreaterThan(10);
    expect(gevCdf(gevQuantile(0.3, fit.params), fit.params)).toBeCloseTo(0.3, 14);
  });
});

describe(`GEV kernel statuses on ${selected.name}`, () => {
  it("ξ = −0.8 comes back converged but not regular", () => {
    const fit = fitGev(selected, draw(400, { loc: 10, scale: 1, shape: -0.8 }, "irregular"));
    expect(fit.status).toBe("ok");
    expect(fit.params.shape).toBeLessThan(-0.5);
    expect(fit.regular).toBe(false);
  });

  it("flags equal values and two distinct values as degenerate, fewer than 3 runs as too few, NaN as nonfinite", () => {
    expect(fitGev(selected, new Array(50).fill(3.5)).status).toBe("degenerate");
    expect(fitGev(selected, [1, 2, 1, 2, 2, 1, 1, 2, 1, 2]).status).toBe("degenerate");
    expect(fitGev(selected, [1, 2]).status).toBe("too_few_runs");
    expect(fitGev(selected, [1, 2, NaN, 4, 5]).status).toBe("nonfinite");
  });

  it("an unbounded likelihood (ξ < −1: runs piled at an upper endpoint) is flagged, with no estimates", () => {
    for (const y of [draw(200, { loc: 10, scale: 1, shape: -1.5 }, "unb"), [...new Array(30).fill(5), 1, 2, 3, 4, 4.5]]) {
      const fit = fitGev(selected, y);
      expect(fit.status).toBe("unbounded");
      expect(fit.converged).toBe(false);
      expect(Number.isNaN(fit.params.shape)).toBe(true);
    }
  });

  it("heavy tails (ξ = 2.4, runs spanning 1e4 and more): stationary to 1e-10 SE; a 10-run sample climbing ξ → ∞ is unbounded", () => {
    const heavy = draw(200, { loc: 0, scale: 1, shape: 2.4 }, "heavy");
    expect(Math.max(...heavy)).toBeGreaterThan(1e4);
    const fit = fitGev(selected, heavy);
    expect(fit.status).toBe("ok");
    expect(fit.gradSe).toBeLessThan(1e-10);
    expect(Math.abs(fit.params.shape - 2.4)).toBeLessThan(4 * fit.se[2]);
    // Sorted runs of a small sample whose likelihood grows along the lower endpoint as ξ grows.
    const small = [-0.525, -0.497, -0.398, -0.1, -0.0182, 0.496, 2.57, 2.91, 18, 90.5, 205];
    expect(fitGev(selected, small).status).toBe("unbounded");
  });

  it("a not-converged fit (iteration cap) reports the best iterate and NaN SEs", () => {
    const fit = fitGev(selected, draw(200, { loc: 10, scale: 1, shape: 0.3 }, "cap"), 1);
    expect(fit.status).toBe("not_converged");
    expect(fit.converged).toBe(false);
    expect(Number.isFinite(fit.nllh)).toBe(true);
    expect(Number.isNaN(fit.se[0])).toBe(true);
  });

  it("works in any units: a sample scaled by 1e6 and shifted gives the scaled estimates and the same shape", () => {
    const y = draw(150, { loc: 1, scale: 0.1, shape: 0.2 }, "units");
    const a = fitGev(selected, y),
      b = fitGev(
        selected,
        y.map((v) => 5e8 + 1e6 * v),
      );
    expect(relErr(b.params.loc, 5e8 + 1e6 * a.params.loc)).toBeLessThan(1e-12);
    expect(relErr(b.params.scale, 1e6 * a.params.scale)).toBeLessThan(1e-9);
    expect(Math.abs(b.params.shape - a.params.shape)).toBeLessThan(1e-8);
  });
});
