// The rbf predictor: conformance, GCV smoothing, stability on near-duplicate inputs, its options and refusals.
import { describe, expect, it } from "vitest";
import { Rbf, RBF_MAX_POINTS } from "../../ts/predict/rbf.js";
import { matrix } from "../../ts/predict/matrix.js";
import { methodOptionsFromCli } from "../../ts/cli/method-options.js";
import { createPredictor } from "../../ts/predict/registry.js";
import { rng } from "../helpers/backends.js";
import { expectCode, runConformance } from "./conformance.js";

runConformance({ name: "rbf", create: (o) => new Rbf(o), interpolates: false, minPoints: (d) => d + 2 });
runConformance({
  name: "rbf cubic, fixed smoothing",
  create: (o) => new Rbf(o),
  interpolates: false,
  minPoints: (d) => d + 2,
  dims: [2, 3],
  options: { kernel: "cubic", smoothing: 0.001 },
});
runConformance({ name: "rbf anisotropic", create: (o) => new Rbf(o), interpolates: false, minPoints: (d) => d + 2, dims: [2], options: { anisotropic: true } });
// λ = 0 on distinct scattered points is the exact interpolating spline.
runConformance({
  name: "rbf interpolating",
  create: (o) => new Rbf(o),
  interpolates: true,
  tolerance: 1e-8,
  minPoints: (d) => d + 2,
  dims: [1, 2, 4],
  options: { smoothing: 0 },
});

function scattered(n: number, d: number, seed: number, f: (x: Float64Array) => number, noise = 0) {
  const r = rng(seed);
  const X = Float64Array.from({ length: n * d }, () => r());
  const y = Float64Array.from({ length: n }, (_, i) => f(X.subarray(i * d, i * d + d)) + noise * (r() - 0.5));
  return { X: matrix(X, n, d), y };
}

describe("rbf", () => {
  const f = (x: Float64Array) => Math.sin(3 * x[0]) + x[1] * x[1];

  it("reproduces a linear function exactly (the tail) whatever λ", () => {
    const { X, y } = scattered(30, 3, 1, (x) => 1 + 2 * x[0] - x[1] + 0.5 * x[2]);
    for (const smoothing of ["gcv", 0.5] as const) {
      const p = new Rbf({ smoothing }).fit(X, y).predict(matrix(Float64Array.from([0.2, 0.7, 0.9, 2, -1, 3]), 2, 3));
      expect(p[0]).toBeCloseTo(1 + 0.4 - 0.7 + 0.45, 9);
      expect(p[1]).toBeCloseTo(1 + 4 + 1 + 1.5, 8);
    }
  });

  it("GCV smooths noisy data: closer to the truth than interpolating it", () => {
    const { X, y } = scattered(200, 2, 2, f, 0.4);
    const q = scattered(400, 2, 3, f);
    const err = (m: Rbf) => {
      const p = m.fit(X, y).predict(q.X);
      return Math.sqrt(p.reduce((s, v, i) => s + (v - q.y[i]) ** 2, 0) / p.length);
    };
    const gcv = new Rbf();
    const e = err(gcv);
    expect(e).toBeLessThan(0.5 * err(new Rbf({ smoothing: 0 })));
    expect(e).toBeLessThan(0.1);
    expect(gcv.smoothing.lambda).toBeGreaterThan(1e-6);
  });

  it("stays finite and sane on near-duplicate and duplicate inputs (two frequencies 0.04 % apart)", () => {
    const { X, y } = scattered(40, 2, 4, f);
    const data = Float64Array.from(X.data);
    data[2] = data[0] * 1.0004; // point 1 next to point 0, different response
    data[3] = data[1];
    data[4] = data[0]; // point 2 on point 0 exactly
    data[5] = data[1];
    const yy = Float64Array.from(y);
    yy[1] = y[0] + 0.3;
    yy[2] = y[0] - 0.3;
    const Xd = matrix(data, 40, 2);
    for (const smoothing of ["gcv", 0] as const) {
      const m = new Rbf({ smoothing }).fit(Xd, yy);
      const p = m.predict(scattered(50, 2, 5, f).X);
      for (const v of p) expect(Math.abs(v)).toBeLessThan(10);
      if (smoothing === 0) expect(m.smoothing.notes.join(" ")).toMatch(/smoothing raised from 0 .* ill-conditioned/);
    }
  });

  it("drops a constant input's linear term and says so", () => {
    const { X, y } = scattered(30, 2, 6, f);
    const data = Float64Array.from(X.data);
    for (let i = 0; i < 30; i++) data[2 * i + 1] = 0.5;
    const m = new Rbf().fit(matrix(data, 30, 2), y);
    expect(m.smoothing.notes).toEqual([expect.stringMatching(/input 1 is constant/)]);
    for (const v of m.predict(X)) expect(Number.isFinite(v)).toBe(true);
  });

  it("anisotropic: per-input scales chosen by GCV, never a worse GCV score than the isotropic fit", () => {
    // y varies 8 times faster along x0 than along x1.
    const { X, y } = scattered(80, 2, 8, (x) => Math.sin(6 * x[0]) + Math.sin(0.75 * x[1]), 0.05);
    const iso = new Rbf().fit(X, y).smoothing;
    const an = new Rbf({ anisotropic: true }).fit(X, y).smoothing;
    expect(iso.scales).toEqual([1, 1]);
    expect(an.gcv).toBeLessThanOrEqual(iso.gcv);
    expect(an.scales[0]).toBeGreaterThanOrEqual(an.scales[1]);
    expectCode(() => new Rbf({ anisotropic: "yes" as never }), "E_OPTION");
  });

  it("runs: R fixes λ at the sampling variance of a log sd, 1/(2(R − 1))", () => {
    const { X, y } = scattered(30, 2, 7, (x) => Math.exp(f(x)));
    const m = new Rbf({ runs: 40, response: "log" }).fit(X, y);
    expect(m.smoothing.lambda).toBe(1 / 78);
    expect(m.toJSON().options).toEqual({ runs: 40 });
  });

  it("refuses bad options and too many points with coded errors", () => {
    expectCode(() => new Rbf({ kernel: "gauss" as never }), "E_OPTION");
    expectCode(() => new Rbf({ smoothing: -1 }), "E_OPTION");
    expectCode(() => new Rbf({ runs: 40 }), "E_OPTION"); // needs a log response
    expectCode(() => new Rbf({ runs: 40, smoothing: 1, response: "log" }), "E_OPTION");
    const n = RBF_MAX_POINTS + 1;
    // Above RBF_MAX_POINTS the local variant applies by default (test/predict/rbf-local.test.ts); refused when turned off.
    expectCode(
      () =>
        new Rbf({ local: false }).fit(
          matrix(
            Float64Array.from({ length: n }, (_, i) => i),
            n,
            1,
          ),
          new Float64Array(n),
        ),
      "E_TOO_MANY_POINTS",
    );
  });

  it("is registered and takes its CLI flags", () => {
    expect(createPredictor("rbf")).toBeInstanceOf(Rbf);
    expect(methodOptionsFromCli({ rbfKernel: "cubic", rbfSmoothing: "gcv", rbfAnisotropic: "yes" }, "rbf")).toEqual({
      kernel: "cubic",
      smoothing: "gcv",
      anisotropic: true,
    });
    expect(methodOptionsFromCli({ rbfSmoothing: "0.01", rbfRuns: undefined }, "rbf")).toEqual({ smoothing: 0.01 });
    expectCode(() => methodOptionsFromCli({ rbfKernel: "gauss" }, "rbf"), "E_USAGE");
    expectCode(() => methodOptionsFromCli({ rbfRuns: "40" }, "lsp"), "E_USAGE");
  });
});
