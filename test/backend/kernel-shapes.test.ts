// Issue 14, item 15: the exported raw kernel wrappers answer a bad size (negative, fractional, NaN, infinite,
// too large to allocate, not a whole number of rows) with a coded VarmapError, never an uncoded RangeError.
import { describe, expect, it } from "vitest";
import type { KernelBackend } from "../../ts/backend/kernel.js";
import { delaunayLocate } from "../../ts/backend/kernels/delaunay.js";
import { sqdist } from "../../ts/backend/kernels/distances.js";
import { gevFitBatch } from "../../ts/backend/kernels/gev.js";
import { lspEval, lspFit, lspNeighborTable, lspWeights } from "../../ts/backend/kernels/lsp.js";
import { lstsq } from "../../ts/backend/kernels/lstsq.js";
import { knn } from "../../ts/backend/kernels/neighbors.js";
import { symeig, symtrid } from "../../ts/backend/kernels/symeig.js";
import { isVarmapError } from "../../ts/errors.js";
import { nativeBackend, wasmBackend } from "../helpers/backends.js";

const backends = nativeBackend ? [nativeBackend, wasmBackend] : [wasmBackend];
const X = new Float64Array([0, 0, 1, 0, 0, 1, 1, 1]);
const f = new Float64Array(4);
const SIZES = [-1, 0, 1.5, 3, NaN, 2 ** 31, 1e20, Infinity];
const CALLS: [string, (b: KernelBackend, s: number) => unknown][] = [
  ["sqdist", (b, s) => sqdist(b, X, X, s)],
  ["knn d", (b, s) => knn(b, X, X, s, 1)],
  ["knn k", (b, s) => knn(b, X, X, 2, s)],
  ["delaunayLocate", (b, s) => delaunayLocate(b, X, X, s)],
  ["lstsq", (b, s) => lstsq(b, { A: X, b: f, offsets: new Int32Array([0, 4]), n: s })],
  ["lspFit", (b, s) => lspFit(b, X, f, s)],
  ["lspEval", (b, s) => lspEval(b, { X, f, A: X, rw: f, m: s }, X)],
  ["lspNeighborTable m", (b, s) => lspNeighborTable(b, X, s)],
  ["lspNeighborTable K", (b, s) => lspNeighborTable(b, X, 2, s)],
  ["lspWeights", (b, s) => lspWeights(b, { X, rw: f, m: s }, X)],
  ["symeig", (b, s) => symeig(b, X, s)],
  ["symtrid", (b, s) => symtrid(b, X, s)],
  ["gevFitBatch", (b, s) => gevFitBatch(b, X, new Int32Array([0, 8]), s)],
];

describe("raw kernel wrappers: bad sizes are coded errors", () => {
  for (const backend of backends)
    it(`${backend.name}: every wrapper, every bad size`, () => {
      const uncoded: string[] = [];
      for (const [name, call] of CALLS)
        for (const s of SIZES) {
          try {
            call(backend, s);
          } catch (e) {
            if (!isVarmapError(e)) uncoded.push(`${name}(${s}): ${(e as Error)?.constructor?.name} ${(e as Error)?.message}`);
          }
        }
      expect(uncoded).toEqual([]);
    });
  it("a size that does not divide the buffer names the kernel", () => {
    expect(() => knn(wasmBackend, X, X, 3, 1)).toThrow(/knn/);
    expect(() => lspNeighborTable(wasmBackend, X, 3)).toThrow(expect.objectContaining({ code: "E_KERNEL_ARGUMENT" }));
  });
});
