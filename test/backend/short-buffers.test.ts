// The buffer contract is stated once, in each KernelSpec (args and lengths(), ts/backend/kernel.ts), and checked
// for both backends before any kernel runs: a buffer shorter than the sizes say, an array of the wrong class or a
// non-integer size must come back as BAD_ARGUMENT on native and on wasm. Every kernel the backends export needs a
// case here (a valid call with every conditional buffer in use), and every buffer argument of it is shortened.
import { readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { KernelArg, KernelBackend, KernelSpec } from "../../ts/backend/kernel.js";
import { nativeAddonPath } from "../../ts/backend/native.js";
import { Status } from "../../ts/backend/status.js";
import { wasmKernelNames } from "../../ts/backend/wasm.js";
import { packageRoot } from "../../ts/package-root.js";
import { nativeBackend, wasmBackend } from "../helpers/backends.js";

// Every KernelSpec exported by ts/backend/kernels/*.ts, by kernel name.
const specs = new Map<string, KernelSpec>();
const kernelDir = join(packageRoot(), "ts", "backend", "kernels");
for (const file of readdirSync(kernelDir).filter((f) => f.endsWith(".ts")))
  for (const value of Object.values(await import(join(kernelDir, file))))
    if (value && typeof value === "object" && "name" in value && "module" in value && Array.isArray((value as KernelSpec).args))
      specs.set((value as KernelSpec).name, value as KernelSpec);

const X = Float64Array.from([0, 0, 1, 0, 0, 1, 1, 1, 0.5, 0.2]);
const f = Float64Array.from([1, 2, 3, 4, 5]);
const ones = () => new Float64Array(5).fill(1);
const q1 = () => Float64Array.from([0.3, 0.3]);
const marsOpts = Float64Array.from([1, 5, 0.001, 2, 0, 0, 20, 1, 0, 1, 0, 0]);
const identity5 = () => {
  const L = new Float64Array(25);
  for (let i = 0; i < 5; i++) L[i * 5 + i] = 1;
  return L;
};
/** A valid neighbour table of X (4 neighbours per row) for lspSubsets. */
function neighbourTable(): [Int32Array, Float64Array] {
  const nbr = new Int32Array(20),
    nd2 = new Float64Array(20);
  if (wasmBackend.run(specs.get("lspNeighbors")!, [X, 5, 2, 4, nbr, nd2]) !== Status.OK) throw new Error("lspNeighbors failed");
  return [nbr, nd2];
}

// A valid call of every kernel, every buffer exactly as long as its sizes need (conditional ones in use).
const cases: Record<string, () => KernelArg[]> = {
  delaunayLocate: () => [X, 5, 2, q1(), 1, 1e-10, Infinity, new Int32Array(3), new Float64Array(3), new Int32Array(1), new Float64Array(1), new Int32Array(4)],
  sqdist: () => [X, 5, q1(), 1, 2, new Float64Array(5)],
  gev: () => [Float64Array.from([3, 1, 4, 1.5, 9, 2.6, 5, 3.5, 8.9, 7.9]), Int32Array.from([0, 10]), 1, 50, new Float64Array(14), new Int32Array(2)],
  gp_nll: () => [
    X,
    f,
    ones(),
    5,
    2,
    1,
    1,
    Float64Array.from([-1, -1, -4, -2]),
    1,
    new Float64Array(25),
    new Float64Array(5),
    new Float64Array(1),
    new Float64Array(6),
    Float64Array.from([0.5, 1, 2, 1, 0.5]),
    5,
  ],
  gp_predict: () => [X, 5, 2, 1, Float64Array.from([-1, -1, -4]), identity5(), new Float64Array(5), q1(), 1, new Float64Array(1), new Float64Array(1)],
  gp_local_predict: () => [
    X,
    5,
    2,
    1,
    Float64Array.from([-1, -1, -4, -2]),
    Float64Array.from([0.5, 1, 2, 1, 0.5]),
    5,
    f,
    Int32Array.from([0, 2, 4]),
    3,
    q1(),
    1,
    new Float64Array(1),
    new Float64Array(1),
  ],
  lspFit: () => [X, f, 5, 2, new Float64Array(10), new Float64Array(5), new Int32Array(5)],
  lspEval: () => [X, f, new Float64Array(10), ones(), 5, 2, q1(), 1, new Float64Array(1), new Int32Array(1)],
  lspWeights: () => [X, ones(), 5, 2, q1(), 1, 5, new Int32Array(1), new Int32Array(1), new Int32Array(5), new Float64Array(5)],
  lspNeighbors: () => [X, 5, 2, 4, new Int32Array(20), new Float64Array(20)],
  lspSubsets: () => {
    const [nbr, nd2] = neighbourTable();
    return [
      X,
      f,
      5,
      2,
      nbr,
      nd2,
      4,
      1,
      Int32Array.from([0, 5]),
      Int32Array.from([0, 1, 2, 3, 4]),
      Int32Array.from([0, 1]),
      Int32Array.from([2]),
      new Float64Array(10),
      new Float64Array(5),
      new Int32Array(5),
      new Int32Array(1),
      new Float64Array(1),
      new Int32Array(1),
    ];
  },
  lstsq: () => [X, f, ones(), 1, Int32Array.from([0, 5]), 1, 2, -1, new Float64Array(2), new Int32Array(1)],
  mars_fit: () => [
    X,
    f,
    5,
    2,
    marsOpts,
    new Int32Array(10),
    new Float64Array(10),
    new Int32Array(5),
    new Float64Array(5),
    new Float64Array(5),
    new Float64Array(10),
  ],
  mars_predict: () => [new Int32Array(2), new Float64Array(2), Float64Array.from([1]), 1, 2, q1(), 1, new Float64Array(1)],
  mixtureFit: () => [
    Float64Array.from([1, 2, 3, 4]),
    Int32Array.from([0, 4]),
    1,
    Int32Array.from([0]),
    Int32Array.from([0, 1]),
    1,
    1,
    1,
    10,
    1e-6,
    3,
    0,
    0,
    new Float64Array(1),
    new Float64Array(1),
    new Int32Array(1),
    new Uint8Array(1),
    new Uint8Array(1),
    new Float64Array(3),
    new Float64Array(2),
    new Float64Array(1),
  ],
  knn: () => [X, 5, q1(), 1, 2, Int32Array.from([-1]), 1, 2, new Int32Array(2), new Float64Array(2)],
  symeig: () => [Float64Array.from([2, 1, 1, 3]), 2, new Float64Array(2)],
  symtrid: () => [Float64Array.from([2, 1, 1, 3]), 2, new Float64Array(2), new Float64Array(2)],
  rbfgram: () => [X, 5, 2, 1, new Float64Array(5), 1, new Float64Array(25), new Float64Array(16)],
};

type Arr = Float64Array | Int32Array | Uint8Array;
const isArray = (a: KernelArg): a is Arr => typeof a !== "number";
function replaced(args: KernelArg[], i: number, value: KernelArg): KernelArg[] {
  const copy = args.slice();
  copy[i] = value;
  return copy;
}
/** The same length in another typed-array class. */
const otherClass = (a: Arr): Arr => (a instanceof Float64Array ? new Int32Array(a.length) : new Float64Array(a.length));

/** Kernel names the native addon exports (its functions other than the check installer). */
function nativeKernelNames(): string[] {
  if (!nativeBackend) return [];
  const addon = createRequire(import.meta.url)(nativeAddonPath()) as Record<string, unknown>;
  return Object.keys(addon).filter((k) => typeof addon[k] === "function" && k !== "setArgumentCheck");
}

describe("every registered kernel has a short-buffer case", () => {
  it("the wasm modules' and the addon's kernels all have a spec and a case", () => {
    const names = [...new Set([...wasmKernelNames(), ...nativeKernelNames()])].sort();
    expect(names.length).toBeGreaterThanOrEqual(19);
    expect(names.filter((n) => !specs.has(n))).toEqual([]);
    expect(names.filter((n) => !(n in cases))).toEqual([]);
    expect([...specs.keys()].filter((n) => !names.includes(n))).toEqual([]);
  });
});

const backends: [string, KernelBackend | undefined][] = [
  ["native", nativeBackend],
  ["wasm", wasmBackend],
];
for (const [bname, backend] of backends) {
  describe.skipIf(!backend)(`short buffers on ${bname}`, () => {
    for (const [name, args] of Object.entries(cases)) {
      it(`${name}: the full call runs; a shortened buffer, a wrong array class or a fractional size is refused`, () => {
        const spec = specs.get(name)!;
        expect(spec, `a KernelSpec named ${name}`).toBeDefined();
        expect(backend!.run(spec, args())).toBe(Status.OK);
        const full = args();
        const buffers = full.map((a, i) => (isArray(a) && a.length > 0 ? i : -1)).filter((i) => i >= 0);
        expect(buffers.length).toBe(spec.args.filter((s) => "dir" in s).length);
        for (const i of buffers) {
          const a = full[i] as Arr;
          expect(backend!.run(spec, replaced(args(), i, a.subarray(0, a.length - 1))), `argument ${i} shortened`).toBe(Status.BAD_ARGUMENT);
          expect(backend!.run(spec, replaced(args(), i, otherClass(a))), `argument ${i} of another class`).toBe(Status.BAD_ARGUMENT);
        }
        spec.args.forEach((s, i) => {
          if (s.kind === "int") {
            expect(backend!.run(spec, replaced(args(), i, (full[i] as number) + 0.5)), `argument ${i} fractional`).toBe(Status.BAD_ARGUMENT);
            expect(backend!.run(spec, replaced(args(), i, 2 ** 40)), `argument ${i} = 2^40`).toBe(Status.BAD_ARGUMENT);
          }
        });
        expect(backend!.run(spec, full.slice(0, -1)), "one argument missing").toBe(Status.BAD_ARGUMENT);
      });
    }
  });
}

describe.skipIf(!nativeBackend)("a direct call of the addon", () => {
  it("is refused unless it comes with its spec, and then the spec's contract applies", () => {
    const addon = createRequire(import.meta.url)(nativeAddonPath()) as Record<string, (...a: unknown[]) => number>;
    const args = cases.sqdist();
    // Not through NativeBackend: no spec as `this`, or the spec of another kernel.
    expect(addon.sqdist(...args)).toBe(Status.BAD_ARGUMENT);
    expect(addon.sqdist.apply(specs.get("knn"), args)).toBe(Status.BAD_ARGUMENT);
    // n = 1000 rows of X would read far past its 10 values: refused, the process lives on.
    expect(addon.sqdist.apply(specs.get("sqdist"), replaced(args, 1, 1000))).toBe(Status.BAD_ARGUMENT);
    expect(addon.sqdist.apply(specs.get("sqdist"), args)).toBe(Status.OK);
    expect(() => (addon as unknown as { setArgumentCheck(x: unknown): void }).setArgumentCheck(42)).toThrow(TypeError);
  });
});
