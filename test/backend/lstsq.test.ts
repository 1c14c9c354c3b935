import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { EPSILON, LSTSQ, lstsq } from "../../ts/backend/kernels/lstsq.js";
import { Status } from "../../ts/backend/status.js";
import type { KernelBackend } from "../../ts/backend/kernel.js";
import { nativeBackend, nativeSkipReason, rng, selected, wasmBackend } from "../helpers/backends.js";

interface Case {
  name: string;
  m: number;
  n: number;
  A: number[][];
  b: number[];
  w: number[] | null;
  rcond: number;
  rank: number;
  x: number[];
}
const fixtures: Case[] = JSON.parse(readFileSync(new URL("../fixtures/lstsq-numpy.json", import.meta.url), "utf8")).cases;

/** Solves one fixture case alone. */
function solveCase(b: KernelBackend, c: Case) {
  return lstsq(b, {
    A: Float64Array.from(c.A.flat()),
    b: Float64Array.from(c.b),
    w: c.w ? Float64Array.from(c.w) : undefined,
    offsets: Int32Array.from([0, c.m]),
    n: c.n,
    rcond: c.rcond,
  });
}

function normRelErr(got: ArrayLike<number>, want: ArrayLike<number>): number {
  let d = 0,
    s = 0;
  for (let i = 0; i < want.length; i++) {
    d += (got[i] - want[i]) ** 2;
    s += want[i] ** 2;
  }
  return s === 0 ? Math.sqrt(d) : Math.sqrt(d / s);
}

describe(`lstsq on ${selected.name}`, () => {
  it("solves an exact small case", () => {
    // y = 1 + 2x on x = 0, 1, 2: columns [1, x].
    const r = lstsq(selected, { A: Float64Array.from([1, 0, 1, 1, 1, 2]), b: Float64Array.from([1, 3, 5]), offsets: Int32Array.from([0, 3]), n: 2 });
    expect(r.rank[0]).toBe(2);
    expect(r.x[0]).toBeCloseTo(1, 14);
    expect(r.x[1]).toBeCloseTo(2, 14);
  });

  for (const c of fixtures)
    it(`matches numpy on ${c.name} (rank ${c.rank}) to 1e-10`, () => {
      const r = solveCase(selected, c);
      expect(r.rank[0]).toBe(c.rank);
      expect(normRelErr(r.x, c.x)).toBeLessThanOrEqual(1e-10);
    });

  it("solves the fixtures of one width as one batch, identical to one by one", () => {
    const six = fixtures.filter((c) => c.n === 4 && c.w);
    const offsets = new Int32Array(six.length + 1);
    six.forEach((c, k) => (offsets[k + 1] = offsets[k] + c.m));
    const r = lstsq(selected, {
      A: Float64Array.from(six.flatMap((c) => c.A.flat())),
      b: Float64Array.from(six.flatMap((c) => c.b)),
      w: Float64Array.from(six.flatMap((c) => c.w!)),
      offsets,
      n: 4,
      rcond: 6 * EPSILON,
    });
    six.forEach((c, k) => {
      const alone = solveCase(selected, c);
      expect(Array.from(r.x.subarray(4 * k, 4 * k + 4))).toEqual(Array.from(alone.x));
      expect(r.rank[k]).toBe(c.rank);
    });
  });

  it("handles empty problems and empty batches", () => {
    const r = lstsq(selected, { A: Float64Array.from([1, 2]), b: Float64Array.from([3]), offsets: Int32Array.from([0, 0, 1]), n: 2 });
    expect(Array.from(r.rank)).toEqual([0, 1]);
    expect(Array.from(r.x.subarray(0, 2))).toEqual([0, 0]);
    // minimum norm of x1 + 2 x2 = 3: x = (3/5, 6/5)
    expect(r.x[2]).toBeCloseTo(0.6, 14);
    expect(r.x[3]).toBeCloseTo(1.2, 14);
    expect(lstsq(selected, { A: new Float64Array(0), b: new Float64Array(0), offsets: Int32Array.from([0]), n: 3 }).x.length).toBe(0);
  });

  it("returns status codes for NaN/Inf and bad offsets, never crashes", () => {
    const x = new Float64Array(2),
      rank = new Int32Array(1);
    const A = Float64Array.from([1, 0, 0, 1]),
      b = Float64Array.from([1, 1]);
    const off = Int32Array.from([0, 2]);
    const run = (args: Partial<Record<string, unknown>>) =>
      selected.run(LSTSQ, [
        args.A ?? A,
        args.b ?? b,
        args.w ?? new Float64Array(2),
        args.weighted ?? 0,
        args.off ?? off,
        1,
        args.n ?? 2,
        args.rcond ?? -1,
        x,
        rank,
      ] as never);
    expect(run({})).toBe(Status.OK);
    expect(run({ A: Float64Array.from([1, NaN, 0, 1]) })).toBe(Status.NONFINITE);
    expect(run({ b: Float64Array.from([Infinity, 1]) })).toBe(Status.NONFINITE);
    expect(run({ w: Float64Array.from([1, NaN]), weighted: 1 })).toBe(Status.NONFINITE);
    expect(run({ w: Float64Array.from([1, NaN]), weighted: 0 })).toBe(Status.OK); // weights ignored when unweighted
    expect(run({ off: Int32Array.from([2, 0]) })).toBe(Status.BAD_ARGUMENT);
    expect(run({ n: 0 })).toBe(Status.BAD_ARGUMENT);
    expect(run({ rcond: NaN })).toBe(Status.BAD_ARGUMENT);
    expect(() => lstsq(selected, { A, b: Float64Array.from([1, NaN]), offsets: off, n: 2 })).toThrow(/NaN or infinity/);
    expect(() => lstsq(selected, { A, b, offsets: Int32Array.from([0, 3]), n: 2 })).toThrow(/rows need/);
  });

  it("rejects buffers shorter than the offsets say (both backends)", () => {
    expect(
      selected.run(LSTSQ, [
        Float64Array.from([1, 2]),
        Float64Array.from([1]),
        new Float64Array(0),
        0,
        Int32Array.from([0, 2]),
        1,
        2,
        -1,
        new Float64Array(2),
        new Int32Array(1),
      ]),
    ).toBe(Status.BAD_ARGUMENT);
  });
});

describe("lstsq parity native vs wasm", () => {
  it.skipIf(!nativeBackend)(`agrees to 1e-12 relative on random and rank-deficient batches${nativeBackend ? "" : " — " + nativeSkipReason}`, () => {
    const r = rng(11);
    for (const [rows, n] of [
      [6, 4],
      [13, 9],
      [3, 5],
      [40, 3],
    ]) {
      const nprob = 300;
      const offsets = Int32Array.from({ length: nprob + 1 }, (_, k) => k * rows);
      const A = Float64Array.from({ length: nprob * rows * n }, () => r() * 2 - 1);
      // Every third problem rank-deficient: a zero column and a duplicated one.
      for (let k = 0; k < nprob; k += 3)
        for (let i = 0; i < rows; i++) {
          A[(k * rows + i) * n] = 0;
          if (n > 2) A[(k * rows + i) * n + 2] = A[(k * rows + i) * n + 1];
        }
      const b = Float64Array.from({ length: nprob * rows }, () => r() * 10 - 5);
      const w = Float64Array.from({ length: nprob * rows }, () => r() * 3);
      const a = lstsq(nativeBackend!, { A, b, w, offsets, n, rcond: rows * EPSILON });
      const c = lstsq(wasmBackend, { A, b, w, offsets, n, rcond: rows * EPSILON });
      expect(Array.from(a.rank)).toEqual(Array.from(c.rank));
      for (let k = 0; k < nprob; k++) {
        const xa = a.x.subarray(k * n, k * n + n),
          xc = c.x.subarray(k * n, k * n + n);
        const scale = Math.max(...Array.from(xa, Math.abs), 1e-300);
        for (let j = 0; j < n; j++) expect(Math.abs(xa[j] - xc[j]) / scale).toBeLessThanOrEqual(1e-12);
      }
    }
  });
});
