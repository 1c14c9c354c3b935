// A buffer shorter than its stated size must come back as BAD_ARGUMENT on both backends: native bindings check
// lengths themselves, and the wasm backend checks the spec's lengths() before copying into linear memory.
import { describe, expect, it } from "vitest";
import type { KernelArg, KernelBackend, KernelSpec } from "../../ts/backend/kernel.js";
import { DELAUNAY_LOCATE } from "../../ts/backend/kernels/delaunay.js";
import { LSP_EVAL, LSP_FIT } from "../../ts/backend/kernels/lsp.js";
import { MARS_FIT, MARS_PREDICT } from "../../ts/backend/kernels/mars.js";
import { MIXTURE_FIT } from "../../ts/backend/kernels/mixture.js";
import { Status } from "../../ts/backend/status.js";
import { GP_LOCAL_PREDICT, GP_NLL, GP_PREDICT } from "../../ts/backend/kernels/gp.js";
import { nativeBackend, wasmBackend } from "../helpers/backends.js";

const X = Float64Array.from([0, 0, 1, 0, 0, 1, 1, 1, 0.5, 0.2]);
const f = Float64Array.from([1, 2, 3, 4, 5]);
const marsOpts = Float64Array.from([1, 5, 0.001, 2, 0, 0, 20, 1, 0, 1, 0, 0]);

// Each case: the spec, a valid argument list, and the index of the argument to shorten.
const cases: [string, KernelSpec, () => KernelArg[], number[]][] = [
  [
    "delaunayLocate",
    DELAUNAY_LOCATE,
    () => [
      X,
      5,
      2,
      Float64Array.from([0.3, 0.3]),
      1,
      1e-10,
      Infinity,
      new Int32Array(3),
      new Float64Array(3),
      new Int32Array(1),
      new Float64Array(1),
      new Int32Array(4),
    ],
    [0, 3, 7, 8, 9, 10, 11],
  ],
  ["lspFit", LSP_FIT, () => [X, f, 5, 2, new Float64Array(10), new Float64Array(5), new Int32Array(5)], [0, 1, 4, 5, 6]],
  [
    "lspEval",
    LSP_EVAL,
    () => [X, f, new Float64Array(10), new Float64Array(5).fill(1), 5, 2, Float64Array.from([0.3, 0.3]), 1, new Float64Array(1), new Int32Array(1)],
    [0, 1, 2, 3, 6, 8, 9],
  ],
  [
    "mars_fit",
    MARS_FIT,
    () => [X, f, 5, 2, marsOpts, new Int32Array(10), new Float64Array(10), new Int32Array(5), new Float64Array(5), new Float64Array(5), new Float64Array(10)],
    [0, 1, 4, 5, 6, 7, 8, 9, 10],
  ],
  [
    "mars_predict",
    MARS_PREDICT,
    () => [new Int32Array(2), new Float64Array(2), Float64Array.from([1]), 1, 2, Float64Array.from([0.3, 0.3]), 1, new Float64Array(1)],
    [0, 1, 2, 5, 7],
  ],
  [
    "mixtureFit",
    MIXTURE_FIT,
    () => [
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
    [0, 1, 3, 4, 13, 14, 15, 16, 17, 18, 19, 20],
  ],
  [
    "gp_nll",
    GP_NLL,
    () => [
      X,
      f,
      Float64Array.from([1, 1, 1, 1, 1]),
      5,
      2,
      1,
      1,
      Float64Array.from([-1, -1, -4]),
      1,
      new Float64Array(25),
      new Float64Array(5),
      new Float64Array(1),
      new Float64Array(5),
      new Float64Array(0),
      0,
    ],
    [0, 1, 2, 7, 9, 10, 11, 12],
  ],
  [
    "gp_nll with per-point variances",
    GP_NLL,
    () => [
      X,
      f,
      Float64Array.from([1, 1, 1, 1, 1]),
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
    [0, 1, 2, 7, 9, 10, 11, 12, 13],
  ],
  [
    "gp_predict",
    GP_PREDICT,
    () => {
      const L = new Float64Array(25);
      for (let i = 0; i < 5; i++) L[i * 5 + i] = 1;
      return [X, 5, 2, 1, Float64Array.from([-1, -1, -4]), L, new Float64Array(5), Float64Array.from([0.3, 0.3]), 1, new Float64Array(1), new Float64Array(1)];
    },
    [0, 4, 5, 6, 7, 9, 10],
  ],
  [
    "gp_local_predict with per-point variances",
    GP_LOCAL_PREDICT,
    () => [
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
      Float64Array.from([0.3, 0.3]),
      1,
      new Float64Array(1),
      new Float64Array(1),
    ],
    [0, 4, 5, 7, 8, 10, 12, 13],
  ],
];

function shortened(args: KernelArg[], i: number): KernelArg[] {
  const copy = args.slice();
  const a = copy[i] as Float64Array | Int32Array | Uint8Array;
  copy[i] = a.subarray(0, a.length - 1);
  return copy;
}

const backends: [string, KernelBackend | undefined][] = [
  ["native", nativeBackend],
  ["wasm", wasmBackend],
];
for (const [bname, backend] of backends) {
  describe.skipIf(!backend)(`short buffers on ${bname}`, () => {
    for (const [name, spec, args, shorten] of cases) {
      it(`${name}: the full call runs, every shortened buffer is refused`, () => {
        expect(backend!.run(spec, args())).toBe(Status.OK);
        for (const i of shorten) expect(backend!.run(spec, shortened(args(), i)), `argument ${i}`).toBe(Status.BAD_ARGUMENT);
      });
    }
  });
}
