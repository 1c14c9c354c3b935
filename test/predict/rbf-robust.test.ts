// Issue 14 on rbf: the JSON round trip is bit-exact even when responses near 1e300 make the unscaled spline
// coefficients overflow, and nearly coincident training points (the kernel ~0 on them) give no blow-up between them.
import { describe, expect, it } from "vitest";
import { predictCase } from "../fixtures/fuzz-cases.js";
import { matrix } from "../../ts/predict/matrix.js";
import { Rbf } from "../../ts/predict/rbf.js";
import { predictorFromJSON } from "../../ts/predict/registry.js";
import { nativeBackend, wasmBackend } from "../helpers/backends.js";

const backends = nativeBackend ? [nativeBackend, wasmBackend] : [wasmBackend];

describe("rbf robustness", () => {
  for (const backend of backends) {
    it(`${backend.name}: responses near 1e300 round-trip through JSON bit for bit (fuzz seed 7, case 2448)`, () => {
      const c = predictCase(7, 2448);
      const m = new Rbf({ backend: backend.name, response: c.response }).fit(matrix(c.X, c.n, c.d), c.y);
      const Q = matrix(c.Q, c.nq, c.d);
      const p = Array.from(m.predict(Q));
      expect(p.every(Number.isFinite)).toBe(true);
      const json = JSON.parse(JSON.stringify(m.toJSON()));
      expect(Math.log2(json.state.yScale)).toBe(Math.round(Math.log2(json.state.yScale))); // a power of two
      expect(json.state.yScale).toBeLessThan(1e-290);
      expect(Array.from(predictorFromJSON(json, { backend: backend.name }).predict(Q))).toEqual(p);
    });

    it(`${backend.name}: nearly coincident points (fuzz seed 7, cases 846 and 1815) predict within the data's scale`, () => {
      for (const index of [846, 1815]) {
        const c = predictCase(7, index);
        const p = new Rbf({ backend: backend.name }).fit(matrix(c.X, c.n, c.d), c.y).predict(matrix(c.Q, c.nq, c.d));
        const lo = Math.min(...c.y),
          hi = Math.max(...c.y);
        // Before: -3.5e13 (data in [-0.34, -0.03]) and -1.6e10 (data in [1500, 2500]).
        for (const v of p) {
          expect(v).toBeGreaterThanOrEqual(lo - (hi - lo));
          expect(v).toBeLessThanOrEqual(hi + (hi - lo));
        }
      }
    });
  }

  it("a model file with a non-finite coefficient is refused with a code", () => {
    const m = new Rbf().fit(
      matrix(
        Float64Array.from({ length: 20 }, (_, i) => (i * 7) % 10),
        10,
        2,
      ),
      Float64Array.from({ length: 10 }, (_, i) => i),
    );
    const json = JSON.parse(JSON.stringify(m.toJSON()));
    json.state.c[0] = null;
    expect(() => predictorFromJSON(json)).toThrow(expect.objectContaining({ code: "E_MODEL_FORMAT" }));
  });
});
