// The conformance suite every predictor passes (DESIGN.md, "Estimator API"). A predictor's test file calls
//
//   runConformance({ name: "lsp", create: (o) => new LinearShepard(o), interpolates: true, minPoints: (d) => d + 2 });
//
// which registers one `describe` block of tests on the backend VARMAP_BACKEND selects:
//   - shapes: fit() returns the model itself; predict() gives one finite value per query row, an empty result
//     for zero rows, and the same answer when fitted twice (determinism);
//   - interpolation: when `interpolates`, predictions at the training points equal the responses (relative
//     `tolerance`, default 1e-12), for both response scales;
//   - serialization: toJSON → JSON.stringify → JSON.parse → predictorFromJSON predicts identically (bit for bit)
//     and serializes to the same string; options (input log2 columns, log response) are recorded;
//   - refusals with coded VarmapErrors: NaN/Inf in inputs, responses or queries (E_NONFINITE), fewer than
//     minPoints(d) training points (E_TOO_FEW_POINTS), a response count or query width that does not match
//     (E_SHAPE), predicting before fitting (E_NOT_FITTED).
//
// Keep this API stable: other predictors' tests import it. Add options rather than changing meanings.
import { describe, expect, it } from "vitest";
import { VarmapError } from "../../ts/errors.js";
import type { Predictor, PredictorOptions } from "../../ts/predict/estimator.js";
import { matrix, type Matrix } from "../../ts/predict/matrix.js";
import { predictorFromJSON } from "../../ts/predict/registry.js";
import { rng } from "../helpers/backends.js";

export interface ConformanceData {
  X: Matrix;
  y: Float64Array;
}

export interface ConformanceOptions {
  /** Label of the describe block (usually the method name). */
  name: string;
  /** Creates an unfitted predictor with the given options (base options such as inputs/response included). */
  create: (options?: PredictorOptions & Record<string, unknown>) => Predictor;
  /** True when predictions at the training points must equal the training responses. */
  interpolates: boolean;
  /** Smallest number of training points the predictor accepts in d dimensions. */
  minPoints: (d: number) => number;
  /** Input dimensions to exercise (default [1, 2, 4]). */
  dims?: number[];
  /** Training points per problem (default max(40, 3 · minPoints(d))). */
  points?: (d: number) => number;
  /** Relative tolerance of the interpolation test (default 1e-12). */
  tolerance?: number;
  /** Training data generator (default: uniform in [0, 2]^d, y = 1 + Σ sin(1.5 x_j) + x_0 / 4, all positive). */
  data?: (d: number, n: number, seed: number) => ConformanceData;
  /** Extra options passed to every create() call (the method's hyperparameters). */
  options?: Record<string, unknown>;
}

/** Default training data: scattered points (no duplicates), a smooth positive response. */
export function conformanceData(d: number, n: number, seed: number): ConformanceData {
  const r = rng(seed);
  const X = Float64Array.from({ length: n * d }, () => 2 * r());
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = 1 + X[i * d] / 4;
    for (let j = 0; j < d; j++) s += Math.sin(1.5 * X[i * d + j]);
    y[i] = s;
  }
  return { X: matrix(X, n, d), y };
}

/** Expects fn to throw a VarmapError with the given code. */
export function expectCode(fn: () => unknown, code: string): void {
  let caught: unknown;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  expect(caught, `expected a VarmapError ${code}`).toBeInstanceOf(VarmapError);
  expect((caught as VarmapError).code).toBe(code);
}

function withValue(m: Matrix, index: number, v: number): Matrix {
  const data = Float64Array.from(m.data);
  data[index] = v;
  return matrix(data, m.rows, m.cols);
}

export function runConformance(opts: ConformanceOptions): void {
  const dims = opts.dims ?? [1, 2, 4];
  const tol = opts.tolerance ?? 1e-12;
  const pointsFor = opts.points ?? ((d: number) => Math.max(40, 3 * opts.minPoints(d)));
  const gen = opts.data ?? conformanceData;
  const make = (o: PredictorOptions = {}) => opts.create({ ...(opts.options ?? {}), ...o });

  describe(`${opts.name} conformance`, () => {
    for (const d of dims) {
      const n = pointsFor(d);
      const train = gen(d, n, 1000 + d);
      const queries = gen(d, 25, 2000 + d).X;

      describe(`d = ${d}, n = ${n}`, () => {
        it("fit returns the model; predict gives one finite value per query; zero queries give zero values", () => {
          const model = make();
          expect(model.fit(train.X, train.y)).toBe(model);
          expect(model.fitted).toBe(true);
          const p = model.predict(queries);
          expect(p).toBeInstanceOf(Float64Array);
          expect(p.length).toBe(queries.rows);
          for (const v of p) expect(Number.isFinite(v)).toBe(true);
          expect(model.predict(matrix(new Float64Array(0), 0, d)).length).toBe(0);
        });

        it("is deterministic: two fits predict identically", () => {
          const a = make().fit(train.X, train.y).predict(queries);
          const b = make().fit(train.X, train.y).predict(queries);
          expect(Array.from(b)).toEqual(Array.from(a));
        });

        if (opts.interpolates)
          for (const response of ["linear", "log"] as const)
            it(`interpolates the training points exactly (response ${response})`, () => {
              const p = make({ response }).fit(train.X, train.y).predict(train.X);
              for (let i = 0; i < n; i++) expect(Math.abs(p[i] - train.y[i])).toBeLessThanOrEqual(tol * Math.abs(train.y[i]));
            });

        it("round-trips through JSON exactly (toJSON → stringify → parse → predictorFromJSON)", () => {
          const options: PredictorOptions = d > 1 ? { inputs: { log2: [1] }, response: "log" } : { response: "log" };
          const shifted = d > 1 ? { ...train.X, data: train.X.data.map((v, i) => (i % d === 1 ? v + 1 : v)) } : train.X;
          const q = d > 1 ? { ...queries, data: queries.data.map((v, i) => (i % d === 1 ? v + 1 : v)) } : queries;
          for (const o of [{}, options]) {
            const X = o === options ? shifted : train.X;
            const Q = o === options ? q : queries;
            const model = make(o).fit(X, train.y);
            const text = JSON.stringify(model.toJSON());
            const json = JSON.parse(text);
            expect(json.format).toBe("varmap-model");
            expect(json.method).toBe(model.method);
            expect(json.dim).toBe(d);
            expect(json.response).toBe(o.response ?? "linear");
            if (o === options && d > 1) expect(json.inputs.log2).toEqual([1]);
            const restored = predictorFromJSON(json);
            expect(restored.method).toBe(model.method);
            expect(Array.from(restored.predict(Q))).toEqual(Array.from(model.predict(Q)));
            expect(JSON.stringify(restored.toJSON())).toBe(text);
          }
        });

        it("refuses NaN and infinity in inputs, responses and queries with E_NONFINITE", () => {
          expectCode(() => make().fit(withValue(train.X, 0, NaN), train.y), "E_NONFINITE");
          expectCode(() => make().fit(withValue(train.X, d, Infinity), train.y), "E_NONFINITE");
          const y = Float64Array.from(train.y);
          y[1] = NaN;
          expectCode(() => make().fit(train.X, y), "E_NONFINITE");
          y[1] = -Infinity;
          expectCode(() => make().fit(train.X, y), "E_NONFINITE");
          const model = make().fit(train.X, train.y);
          expectCode(() => model.predict(withValue(queries, 0, NaN)), "E_NONFINITE");
          expectCode(() => model.predict(withValue(queries, 0, Infinity)), "E_NONFINITE");
        });

        it("refuses too few points with E_TOO_FEW_POINTS", () => {
          const k = opts.minPoints(d) - 1;
          const few = matrix(train.X.data.slice(0, k * d), k, d);
          expectCode(() => make().fit(few, train.y.slice(0, k)), "E_TOO_FEW_POINTS");
          const enough = opts.minPoints(d);
          const ok = gen(d, enough, 3000 + d);
          expect(() => make().fit(ok.X, ok.y)).not.toThrow();
        });

        it("refuses mismatched dimensions with E_SHAPE and unfitted use with E_NOT_FITTED", () => {
          expectCode(() => make().fit(train.X, train.y.slice(1)), "E_SHAPE");
          const model = make().fit(train.X, train.y);
          expectCode(() => model.predict(matrix(new Float64Array(3 * (d + 1)), 3, d + 1)), "E_SHAPE");
          expectCode(() => make().predict(queries), "E_NOT_FITTED");
          expectCode(() => make().toJSON(), "E_NOT_FITTED");
        });
      });
    }
  });
}
