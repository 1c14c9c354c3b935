// The many-subset LSP kernels (lspNeighbors + lspSubsets) against lspFit + lspEval run on each gathered subset:
// identical results (bit for bit) on each backend, including the table's fallbacks, and parity between backends.
import { describe, expect, it } from "vitest";
import { LSP_SUBSETS, LspStatus, lspEval, lspFit, lspFitRaw, lspNeighborTable, lspSubsets, type LspNeighborTable } from "../../ts/backend/kernels/lsp.js";
import { Status } from "../../ts/backend/status.js";
import type { KernelBackend } from "../../ts/backend/kernel.js";
import { nativeBackend, nativeSkipReason, relErr, rng, selected, wasmBackend } from "../helpers/backends.js";

/** n distinct points in d dimensions: on a coarse grid (distance ties, rank-deficient fits) or scattered. */
function points(r: () => number, n: number, d: number, grid: boolean): Float64Array {
  const seen = new Set<string>(),
    out: number[] = [];
  while (out.length < n * d) {
    const p = Array.from({ length: d }, () => (grid ? Math.floor(r() * 5) / 4 : r()));
    if (!seen.has(p.join(","))) seen.add(p.join(",")), out.push(...p);
  }
  return Float64Array.from(out);
}

/** Random subsets (ascending) holding a fraction p of the rows, and query rows: the rest, some training rows, a repeat. */
function subsets(r: () => number, n: number, d: number, ps: number[]) {
  return ps.map((p) => {
    const train: number[] = [],
      rest: number[] = [];
    for (let i = 0; i < n; i++) (r() < p ? train : rest).push(i);
    while (train.length < d + 2) train.push(rest.pop()!), train.sort((a, b) => a - b);
    const query = [...rest, train[0], train[train.length - 1], rest[0] ?? train[1]];
    return { train: Int32Array.from(train), query: Int32Array.from(query) };
  });
}

const gather = (X: Float64Array, d: number, rows: Int32Array) => Float64Array.from(Array.from(rows).flatMap((i) => Array.from(X.subarray(i * d, i * d + d))));

function expectSame(b: KernelBackend, table: LspNeighborTable, f: Float64Array, subs: { train: Int32Array; query: Int32Array }[]) {
  const d = table.m;
  const res = lspSubsets(b, table, f, subs);
  subs.forEach((s, i) => {
    const Xt = gather(table.X, d, s.train),
      ft = Float64Array.from(s.train, (r) => f[r]);
    const fit = lspFit(b, Xt, ft, d);
    const ev = lspEval(b, { X: Xt, f: ft, A: fit.A, rw: fit.rw, m: d }, gather(table.X, d, s.query));
    expect(res[i].status).toBe(Status.OK);
    expect(Array.from(res[i].rank)).toEqual(Array.from(fit.rank));
    expect(Array.from(res[i].rw)).toEqual(Array.from(fit.rw));
    expect(Array.from(res[i].A)).toEqual(Array.from(fit.A));
    expect(Array.from(res[i].values)).toEqual(Array.from(ev.values));
    expect(Array.from(res[i].ierr)).toEqual(Array.from(ev.ierr));
  });
}

describe(`lsp subset kernels on ${selected.name}`, () => {
  for (const [n, d, grid] of [
    [400, 4, true],
    [300, 2, false],
    [250, 8, false],
    [120, 3, true],
  ] as const)
    it(`equal lspFit + lspEval per subset: n=${n} d=${d} ${grid ? "grid" : "scattered"}`, () => {
      const r = rng(n + d);
      const X = points(r, n, d, grid),
        f = Float64Array.from({ length: n }, () => r() * 10 - 2);
      const subs = subsets(r, n, d, [0.05, 0.1, 0.3, 0.5, 0.9]);
      expectSame(selected, lspNeighborTable(selected, X, d), f, subs);
      // A shallow table: most nodes fall back to the k-d tree (fit) and to testing every query (evaluation).
      expectSame(selected, lspNeighborTable(selected, X, d, 3), f, subs);
    });

  it("the table lists each row's nearest others by (distance, row)", () => {
    const X = Float64Array.from([0, 0, 1, 0, 0, 1, -1, 0, 2, 2]);
    const t = lspNeighborTable(selected, X, 2, 4);
    expect(Array.from(t.nbr.subarray(0, 4))).toEqual([1, 2, 3, 4]); // three ties at 1, lowest row first
    expect(Array.from(t.nd2.subarray(0, 4))).toEqual([1, 1, 1, 8]);
    expect(Array.from(t.nbr.subarray(12, 16))).toEqual([0, 2, 1, 4]); // row 3 = (-1, 0): at 1, 2, 4, 13
  });

  it("reports each subset's own status: too few points, duplicates; malformed lists are refused", () => {
    const X = Float64Array.from([0, 0, 1, 0, 0, 1, 1, 1, 2, 0, 2, 1, 0, 0]); // row 6 repeats row 0
    const f = Float64Array.from([1, 2, 3, 4, 5, 6, 7]);
    const t = lspNeighborTable(selected, X, 2);
    const q = Int32Array.from([3]);
    const res = lspSubsets(selected, t, f, [
      { train: Int32Array.from([0, 1, 2]), query: q },
      { train: Int32Array.from([0, 1, 2, 4, 6]), query: q },
      { train: Int32Array.from([0, 1, 2, 4, 5]), query: q },
    ]);
    expect(res.map((s) => s.status)).toEqual([LspStatus.TOO_FEW_POINTS, LspStatus.DUPLICATE_POINTS, Status.OK]);
    expect(Array.from(res[1].rank)).toEqual(
      Array.from(lspFitRaw(selected, gather(X, 2, Int32Array.from([0, 1, 2, 4, 6])), Float64Array.from([1, 2, 3, 5, 7]), 2).rank),
    );
    const call = (train: number[], query: number[]) =>
      selected.run(LSP_SUBSETS, [
        X,
        f,
        7,
        2,
        t.nbr,
        t.nd2,
        t.K,
        1,
        Int32Array.from([0, train.length]),
        Int32Array.from(train),
        Int32Array.from([0, query.length]),
        Int32Array.from(query),
        new Float64Array(2 * train.length),
        new Float64Array(train.length),
        new Int32Array(train.length),
        new Int32Array(1),
        new Float64Array(query.length),
        new Int32Array(query.length),
      ]);
    expect(call([0, 1, 2, 4], [3])).toBe(Status.OK);
    expect(call([0, 2, 1, 4], [3])).toBe(Status.BAD_ARGUMENT); // not ascending
    expect(call([0, 1, 2, 7], [3])).toBe(Status.BAD_ARGUMENT); // no row 7
    expect(call([0, 1, 2, 4], [-1])).toBe(Status.BAD_ARGUMENT);
  });
});

describe("lsp subset kernels: parity native vs wasm", () => {
  it.skipIf(!nativeBackend)(`same table, results to 1e-12 relative${nativeBackend ? "" : " — " + nativeSkipReason}`, () => {
    const r = rng(11);
    for (const [n, d, grid] of [
      [400, 4, true],
      [300, 5, false],
    ] as const) {
      const X = points(r, n, d, grid),
        f = Float64Array.from({ length: n }, () => r() * 10);
      const ta = lspNeighborTable(nativeBackend!, X, d),
        tb = lspNeighborTable(wasmBackend, X, d);
      expect(Array.from(ta.nbr)).toEqual(Array.from(tb.nbr));
      expect(Array.from(ta.nd2)).toEqual(Array.from(tb.nd2));
      const subs = subsets(r, n, d, [0.1, 0.5, 0.8]);
      const a = lspSubsets(nativeBackend!, ta, f, subs),
        b = lspSubsets(wasmBackend, tb, f, subs);
      a.forEach((x, i) => {
        expect(Array.from(x.rank)).toEqual(Array.from(b[i].rank));
        expect(Array.from(x.rw)).toEqual(Array.from(b[i].rw));
        expect(Array.from(x.ierr)).toEqual(Array.from(b[i].ierr));
        x.values.forEach((v, k) => expect(relErr(v, b[i].values[k])).toBeLessThanOrEqual(1e-12));
      });
    }
  });
});
