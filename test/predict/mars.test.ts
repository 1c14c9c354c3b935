// The Mars predictor and its kernels: exact recovery of a hinge, options, errors, serialization, summary,
// and native-vs-wasm parity of the whole fit.
import { describe, expect, it } from "vitest";
import { Mars } from "../../ts/predict/mars.js";
import { predictorFromJSON } from "../../ts/predict/registry.js";
import { earthDefaults, marsFit, marsPredict, type MarsKernelOptions } from "../../ts/backend/kernels/mars.js";
import { nativeBackend, nativeSkipReason, relErr, rng, selected, wasmBackend } from "../helpers/backends.js";
import { isVarmapError } from "../../ts/errors.js";

const defaults = (d: number, over: Partial<MarsKernelOptions> = {}): MarsKernelOptions => ({ ...earthDefaults(d), ...over });

/** n points in [0,1]^d and y = f(x) + noise·N(0,1)-ish. */
function synth(n: number, d: number, seed: number, f: (x: number[]) => number, noise = 0) {
  const r = rng(seed);
  const X = new Float64Array(n * d);
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const x = Array.from({ length: d }, () => r());
    X.set(x, i * d);
    y[i] = f(x) + noise * (r() + r() + r() - 1.5);
  }
  return { X, y };
}

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    return isVarmapError(e) ? e.code : `non-varmap: ${(e as Error).message}`;
  }
  return undefined;
}

describe(`Mars on ${selected.name}`, () => {
  const opts = { backend: selected.name } as const;

  it("recovers a single hinge exactly and stops at RSq ≥ 1 − thresh", () => {
    const xs = Array.from({ length: 101 }, (_, i) => i / 100);
    const y = xs.map((x) => 1 + 2 * Math.max(0, x - 0.3));
    // minspan = endspan = 1 makes every data value a candidate knot (Friedman's spans would skip 0.3)
    const m = new Mars({ ...opts, minspan: 1, endspan: 1, inputs: { kind: "none" } }).fit({ data: Float64Array.from(xs), rows: 101, cols: 1 }, y);
    const q = [0, 0.1, 0.3, 0.31, 0.77, 1];
    const p = m.predict({ data: Float64Array.from(q), rows: q.length, cols: 1 });
    q.forEach((x, i) => expect(p[i]).toBeCloseTo(1 + 2 * Math.max(0, x - 0.3), 9));
    expect(m.stats.termCond).toBe(5);
    expect(m.termLabels(["x"])).toContain("h(x-0.3)");
  });

  it("fits responses near 1e±150 (and up to 1e308) as the same model scaled: no overflow in the squared sums", () => {
    const f = (x: number[]) => 1 + Math.sin(3 * x[0]) + 2 * Math.max(0, x[1] - 0.5);
    const { X, y } = synth(300, 3, 9, f, 0.05);
    const base = new Mars(opts).fit({ data: X, rows: 300, cols: 3 }, y);
    for (const c of [1e150, 1e-150, 1e300]) {
      const m = new Mars(opts).fit(
        { data: X, rows: 300, cols: 3 },
        y.map((v) => v * c),
      );
      expect(m.terms.length).toBe(base.terms.length);
      m.terms.forEach((t, i) => {
        expect(t.cuts).toEqual(base.terms[i].cuts);
        expect(relErr(t.coef / c, base.terms[i].coef)).toBeLessThan(1e-12);
      });
      expect(relErr(m.stats.rsq, base.stats.rsq)).toBeLessThan(1e-12);
    }
    // The kernel itself refuses (never crashes on) squared sums that overflow.
    expect(() =>
      marsFit(
        selected,
        X,
        y.map((v) => v * 1e160),
        3,
        defaults(3),
      ),
    ).toThrow();
  });

  it("fits an additive function well and keeps to degree 1 by default", () => {
    const f = (x: number[]) => Math.sin(3 * x[0]) + 2 * Math.max(0, x[1] - 0.5) + x[2];
    const { X, y } = synth(500, 4, 7, f);
    const m = new Mars(opts).fit({ data: X, rows: 500, cols: 4 }, y);
    expect(m.stats.rsq).toBeGreaterThan(0.99);
    for (const t of m.terms) expect(t.dirs.filter((v) => v !== 0).length).toBeLessThanOrEqual(1);
    const q = synth(50, 4, 8, f);
    const p = m.predict({ data: q.X, rows: 50, cols: 4 });
    let err = 0;
    for (let i = 0; i < 50; i++) err = Math.max(err, Math.abs(p[i] - q.y[i]));
    expect(err).toBeLessThan(0.1);
  });

  it("degree 2 finds an interaction; nk and autoLinpreds are honoured", () => {
    const f = (x: number[]) => 4 * Math.max(0, x[0] - 0.4) * Math.max(0, x[1] - 0.2) + x[2];
    const { X, y } = synth(400, 3, 11, f, 0.01);
    const Xm = { data: X, rows: 400, cols: 3 };
    const m2 = new Mars({ ...opts, degree: 2 }).fit(Xm, y);
    expect(m2.terms.some((t) => t.dirs.filter((v) => v !== 0).length === 2)).toBe(true);
    const small = new Mars({ ...opts, nk: 5 }).fit(Xm, y);
    expect(small.terms.length).toBeLessThanOrEqual(5);
    const noLin = new Mars({ ...opts, autoLinpreds: false }).fit(Xm, y);
    for (const t of noLin.terms) expect(t.dirs).not.toContain(2);
    const all = new Mars({ ...opts, degree: 2, fastK: 0, minspan: 5, endspan: 10 }).fit(Xm, y);
    expect(all.stats.rsq).toBeGreaterThan(0.95);
  });

  it("round-trips through JSON with identical predictions", () => {
    const { X, y } = synth(200, 3, 3, (x) => x[0] * x[1] + Math.abs(x[2] - 0.5), 0.05);
    const m = new Mars({ ...opts, degree: 2, inputs: { log2: [1] } }).fit({ data: X.map((v) => v + 1), rows: 200, cols: 3 }, y);
    const json = JSON.parse(JSON.stringify(m.toJSON()));
    const back = predictorFromJSON(json, { backend: selected.name });
    const q = synth(30, 3, 4, () => 0).X.map((v) => v + 1);
    expect(Array.from(back.predict({ data: q, rows: 30, cols: 3 }))).toEqual(Array.from(m.predict({ data: q, rows: 30, cols: 3 })));
  });

  it("summary() reports terms, coefficients, GCV, RSS, R² and the termination condition", () => {
    const { X, y } = synth(150, 2, 5, (x) => 3 * Math.max(0, 0.6 - x[0]) + x[1], 0.02);
    const m = new Mars(opts).fit({ data: X, rows: 150, cols: 2 }, y);
    const s = m.summary(["a", "b"]);
    expect(s).toContain("(Intercept)");
    expect(s).toMatch(/h\(0\.\d+-a\)|h\(a-0\.\d+\)/);
    expect(s).toMatch(/GCV \S+ +RSS \S+ +GRSq \S+ +RSq \S+/);
    expect(s).toMatch(/Termination condition: /);
    expect(s).toMatch(/Selected \d+ of \d+ terms, and \d of 2 predictors/);
  });

  it("rejects bad input and options with coded errors", () => {
    expect(codeOf(() => new Mars(opts).fit({ data: Float64Array.from([0]), rows: 1, cols: 1 }, [1]))).toBe("E_TOO_FEW_POINTS");
    expect(codeOf(() => new Mars(opts).fit({ data: Float64Array.from([0, NaN, 1]), rows: 3, cols: 1 }, [1, 2, 3]))).toBe("E_NONFINITE");
    expect(codeOf(() => new Mars({ ...opts, degree: 0 }))).toBe("E_OPTION");
    expect(codeOf(() => new Mars({ ...opts, nk: 2.5 }))).toBe("E_OPTION");
    expect(codeOf(() => new Mars(opts).predict({ data: Float64Array.from([0]), rows: 1, cols: 1 }))).toBe("E_NOT_FITTED");
    expect(codeOf(() => new Mars(opts).summary())).toBe("E_NOT_FITTED");
  });

  it("handles a constant response and constant inputs without failing", () => {
    const { X } = synth(50, 2, 9, () => 0);
    const m = new Mars(opts).fit({ data: X, rows: 50, cols: 2 }, new Array(50).fill(4.5));
    const p = m.predict({ data: X.subarray(0, 4), rows: 2, cols: 2 });
    expect(p[0]).toBeCloseTo(4.5, 12);
    const c = new Mars(opts).fit(
      { data: new Float64Array(100).fill(1), rows: 50, cols: 2 },
      Array.from({ length: 50 }, (_, i) => i),
    );
    expect(c.terms.length).toBe(1); // intercept only
  });

  it("kernel statuses: bad sizes and non-finite values", () => {
    const o = defaults(1);
    expect(codeOf(() => marsFit(selected, Float64Array.from([0]), Float64Array.from([1]), 1, o))).toBe("E_KERNEL_ARGUMENT");
    expect(codeOf(() => marsFit(selected, Float64Array.from([0, 1, 2]), Float64Array.from([1, Infinity, 2]), 1, o))).toBe("E_NONFINITE");
    expect(codeOf(() => marsPredict(selected, Int32Array.from([5]), Float64Array.from([0]), Float64Array.from([1]), 1, Float64Array.from([0.5])))).toBe(
      "E_KERNEL_ARGUMENT",
    );
  });
});

describe.skipIf(!nativeBackend)("MARS native vs wasm parity", () => {
  if (!nativeBackend) it.skip(nativeSkipReason, () => {});
  const cases: [string, number, number, Partial<MarsKernelOptions>][] = [
    ["degree 1, n=300 d=5", 300, 5, {}],
    ["degree 2, n=400 d=4", 400, 4, { degree: 2, penalty: 3 }],
    ["degree 3, nk 41, fastK 0, minspan -3", 250, 6, { degree: 3, penalty: 3, nk: 41, fastK: 0, minspan: -3 }],
    ["degree 2, no Scale.y, newvar penalty", 300, 3, { degree: 2, penalty: 3, scaleY: false, newvarPenalty: 0.1 }],
  ];
  for (const [name, n, d, over] of cases)
    it(`${name}: identical models (1e-12)`, () => {
      const { X, y } = synth(n, d, n + d, (x) => Math.sin(4 * x[0]) * (1 + x[1]) + Math.max(0, x[d - 1] - 0.3) * 5, 0.1);
      for (let i = 0; i < n; i += 7) X[i * d] = Math.round(X[i * d] * 10) / 10; // ties in x
      const o = defaults(d, over);
      const a = marsFit(nativeBackend!, X, y, d, o);
      const b = marsFit(wasmBackend, X, y, d, o);
      expect(Array.from(b.dirs)).toEqual(Array.from(a.dirs));
      expect(Array.from(b.cuts)).toEqual(Array.from(a.cuts));
      expect(Array.from(b.termFlags)).toEqual(Array.from(a.termFlags));
      a.coef.forEach((c, i) => expect(relErr(b.coef[i], c)).toBeLessThanOrEqual(1e-12));
      a.rssPerSubset.forEach((r, i) => expect(relErr(b.rssPerSubset[i], r)).toBeLessThanOrEqual(1e-12));
      for (const k of ["rss", "gcv", "rsq", "grsq", "tss", "forwardRsq"] as const) expect(relErr(b[k], a[k])).toBeLessThanOrEqual(1e-12);
      expect([b.nTerms, b.termCond, b.nFullSet, b.nSelected]).toEqual([a.nTerms, a.termCond, a.nFullSet, a.nSelected]);
      const sel = Array.from(a.termFlags)
        .map((f, t) => (f & 2 ? t : -1))
        .filter((t) => t >= 0);
      const dirs = Int32Array.from(sel.flatMap((t) => Array.from(a.dirs.subarray(t * d, t * d + d))));
      const cuts = Float64Array.from(sel.flatMap((t) => Array.from(a.cuts.subarray(t * d, t * d + d))));
      const coef = Float64Array.from(sel.map((t) => a.coef[t]));
      const pa = marsPredict(nativeBackend!, dirs, cuts, coef, d, X);
      const pb = marsPredict(wasmBackend, dirs, cuts, coef, d, X);
      pa.forEach((v, i) => expect(relErr(pb[i], v)).toBeLessThanOrEqual(1e-12));
    });
});
