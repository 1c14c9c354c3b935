// The gev kernel: native and wasm reach the same optimum (spec B.4: 1,000 random samples, n = 20..500,
// ξ ∈ [−0.45, 0.6], parameters within 1e-10), and short buffers come back as BAD_ARGUMENT on both.
import { describe, expect, it } from "vitest";
import { GEV, GEV_OUT, gevFitBatch } from "../../ts/backend/kernels/gev.js";
import { Status } from "../../ts/backend/status.js";
import { counterRng } from "../../ts/data/random.js";
import { gevQuantile } from "../../ts/evt/gev.js";
import { nativeBackend, nativeSkipReason, wasmBackend } from "../helpers/backends.js";

function batch(count: number): { x: Float64Array; offsets: Int32Array } {
  const offsets = new Int32Array(count + 1);
  const parts: number[] = [];
  for (let k = 0; k < count; k++) {
    const r = counterRng(3, "gev-parity", k);
    const n = 20 + r.int(481);
    const p = { loc: 100 * r.next() - 50, scale: 0.01 + 10 * r.next(), shape: -0.45 + 1.05 * r.next() };
    for (let i = 0; i < n; i++) parts.push(gevQuantile(1 - r.next(), p));
    offsets[k + 1] = parts.length;
  }
  return { x: Float64Array.from(parts), offsets };
}

describe.skipIf(!nativeBackend)("gev kernel parity (native vs wasm)", () => {
  if (!nativeBackend) console.warn(nativeSkipReason);

  it("1,000 random samples: the same statuses, parameters within 1e-10, nllh and SEs within 1e-9", () => {
    const { x, offsets } = batch(1000);
    const a = gevFitBatch(nativeBackend!, x, offsets),
      b = gevFitBatch(wasmBackend, x, offsets);
    let ok = 0;
    for (let k = 0; k < 1000; k++) {
      expect(b.status[k]).toBe(a.status[k]);
      if (a.status[k] !== 0) continue;
      ok++;
      const o = k * GEV_OUT;
      const scale = a.out[o + 1];
      // Location and scale relative to the scale, the shape absolutely.
      expect(Math.abs(a.out[o] - b.out[o]) / scale).toBeLessThanOrEqual(1e-10);
      expect(Math.abs(a.out[o + 1] - b.out[o + 1]) / scale).toBeLessThanOrEqual(1e-10);
      expect(Math.abs(a.out[o + 2] - b.out[o + 2])).toBeLessThanOrEqual(1e-10);
      expect(Math.abs(a.out[o + 3] - b.out[o + 3])).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(a.out[o + 3])));
      for (const j of [4, 7, 9]) expect(Math.abs(Math.sqrt(a.out[o + j]) / Math.sqrt(b.out[o + j]) - 1)).toBeLessThanOrEqual(1e-9);
    }
    expect(ok).toBeGreaterThan(990);
  });

  it("rejects short buffers and bad offsets with BAD_ARGUMENT on both backends", () => {
    const x = Float64Array.from([1, 2, 3, 4, 5, 6]);
    const good = () => [x, Int32Array.from([0, 3, 6]), 2, 100, new Float64Array(2 * GEV_OUT), new Int32Array(4)];
    for (const backend of [nativeBackend!, wasmBackend]) {
      expect(backend.run(GEV, good())).toBe(Status.OK);
      for (const [i, v] of [
        [0, new Float64Array(5)],
        [1, Int32Array.from([0, 3])],
        [4, new Float64Array(2 * GEV_OUT - 1)],
        [5, new Int32Array(3)],
        [1, Int32Array.from([0, 4, 3])],
        [3, 0],
      ] as const) {
        const args = good();
        args[i] = v;
        expect(backend.run(GEV, args)).toBe(Status.BAD_ARGUMENT);
      }
    }
  });
});
