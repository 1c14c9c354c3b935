// The heteroscedastic gp (issue 16): with each training point's known sampling variance (fit's yVar), the noise of
// point i is σ² (g + τ v_i). Checks: the fit without variances, with noise "none", or with unknown (NaN) variances is
// the homoscedastic fit bit for bit; with a 100× spread of known noise, weighting by it predicts better than one
// nugget; τ σ² recovers the noise scale; the model round-trips through JSON.
import { describe, expect, it } from "vitest";
import { Gp } from "../../ts/predict/gp.js";
import { matrix } from "../../ts/predict/matrix.js";
import { counterRng } from "../../ts/data/random.js";
import { predictorFromJSON } from "../../ts/predict/registry.js";
import { expectCode } from "./conformance.js";

/** A smooth function sampled with noise whose variance differs 100× between points (known per point). */
function sample(n: number, seed: number) {
  const r = counterRng(seed, "gp-noise-test", n);
  const X = Float64Array.from({ length: 2 * n }, () => r.next());
  const f = (a: number, b: number) => Math.sin(3 * a) + 0.5 * b * b;
  const truth = Float64Array.from({ length: n }, (_, i) => f(X[2 * i], X[2 * i + 1]));
  const v = Float64Array.from({ length: n }, () => 0.001 * 100 ** r.next());
  const y = Float64Array.from(truth, (t, i) => t + Math.sqrt(v[i]) * r.normal());
  return { X: matrix(X, n, 2), y, v, truth };
}

function rmse(pred: Float64Array, truth: Float64Array): number {
  let se = 0;
  for (let i = 0; i < pred.length; i++) se += (pred[i] - truth[i]) ** 2;
  return Math.sqrt(se / pred.length);
}

describe("gp with measured per-point noise", () => {
  it("without known variances (absent, noise none, or any NaN) the fit is the homoscedastic one, bit for bit", () => {
    const s = sample(60, 1);
    const q = sample(50, 2).X;
    const base = new Gp().fit(s.X, s.y).predict(q);
    expect(Array.from(new Gp({ noise: "none" }).fit(s.X, s.y, s.v).predict(q))).toEqual(Array.from(base));
    const partly = Float64Array.from(s.v);
    partly[3] = NaN;
    expect(Array.from(new Gp().fit(s.X, s.y, partly).predict(q))).toEqual(Array.from(base));
    expect(new Gp().fit(s.X, s.y).toJSON().state).not.toHaveProperty("noise");
  });

  it("weights points by their known noise: better predictions than one nugget, and τσ² recovers the noise scale", () => {
    let hetero = 0,
      homo = 0;
    for (let rep = 0; rep < 4; rep++) {
      const s = sample(120, 10 + rep),
        t = sample(300, 20 + rep);
      const gp = new Gp({ inputs: { kind: "none" } }).fit(s.X, s.y, s.v);
      hetero += rmse(gp.predict(t.X), t.truth);
      homo += rmse(new Gp({ inputs: { kind: "none" } }).fit(s.X, s.y).predict(t.X), t.truth);
      // Noise of point i: σ² (g + τ ṽ_i), ṽ = v / mean(v): σ² τ estimates mean(v) (within a factor 3).
      const h = gp.hyperparametersFitted;
      const meanV = s.v.reduce((a, b) => a + b, 0) / s.v.length;
      expect(h.noiseScale).toBeDefined();
      expect(h.sigma2 * h.noiseScale!).toBeGreaterThan(meanV / 3);
      expect(h.sigma2 * h.noiseScale!).toBeLessThan(meanV * 3);
    }
    expect(hetero).toBeLessThan(0.9 * homo);
  });

  it("round-trips through JSON with its variances, and solvedOn other rows falls back to the nugget alone", () => {
    const s = sample(50, 3);
    const q = sample(20, 4).X;
    const gp = new Gp({ response: "log" }).fit(
      s.X,
      Float64Array.from(s.y, (y) => Math.exp(y)),
      Float64Array.from(s.v, (v, i) => v * Math.exp(2 * s.y[i])),
    );
    const json = gp.toJSON();
    expect(json.state.noise).toHaveLength(50);
    expect(json.state.theta).toHaveLength(4);
    const back = predictorFromJSON(JSON.parse(JSON.stringify(json)));
    expect(Array.from(back.predict(q))).toEqual(Array.from(gp.predict(q)));
    const solved = gp.solvedOn(
      s.X,
      Float64Array.from(s.y, (y) => Math.exp(y)),
    );
    expect(solved.toJSON().state).not.toHaveProperty("noise");
    expect(solved.predict(q).every(Number.isFinite)).toBe(true);
  });

  it("solvedOn with the rows' variances keeps the measured noise: on the training rows it is the fitted model again", () => {
    const s = sample(50, 5);
    const q = sample(20, 6).X;
    const y = Float64Array.from(s.y, (v) => Math.exp(v));
    const yVar = Float64Array.from(s.v, (v, i) => v * y[i] * y[i]);
    const gp = new Gp({ response: "log" }).fit(s.X, y, yVar);
    const again = gp.solvedOn(s.X, y, yVar);
    expect(again.toJSON().state.noise).toEqual(gp.toJSON().state.noise);
    const a = again.predict(q),
      b = gp.predict(q);
    for (let i = 0; i < q.rows; i++) expect(Math.abs(a[i] - b[i])).toBeLessThanOrEqual(1e-9 * Math.abs(b[i]));
    // Without the variances the same rows give the one-nugget solve: other predictions.
    const nugget = gp.solvedOn(s.X, y).predict(q);
    expect(Math.max(...Array.from(nugget, (v, i) => Math.abs(v - b[i]) / b[i]))).toBeGreaterThan(1e-6);
  });

  it("rejects a bad noise option with E_OPTION", () => {
    expectCode(() => new Gp({ noise: "bogus" as "none" }), "E_OPTION");
  });
});
