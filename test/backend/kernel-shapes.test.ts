// Issue 14 item 15, issue 44 item 15: every exported raw kernel wrapper answers a bad size (negative, fractional,
// NaN, infinite, too large to allocate, not a whole number of rows) with a coded VarmapError on both backends,
// never an uncoded RangeError or TypeError. Each wrapper's valid call runs first, so every substitution is live.
import { describe, expect, it } from "vitest";
import type { KernelBackend } from "../../ts/backend/kernel.js";
import { delaunayLocate } from "../../ts/backend/kernels/delaunay.js";
import { sqdist } from "../../ts/backend/kernels/distances.js";
import { gevFitBatch } from "../../ts/backend/kernels/gev.js";
import { gpLocalPredict, gpNll, gpPredict, type GpKernelName } from "../../ts/backend/kernels/gp.js";
import { lspEval, lspFit, lspFitRaw, lspNeighborTable, lspSubsets, lspWeights } from "../../ts/backend/kernels/lsp.js";
import { lstsq } from "../../ts/backend/kernels/lstsq.js";
import { earthDefaults, marsFit, marsPredict } from "../../ts/backend/kernels/mars.js";
import { mixtureFit } from "../../ts/backend/kernels/mixture.js";
import { knn } from "../../ts/backend/kernels/neighbors.js";
import { rbfgram, symeig, symtrid } from "../../ts/backend/kernels/symeig.js";
import { isVarmapError } from "../../ts/errors.js";
import { nativeBackend, wasmBackend } from "../helpers/backends.js";

const backends = nativeBackend ? [nativeBackend, wasmBackend] : [wasmBackend];
// 5 points in 2 inputs, and a 2 × 2 symmetric matrix.
const X = Float64Array.from([0, 0, 1, 0, 0, 1, 1, 1, 0.5, 0.2]);
const f = Float64Array.from([1, 2, 3, 5, 4]);
const S2 = Float64Array.from([2, 1, 1, 3]);
const ones = new Float64Array(5).fill(1);
const theta = Float64Array.from([-1, -1, -4]);
const L = new Float64Array(25);
for (let i = 0; i < 5; i++) L[i * 5 + i] = 1;
const marsOptions = (nk: number, d = 1) => ({ ...earthDefaults(2, d), nk, penalty: 2 });
const runs = Float64Array.from([1, 2, 3, 4, 1.5, 2.5]);

/** Sizes no kernel accepts where a size is expected. */
const BAD = [-1, NaN, 1.5, 2 ** 40, Infinity, -Infinity, 2 ** 31, 1e20];

// Each case: a wrapper call with one size replaced by `s`, and the valid size (the call must succeed with it).
const CALLS: [string, (b: KernelBackend, s: number) => unknown, number][] = [
  ["sqdist d", (b, s) => sqdist(b, X, X, s), 2],
  ["knn d", (b, s) => knn(b, X, X, s, 1), 2],
  ["knn k", (b, s) => knn(b, X, X, 2, s), 1],
  ["delaunayLocate d", (b, s) => delaunayLocate(b, X, X, s), 2],
  ["lstsq n", (b, s) => lstsq(b, { A: X, b: f, offsets: Int32Array.from([0, 5]), n: s }), 2],
  ["lspFit m", (b, s) => lspFit(b, X, f, s), 2],
  ["lspFitRaw m", (b, s) => lspFitRaw(b, X, f, s), 2],
  ["lspEval m", (b, s) => lspEval(b, { X, f, A: X, rw: ones, m: s }, X), 2],
  ["lspNeighborTable m", (b, s) => lspNeighborTable(b, X, s), 2],
  ["lspNeighborTable K", (b, s) => lspNeighborTable(b, X, 2, s), 4],
  ["lspWeights m", (b, s) => lspWeights(b, { X, rw: ones, m: s }, X), 2],
  ...(["n", "m", "K"] as const).map((field): [string, (b: KernelBackend, s: number) => unknown, number] => [
    `lspSubsets table.${field}`,
    (b, s) => lspSubsets(b, { ...lspNeighborTable(b, X, 2, 4), [field]: s }, f, [{ train: Int32Array.from([0, 1, 2, 3, 4]), query: Int32Array.from([0]) }]),
    { n: 5, m: 2, K: 4 }[field],
  ]),
  ["symeig m", (b, s) => symeig(b, S2, s), 2],
  ["symtrid m", (b, s) => symtrid(b, S2, s), 2],
  ["rbfgram n", (b, s) => rbfgram(b, X, s, 2, false, new Float64Array(5), 1), 5],
  ["rbfgram d", (b, s) => rbfgram(b, X, 5, s, true, new Float64Array(5), 1), 2],
  ["rbfgram q", (b, s) => rbfgram(b, X, 5, 2, true, new Float64Array(5), s), 1],
  ["gevFitBatch maxIter", (b, s) => gevFitBatch(b, X, Int32Array.from([0, 10]), s), 50],
  ["gpNll n", (b, s) => gpNll(b, X, f, ones, s, 2, 1, "sqexp", theta, true), 5],
  ["gpNll d", (b, s) => gpNll(b, X, f, ones, 5, s, 1, "sqexp", theta, true), 2],
  ["gpNll p", (b, s) => gpNll(b, X, f, ones, 5, 2, s, "sqexp", theta, true), 1],
  ["gpPredict n", (b, s) => gpPredict(b, X, s, 2, "matern52", theta, L, f, X, 5), 5],
  ["gpPredict d", (b, s) => gpPredict(b, X, 5, s, "matern52", theta, L, f, X, 5), 2],
  ["gpPredict q", (b, s) => gpPredict(b, X, 5, 2, "matern52", theta, L, f, X, s), 5],
  ["gpLocalPredict n", (b, s) => gpLocalPredict(b, X, s, 2, "sqexp", theta, f, Int32Array.from([0, 1, 2]), 3, X.subarray(0, 2), 1), 5],
  ["gpLocalPredict d", (b, s) => gpLocalPredict(b, X, 5, s, "sqexp", theta, f, Int32Array.from([0, 1, 2]), 3, X.subarray(0, 2), 1), 2],
  ["gpLocalPredict m", (b, s) => gpLocalPredict(b, X, 5, 2, "sqexp", theta, f, Int32Array.from([0, 1, 2]), s, X.subarray(0, 2), 1), 3],
  ["gpLocalPredict q", (b, s) => gpLocalPredict(b, X, 5, 2, "sqexp", theta, f, Int32Array.from([0, 1, 2]), 3, X.subarray(0, 2), s), 1],
  ["marsFit d", (b, s) => marsFit(b, X, f, s, marsOptions(5)), 2],
  ["marsFit nk", (b, s) => marsFit(b, X, f, 2, marsOptions(s)), 5],
  ["marsFit degree", (b, s) => marsFit(b, X, f, 2, marsOptions(5, s)), 1],
  ["marsPredict d", (b, s) => marsPredict(b, new Int32Array(2), new Float64Array(2), Float64Array.from([1]), s, X), 2],
  ["mixtureFit k", (b, s) => mixtureFit(b, { runs, offsets: Int32Array.from([0, 6]), models: [[0, s]], restarts: 1 }), 1],
  ["mixtureFit family", (b, s) => mixtureFit(b, { runs, offsets: Int32Array.from([0, 6]), models: [[s, 1]], restarts: 1 }), 0],
  ["mixtureFit restarts", (b, s) => mixtureFit(b, { runs, offsets: Int32Array.from([0, 6]), models: [[0, 1]], restarts: s }), 1],
  ["mixtureFit maxIter", (b, s) => mixtureFit(b, { runs, offsets: Int32Array.from([0, 6]), models: [[0, 1]], maxIter: s }), 50],
];

type Buf = Float64Array | Int32Array;
/** Passes buffer number i through unchanged, or changed when it is the one under test. */
type Tweak = <T extends Buf>(i: number, a: T) => T;
const neighbours = () => Int32Array.from([0, 1, 2]);
const table = (b: KernelBackend, t: Tweak) => {
  const tab = lspNeighborTable(b, X, 2, 4);
  return { ...tab, X: t(0, tab.X), nbr: t(1, tab.nbr), nd2: t(2, tab.nd2) };
};
// Each wrapper once, every buffer argument passed through the tweak (numbered from 0).
const BUFFER_CALLS: [string, (b: KernelBackend, t: Tweak) => unknown][] = [
  ["sqdist", (b, t) => sqdist(b, t(0, X), t(1, X), 2)],
  ["knn", (b, t) => knn(b, t(0, X), t(1, X), 2, 1, { exclude: t(2, Int32Array.from([0, 1, 2, 3, 4])) })],
  ["delaunayLocate", (b, t) => delaunayLocate(b, t(0, X), t(1, X), 2)],
  ["lstsq", (b, t) => lstsq(b, { A: t(0, X), b: t(1, f), w: t(2, ones), offsets: t(3, Int32Array.from([0, 5])), n: 2 })],
  ["lspFit", (b, t) => lspFit(b, t(0, X), t(1, f), 2)],
  ["lspFitRaw", (b, t) => lspFitRaw(b, t(0, X), t(1, f), 2)],
  ["lspEval", (b, t) => lspEval(b, { X: t(0, X), f: t(1, f), A: t(2, X), rw: t(3, ones), m: 2 }, t(4, X))],
  ["lspNeighborTable", (b, t) => lspNeighborTable(b, t(0, X), 2)],
  ["lspWeights", (b, t) => lspWeights(b, { X: t(0, X), rw: t(1, ones), m: 2 }, t(2, X))],
  ["lspSubsets", (b, t) => lspSubsets(b, table(b, t), t(3, f), [{ train: t(4, Int32Array.from([0, 1, 2, 3, 4])), query: t(5, Int32Array.from([0])) }])],
  ["symeig", (b, t) => symeig(b, t(0, S2), 2)],
  ["symtrid", (b, t) => symtrid(b, t(0, S2), 2)],
  ["rbfgram", (b, t) => rbfgram(b, t(0, X), 5, 2, true, t(1, new Float64Array(5)), 1)],
  ["gevFitBatch", (b, t) => gevFitBatch(b, t(0, X), t(1, Int32Array.from([0, 10])))],
  ["gpNll", (b, t) => gpNll(b, t(0, X), t(1, f), t(2, ones), 5, 2, 1, "sqexp", t(3, Float64Array.from([-1, -1, -4, -2])), true, t(4, ones))],
  ["gpPredict", (b, t) => gpPredict(b, t(0, X), 5, 2, "matern52", t(1, theta), t(2, L), t(3, f), t(4, X), 5)],
  [
    "gpLocalPredict",
    (b, t) =>
      gpLocalPredict(
        b,
        t(0, X),
        5,
        2,
        "sqexp",
        t(1, Float64Array.from([-1, -1, -4, -2])),
        t(2, f),
        t(3, neighbours()),
        3,
        t(4, X.subarray(0, 2)),
        1,
        t(5, ones),
      ),
  ],
  ["marsFit", (b, t) => marsFit(b, t(0, X), t(1, f), 2, marsOptions(5))],
  ["marsPredict", (b, t) => marsPredict(b, t(0, new Int32Array(2)), t(1, new Float64Array(2)), t(2, Float64Array.from([1])), 2, t(3, X))],
  [
    "mixtureFit",
    (b, t) => mixtureFit(b, { runs: t(0, runs), offsets: t(1, Int32Array.from([0, 6])), configIds: t(2, Int32Array.from([0])), models: [[0, 1]], restarts: 1 }),
  ],
];
/** Buffer changes a caller could make by mistake: emptied, one value short, one too many. */
const TWEAKS: [string, (a: Buf) => Buf][] = [
  ["empty", (a) => a.subarray(0, 0)],
  ["one short", (a) => a.subarray(0, Math.max(0, a.length - 1))],
  [
    "one long",
    (a) => {
      const c = new (a.constructor as new (n: number) => Buf)(a.length + 1);
      c.set(a);
      return c;
    },
  ],
];

function outcome(call: () => unknown): string {
  try {
    call();
    return "no error";
  } catch (e) {
    return isVarmapError(e) ? "coded" : `${(e as Error)?.constructor?.name}: ${(e as Error)?.message}`;
  }
}

describe("raw kernel wrappers: bad sizes are coded errors", () => {
  for (const backend of backends)
    it(`${backend.name}: every wrapper runs with its valid sizes and throws a coded error for each bad one`, () => {
      const valid: string[] = [];
      const wrong: string[] = [];
      for (const [name, call, good] of CALLS) {
        const ok = outcome(() => call(backend, good));
        if (ok !== "no error") valid.push(`${name}(${good}): ${ok}`);
        for (const s of BAD) {
          const got = outcome(() => call(backend, s));
          if (got !== "coded") wrong.push(`${name}(${s}): ${got}`);
        }
      }
      expect(valid).toEqual([]);
      expect(wrong).toEqual([]);
    });

  it("covers every exported wrapper of ts/backend/kernels", async () => {
    const { readdirSync } = await import("node:fs");
    const { join } = await import("node:path");
    const { packageRoot } = await import("../../ts/package-root.js");
    const dir = join(packageRoot(), "ts", "backend", "kernels");
    const covered = new Set(CALLS.map(([name]) => name.split(" ")[0]));
    // Exported functions that take no kernel sizes (pure TypeScript helpers).
    const helpers = new Set(["lspTableDepth", "applyQt", "applyQ", "earthDefaults"]);
    const missing: string[] = [];
    for (const file of readdirSync(dir).filter((f) => f.endsWith(".ts")))
      for (const [name, value] of Object.entries(await import(join(dir, file))))
        if (typeof value === "function" && !helpers.has(name) && !covered.has(name)) missing.push(`${file}: ${name}`);
    expect(missing).toEqual([]);
  });

  for (const backend of backends)
    it(`${backend.name}: every buffer of every wrapper emptied, shortened or lengthened gives a result or a coded error`, () => {
      const wrong: string[] = [];
      for (const [name, call] of BUFFER_CALLS) {
        const ok = outcome(() => call(backend, (_, a) => a));
        expect(ok, `${name} with its valid buffers`).toBe("no error");
        let count = 0;
        call(backend, (i, a) => ((count = Math.max(count, i + 1)), a));
        for (let target = 0; target < count; target++)
          for (const [how, tweak] of TWEAKS) {
            const got = outcome(() => call(backend, (i, a) => (i === target ? (tweak(a) as typeof a) : a)));
            if (got !== "coded" && got !== "no error") wrong.push(`${name} buffer ${target} ${how}: ${got}`);
          }
      }
      expect(wrong).toEqual([]);
    });

  it("offsets that are negative, decreasing or past the buffer are coded errors", () => {
    const OFFSETS = [
      [0, -1],
      [0, 4, 2],
      [0, 100],
    ];
    for (const backend of backends)
      for (const o of OFFSETS) {
        const offsets = Int32Array.from(o);
        expect(
          outcome(() => lstsq(backend, { A: X, b: f, offsets, n: 2 })),
          `lstsq ${o}`,
        ).toBe("coded");
        expect(
          outcome(() => gevFitBatch(backend, X, offsets)),
          `gev ${o}`,
        ).toBe("coded");
        expect(
          outcome(() => mixtureFit(backend, { runs, offsets, models: [[0, 1]], restarts: 1 })),
          `mixture ${o}`,
        ).toBe("coded");
      }
  });

  it("a size that does not divide the buffer names the kernel", () => {
    expect(() => knn(wasmBackend, X, X, 3, 1)).toThrow(/knn/);
    expect(() => lspNeighborTable(wasmBackend, X, 3)).toThrow(expect.objectContaining({ code: "E_KERNEL_ARGUMENT" }));
  });

  it("an unknown GP correlation family is a coded error", () => {
    for (const backend of backends)
      expect(
        outcome(() => gpNll(backend, X, f, ones, 5, 2, 1, "cubic" as GpKernelName, theta, false)),
        backend.name,
      ).toBe("coded");
  });
});
