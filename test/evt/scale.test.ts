// Issue 44 item 14: GEV fits are scale-equivariant. Runs ×1e298 used to come back `unbounded` and ×1e-300
// `not_converged`; each sample is now fitted on a standardized scale (divided by a power of two) and scaled back.
import { describe, expect, it } from "vitest";
import { DEFAULT_GEV_OPTIONS, fitGevConfigs } from "../../ts/evt/configs.js";
import { fitGev, gevScale } from "../../ts/evt/gev.js";
import { rng, selected } from "../helpers/backends.js";

function sample(n: number, seed: number): Float64Array {
  const r = rng(seed);
  return Float64Array.from({ length: n }, () => 100 - 10 * Math.log(-Math.log(r())));
}

describe("GEV on extreme scales", () => {
  it("loc and scale follow a factor of 1e298 or 1e-300, shape and flags do not change", () => {
    const x = sample(80, 3);
    const base = fitGevConfigs(selected, x, Int32Array.from([0, 80]), 0, 1, DEFAULT_GEV_OPTIONS)[0];
    expect(base.flag).toBe("");
    for (const f of [1e298, 1e-300, 2 ** 70]) {
      const y = x.map((v) => v * f);
      const r = fitGevConfigs(selected, y, Int32Array.from([0, 80]), 0, 1, DEFAULT_GEV_OPTIONS)[0];
      expect(r.flag, `×${f}`).toBe("");
      for (const c of ["loc", "scale", "se_loc", "se_scale"]) expect((r.cells[c] as number) / f / (base.cells[c] as number)).toBeCloseTo(1, 9);
      for (const c of ["shape", "se_shape", "lr_stat", "ks"]) expect(r.cells[c] as number).toBeCloseTo(base.cells[c] as number, 9);
      const one = fitGev(selected, y);
      expect(one.status).toBe("ok");
      expect(one.params.loc / f / (base.cells.loc as number)).toBeCloseTo(1, 9);
    }
  });

  it("samples in the kernel's comfortable range are fitted as they are (the same bits as before)", () => {
    expect(gevScale(sample(50, 1))).toBe(1);
    expect(gevScale([5, 5, 5])).toBe(1);
    expect(gevScale([1e298, 3e298])).toBe(2 ** Math.round(Math.log2(2e298)));
  });
});
