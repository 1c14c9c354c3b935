import { describe, expect, it } from "vitest";
import { LSP_EVAL, LSP_FIT, lspEval, lspFit, LspStatus } from "../../ts/backend/kernels/lsp.js";
import { Status } from "../../ts/backend/status.js";
import { nativeBackend, nativeSkipReason, rng, selected, wasmBackend, relErr } from "../helpers/backends.js";
import { referenceLsp } from "../predict/lsp-reference.js";

// Points in [0,1]^d, scattered or on a coarse grid (distance ties everywhere), without duplicates; queries
// inside, at nodes and outside the data (the Shepard fallback).
function pointSet(seed: number, n: number, d: number, grid: boolean) {
  const r = rng(seed);
  const seen = new Set<string>(),
    rows: number[][] = [];
  while (rows.length < n) {
    const x = Array.from({ length: d }, () => (grid ? Math.floor(r() * 4) / 3 : r()));
    const key = x.join(",");
    if (!seen.has(key)) seen.add(key), rows.push(x);
  }
  const X = Float64Array.from(rows.flat());
  const f = Float64Array.from(rows, (x) => x.reduce((s, v) => s + Math.sin(3 * v), 0) + 0.1 * r());
  const Q = Float64Array.from({ length: 300 * d }, (_, i) => (Math.floor(i / d) % 10 === 9 ? 1.6 + r() : r() * 1.2 - 0.1));
  for (let q = 0; q < 300; q += 7) Q.set(X.subarray(q * d, q * d + d), q * d); // some queries at nodes
  return { X, f, Q };
}

describe(`lsp kernels on ${selected.name}`, () => {
  it("fit: LSHEP's radius and exact gradients on a small linear case", () => {
    // f = 1 + 2x - y on 6 points of the plane: NP = 3, every local fit exact.
    const X = Float64Array.from([0, 0, 1, 0, 0, 1, 1, 1, 2, 0, 0, 2]);
    const f = Float64Array.from([0, 1, 2, 3, 4, 5].map((i) => 1 + 2 * X[2 * i] - X[2 * i + 1]));
    const r = lspFit(selected, X, f, 2);
    for (let k = 0; k < 6; k++) {
      expect(r.A[2 * k]).toBeCloseTo(2, 12);
      expect(r.A[2 * k + 1]).toBeCloseTo(-1, 12);
      expect(r.rank[k]).toBe(2);
    }
    // node 0's three nearest others: (1,0), (0,1) at 1, then (1,1) at sqrt 2
    expect(r.rw[0]).toBe(Math.SQRT2);
    const ev = lspEval(selected, { X, f, A: r.A, rw: r.rw, m: 2 }, Float64Array.from([0.5, 0.5, 0, 0]));
    expect(ev.values[0]).toBeCloseTo(1.5, 12);
    expect(ev.values[1]).toBe(f[0]); // at a node: f_k exactly
  });

  it("returns status codes for bad input, never crashes", () => {
    const X = Float64Array.from([0, 0, 1, 0, 0, 1, 1, 1]);
    const f = Float64Array.from([1, 2, 3, 4]);
    const out = () => [new Float64Array(8), new Float64Array(4), new Int32Array(4)];
    expect(selected.run(LSP_FIT, [X, f, 4, 2, ...out()])).toBe(Status.OK);
    expect(selected.run(LSP_FIT, [X.subarray(0, 6), f.subarray(0, 3), 3, 2, ...out()])).toBe(LspStatus.TOO_FEW_POINTS);
    expect(selected.run(LSP_FIT, [Float64Array.from([0, 0, 1, 0, 0, 1, NaN, 1]), f, 4, 2, ...out()])).toBe(Status.NONFINITE);
    expect(selected.run(LSP_FIT, [Float64Array.from([0, 0, 1, 0, 0, 1, 0, 1]), f, 4, 2, ...out()])).toBe(LspStatus.DUPLICATE_POINTS);
    expect(selected.run(LSP_FIT, [X, f, 4, 0, ...out()])).toBe(Status.BAD_ARGUMENT);
    const r = lspFit(selected, X, f, 2);
    const bad = Float64Array.from(r.rw);
    bad[1] = 0;
    expect(selected.run(LSP_EVAL, [X, f, r.A, bad, 4, 2, Float64Array.from([0.5, 0.5]), 1, new Float64Array(1), new Int32Array(1)])).toBe(LspStatus.BAD_RADIUS);
    expect(selected.run(LSP_EVAL, [X, f, r.A, r.rw, 4, 2, Float64Array.from([0.5, Infinity]), 1, new Float64Array(1), new Int32Array(1)])).toBe(
      Status.NONFINITE,
    );
  });
});

describe(`lsp kernels' search paths on ${selected.name}`, () => {
  // Above 1,024 nodes the evaluation searches a k-d tree while it prunes and scans all nodes four queries at a
  // time where it does not (high dimension); the fit's neighbour search likewise. Every path must give exactly
  // LSHEP's neighbours (ties by lower index) and LSHEPVAL's nodes: compared with a brute-force transcription.
  for (const [n, d, grid, seed] of [
    [1400, 3, false, 21], // tree for fit and evaluation
    [1300, 10, false, 22], // scans after the probe
    [1100, 7, true, 23], // grid: ties decided by index in the scans
  ] as const)
    it(`n=${n} d=${d} ${grid ? "grid" : "scattered"}: radii, ranks, values and codes as the brute-force LSHEP/LSHEPVAL`, () => {
      const { X, f, Q } = pointSet(seed, n, d, grid);
      const fit = lspFit(selected, X, f, d);
      const ev = lspEval(selected, { X, f, A: fit.A, rw: fit.rw, m: d }, Q);
      const ref = referenceLsp(X, f, d, Q);
      expect(Array.from(fit.rw)).toEqual(Array.from(ref.rw));
      expect(Array.from(ev.ierr)).toEqual(Array.from(ref.ierr));
      for (let i = 0; i < ev.values.length; i++) expect(relErr(ev.values[i], ref.values[i])).toBeLessThanOrEqual(1e-12);
      expect(ev.ierr.includes(1)).toBe(true);
    });
});

describe("lsp parity native vs wasm", () => {
  it.skipIf(!nativeBackend)(`fit and evaluation agree to 1e-12 relative${nativeBackend ? "" : " — " + nativeSkipReason}`, () => {
    const r = rng(3);
    for (const [n, d] of [
      [300, 2],
      [500, 4],
      [400, 8],
      [60, 3],
      [1300, 10], // above 1,024 nodes: the tree probe, then scans
      [1500, 3], // the tree throughout
    ]) {
      // Half the problems on a coarse grid (ties, rank-deficient fits), half scattered.
      const grid = n === 500;
      const X = Float64Array.from({ length: n * d }, () => (grid ? Math.floor(r() * 7) / 6 : r()));
      // drop duplicates of the grid
      const seen = new Set<string>(),
        keep: number[] = [];
      for (let i = 0; i < n; i++) {
        const key = Array.from(X.subarray(i * d, i * d + d)).join(",");
        if (!seen.has(key)) seen.add(key), keep.push(i);
      }
      const Xu = Float64Array.from(keep.flatMap((i) => Array.from(X.subarray(i * d, i * d + d))));
      const f = Float64Array.from(keep, () => r() * 10);
      const Q = Float64Array.from({ length: 200 * d }, () => r() * 1.4 - 0.2);
      const a = lspFit(nativeBackend!, Xu, f, d),
        b = lspFit(wasmBackend, Xu, f, d);
      expect(Array.from(a.rank)).toEqual(Array.from(b.rank));
      expect(Array.from(a.rw)).toEqual(Array.from(b.rw));
      for (let i = 0; i < a.A.length; i++) expect(Math.abs(a.A[i] - b.A[i])).toBeLessThanOrEqual(1e-12 * Math.max(1, Math.abs(a.A[i])));
      const ea = lspEval(nativeBackend!, { X: Xu, f, A: a.A, rw: a.rw, m: d }, Q);
      const eb = lspEval(wasmBackend, { X: Xu, f, A: a.A, rw: a.rw, m: d }, Q);
      expect(Array.from(ea.ierr)).toEqual(Array.from(eb.ierr));
      for (let i = 0; i < ea.values.length; i++) expect(relErr(ea.values[i], eb.values[i])).toBeLessThanOrEqual(1e-12);
    }
  });
});
