// MAP EM (issue #17): --prior-strength s puts a weak prior on every component's scale. s = 0 is maximum likelihood,
// bit for bit; s > 0 keeps components from collapsing onto a few runs, leaves a single normal/lognormal as it is,
// and computes the same optimum in both backends.
import { describe, expect, it } from "vitest";
import { FAMILY_CODES, mixtureFit, type MixtureBatchResult } from "../../ts/backend/kernels/mixture.js";
import { parsePriorStrength } from "../../ts/mixture/fit.js";
import { FAMILY_NAMES } from "../../ts/mixture/families.js";
import { Mixture } from "../../ts/mixture/model.js";
import { nativeBackend, nativeSkipReason, rng, selected, wasmBackend } from "../helpers/backends.js";

const ALL_MODELS = FAMILY_NAMES.flatMap((f) => [1, 2, 3, 4].map((k) => [FAMILY_CODES[f], k] as const));

/** A broad mode, a narrow one, and two runs 1e-6 apart that an ML component can sit on. */
function spiky(seed: number): Float64Array {
  const x = Array.from(new Mixture("normal", [0.7, 0.3], [100, 130], [4, 1.5]).sample(120, rng(seed)));
  x.push(90, 90.0000001, 115.5, 115.5000002);
  return Float64Array.from(x);
}
const fields = ["loglik", "bic", "iterations", "converged", "floorBound", "params", "resolution", "work"] as const;
const bytes = (r: MixtureBatchResult) => fields.map((f) => Buffer.from(r[f].buffer).toString("base64"));

describe(`MAP EM on ${selected.name}`, () => {
  it("strength 0 is maximum likelihood: every output byte-identical to a call without the prior", () => {
    const x = spiky(1);
    const input = { runs: x, offsets: Int32Array.from([0, x.length]), models: ALL_MODELS };
    expect(bytes(mixtureFit(selected, { ...input, priorStrength: 0 }))).toEqual(bytes(mixtureFit(selected, input)));
  });

  it("a single normal or lognormal keeps its ML scale (the prior's spread is the data's variance)", () => {
    const x = spiky(2);
    const models = [
      [FAMILY_CODES.normal, 1],
      [FAMILY_CODES.lognormal, 1],
    ] as const;
    const input = { runs: x, offsets: Int32Array.from([0, x.length]), models };
    const ml = mixtureFit(selected, input);
    const map = mixtureFit(selected, { ...input, priorStrength: 3 });
    for (let i = 0; i < ml.params.length; i++) expect(Math.abs(map.params[i] - ml.params[i])).toBeLessThanOrEqual(1e-12 * Math.abs(ml.params[i]));
  });

  it("components cannot collapse: sd² ≥ s·(variance/k²)/(n + s) in the family's domain (normal, lognormal)", () => {
    const x = spiky(3);
    const n = x.length;
    const s = 2;
    const mean = x.reduce((a, v) => a + v, 0) / n;
    const ly = Array.from(x, (v) => Math.log(v / mean));
    const my = ly.reduce((a, v) => a + v, 0) / n;
    const varx = x.reduce((a, v) => a + (v / mean - 1) ** 2, 0) / n; // runs scaled to mean 1, as the kernel
    const vary = ly.reduce((a, v) => a + (v - my) ** 2, 0) / n;
    const models = [3, 4].flatMap((k) => [[FAMILY_CODES.normal, k] as const, [FAMILY_CODES.lognormal, k] as const]);
    const input = { runs: x, offsets: Int32Array.from([0, n]), models };
    const ml = mixtureFit(selected, input);
    const map = mixtureFit(selected, { ...input, priorStrength: s });
    let mlBelow = 0;
    models.forEach(([f, k], m) => {
      const sd = (r: MixtureBatchResult) => Array.from(r.params.subarray(m * r.pstride + 2 * k, m * r.pstride + 3 * k));
      // normal sd is in original units (scaled runs × mean), lognormal sigma is on log x
      const bound = f === FAMILY_CODES.normal ? Math.sqrt((s * varx) / (k * k) / (n + s)) * mean : Math.sqrt((s * vary) / (k * k) / (n + s));
      for (const v of sd(map)) expect(v, `${FAMILY_NAMES[f]} k=${k}`).toBeGreaterThanOrEqual(bound * (1 - 1e-12));
      mlBelow += sd(ml).filter((v) => v < bound).length;
    });
    expect(mlBelow, "the ML fits do put a component on the near-tied runs (else this test shows nothing)").toBeGreaterThan(0);
  });

  it("location-scale families of log x: the smallest sigma grows with the strength", () => {
    const x = spiky(4);
    const models = (["weibull", "loglogistic", "frechet"] as const).map((f) => [FAMILY_CODES[f], 4] as const);
    const input = { runs: x, offsets: Int32Array.from([0, x.length]), models };
    const fits = [0, 1, 8].map((s) => mixtureFit(selected, { ...input, priorStrength: s }));
    models.forEach((_, m) => {
      const minSigma = fits.map((r) => Math.min(...r.params.subarray(m * r.pstride + 8, m * r.pstride + 12)));
      expect(minSigma[1], FAMILY_NAMES[models[m][0]]).toBeGreaterThan(minSigma[0]);
      expect(minSigma[2]).toBeGreaterThan(minSigma[1]);
      // the reported log L is the likelihood at the MAP parameters: finite, below the ML optimum (which the spike
      // on the near-tied runs inflates)
      expect(Number.isFinite(fits[1].loglik[m])).toBe(true);
      expect(fits[1].loglik[m]).toBeLessThanOrEqual(fits[0].loglik[m] + 1e-9 * Math.abs(fits[0].loglik[m]));
    });
  });

  it("rejects a negative or non-finite strength before fitting", () => {
    const input = { runs: Float64Array.from([1, 2, 3]), offsets: Int32Array.from([0, 3]), models: [[0, 1] as const] };
    expect(() => mixtureFit(selected, { ...input, priorStrength: -1 })).toThrow(/prior strength/);
    expect(() => mixtureFit(selected, { ...input, priorStrength: Number.NaN })).toThrow(/prior strength/);
    expect(parsePriorStrength(undefined, 0)).toBe(0);
    expect(parsePriorStrength("2.5", 0)).toBe(2.5);
    for (const bad of ["-1", "x", "", "Infinity"]) expect(() => parsePriorStrength(bad, 0)).toThrow(/--prior-strength/);
  });
});

describe("MAP EM parity native vs wasm", () => {
  it.skipIf(!nativeBackend)(`the same fits with the prior on${nativeBackend ? "" : " — " + nativeSkipReason}`, () => {
    const x = spiky(5);
    const input = { runs: x, offsets: Int32Array.from([0, x.length]), models: ALL_MODELS, priorStrength: 1 };
    const a = mixtureFit(nativeBackend!, input);
    const b = mixtureFit(wasmBackend, input);
    ALL_MODELS.forEach(([f, k], i) => {
      // gamma's M-step uses library log/lgamma pieces (last-bit differences EM can carry), as in the ML parity test
      expect(Math.abs(a.loglik[i] - b.loglik[i]) / Math.abs(a.loglik[i]), `${FAMILY_NAMES[f]} k=${k}`).toBeLessThanOrEqual(1e-9);
    });
  });
});
