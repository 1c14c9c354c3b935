// The mixture kernel: known answers, status codes, independence from batching, native-vs-wasm parity.
import { describe, expect, it } from "vitest";
import { FAMILY_CODES, MIXTURE_FIT, mixtureFit } from "../../ts/backend/kernels/mixture.js";
import { Status } from "../../ts/backend/status.js";
import { FAMILIES, FAMILY_NAMES } from "../../ts/mixture/families.js";
import { Mixture } from "../../ts/mixture/model.js";
import { nativeBackend, nativeSkipReason, rng, selected, wasmBackend } from "../helpers/backends.js";
import { hasShared } from "../helpers/shared.js";
import { pickIozone, readIozone } from "./iozone.js";

const ALL_MODELS = FAMILY_NAMES.flatMap((f) => [1, 2, 3].map((k) => [FAMILY_CODES[f], k] as const));

function sample(seed: number, n: number): Float64Array {
  return new Mixture("normal", [0.5, 0.5], [100, 120], [3, 4]).sample(n, rng(seed));
}

describe(`mixtureFit on ${selected.name}`, () => {
  it("k = 1 equals the closed-form MLE (normal, lognormal) and the log-likelihood is on the original scale", () => {
    const x = sample(1, 200);
    const n = x.length;
    const r = mixtureFit(selected, {
      runs: x,
      offsets: Int32Array.from([0, n]),
      models: [
        [0, 1],
        [3, 1],
      ],
    });
    const mean = x.reduce((s, v) => s + v, 0) / n;
    const sd = Math.sqrt(x.reduce((s, v) => s + (v - mean) ** 2, 0) / n);
    expect(r.params[1]).toBeCloseTo(mean, 9);
    expect(r.params[2] / sd).toBeCloseTo(1, 12);
    const ll = new Mixture("normal", [1], [mean], [sd]).loglik(x);
    expect(Math.abs(r.loglik[0] - ll)).toBeLessThan(1e-9 * Math.abs(ll));
    expect(r.bic[0]).toBeCloseTo(-2 * r.loglik[0] + 2 * Math.log(n), 9);
    const ly = Array.from(x, Math.log);
    const m = ly.reduce((s, v) => s + v, 0) / n;
    const s = Math.sqrt(ly.reduce((t, v) => t + (v - m) ** 2, 0) / n);
    const p = r.params.subarray(r.pstride, 2 * r.pstride);
    expect(p[1]).toBeCloseTo(m, 12);
    expect(p[2] / s).toBeCloseTo(1, 12);
    expect(Math.abs(r.loglik[1] - new Mixture("lognormal", [1], [m], [s]).loglik(x))).toBeLessThan(1e-9 * Math.abs(r.loglik[1]));
  });

  it("every family's reported log-likelihood equals the TypeScript mixture density at the reported parameters", () => {
    const x = sample(2, 300);
    const r = mixtureFit(selected, { runs: x, offsets: Int32Array.from([0, x.length]), models: ALL_MODELS });
    ALL_MODELS.forEach(([f, k], m) => {
      const p = r.params.subarray(m * r.pstride, m * r.pstride + 3 * k);
      const mix = new Mixture(FAMILY_NAMES[f], Array.from(p.subarray(0, k)), Array.from(p.subarray(k, 2 * k)), Array.from(p.subarray(2 * k)));
      expect(Math.abs(mix.loglik(x) - r.loglik[m]), `${FAMILY_NAMES[f]} k=${k}`).toBeLessThan(1e-8 * Math.abs(r.loglik[m]));
      expect(p.subarray(0, k).reduce((s, v) => s + v, 0)).toBeCloseTo(1, 12);
    });
    // more components never fit worse (the (k-1) fit is one of the starts of k)
    for (let f = 0; f < 6; f++)
      for (let k = 1; k < 3; k++) expect(r.loglik[f * 3 + k]).toBeGreaterThanOrEqual(r.loglik[f * 3 + k - 1] - 1e-9 * Math.abs(r.loglik[f * 3]));
  });

  it("does not depend on batching: configurations fitted together or alone, in any order, give identical results", () => {
    const a = sample(3, 60),
      b = sample(4, 90),
      c = sample(5, 45);
    const runs = Float64Array.from([...a, ...b, ...c]);
    const together = mixtureFit(selected, { runs, offsets: Int32Array.from([0, 60, 150, 195]), configIds: Int32Array.from([7, 8, 9]), models: ALL_MODELS });
    const alone = mixtureFit(selected, { runs: b, offsets: Int32Array.from([0, 90]), configIds: Int32Array.from([8]), models: [...ALL_MODELS].reverse() });
    const nm = ALL_MODELS.length;
    for (let m = 0; m < nm; m++) {
      expect(alone.loglik[nm - 1 - m]).toBe(together.loglik[nm + m]);
      expect(alone.iterations[nm - 1 - m]).toBe(together.iterations[nm + m]);
    }
  });

  it("floors the scale on tied runs and reports it", () => {
    const x = Float64Array.from([...Array(20).fill(10), 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
    const r = mixtureFit(selected, {
      runs: x,
      offsets: Int32Array.from([0, x.length]),
      models: [
        [0, 2],
        [3, 2],
        [1, 2],
      ],
    });
    expect(r.resolution[0]).toBeCloseTo(1, 12);
    for (let m = 0; m < 3; m++) {
      expect(Number.isFinite(r.loglik[m])).toBe(true);
      expect(r.floorBound[m]).toBe(1);
    }
    expect(r.params[2 * 2]).toBeCloseTo(1, 12); // normal: the spike's sd is the resolution
  });

  it("returns status codes for bad input", () => {
    const out = (nr: number, ps = 3) => [
      new Float64Array(nr),
      new Float64Array(nr),
      new Int32Array(nr),
      new Uint8Array(nr),
      new Uint8Array(nr),
      new Float64Array(nr * ps),
      new Float64Array(2),
      new Float64Array(nr),
    ];
    const call = (runs: number[], models: number[], strategy = 0, prior = 0) =>
      selected.run(MIXTURE_FIT, [
        Float64Array.from(runs),
        Int32Array.from([0, runs.length]),
        1,
        Int32Array.from([0]),
        Int32Array.from(models),
        models.length / 2,
        1,
        5,
        2000,
        1e-10,
        3,
        strategy,
        prior,
        ...out(models.length / 2),
      ]);
    expect(call([1, 2, 3], [0, 1], 3)).toBe(Status.BAD_ARGUMENT); // strategies are 0 (full), 1 (partitions), 2 (raced)
    expect(call([1, 2, 3], [0, 1], 0, -1)).toBe(Status.BAD_ARGUMENT); // prior strength ≥ 0 and finite
    expect(call([1, 2, 3], [0, 1], 0, Infinity)).toBe(Status.BAD_ARGUMENT);
    expect(call([1, 2, 0], [0, 1])).toBe(10);
    expect(call([1, 2, -3], [0, 1])).toBe(10);
    expect(call([1, 2, 3], [6, 1])).toBe(11);
    expect(call([1, 2, 3], [0, 2])).toBe(11); // 3k > pstride
    expect(call([1], [0, 1])).toBe(12);
    expect(call([1, NaN, 3], [0, 1])).toBe(Status.NONFINITE);
    expect(() => mixtureFit(selected, { runs: Float64Array.from([1, 0]), offsets: Int32Array.from([0, 2]), models: [[0, 1]] })).toThrow(/zero or negative/);
    expect(() =>
      mixtureFit(selected, { runs: Float64Array.from([1, 2]), offsets: Int32Array.from([0, 2]), models: [[0, 1]], starts: "fast" as never }),
    ).toThrow(/full, raced or partitions/);
  });

  it.skipIf(!hasShared)("raced starts give up trailing starts: less work, nearly always the same optima", () => {
    const batch = pickIozone(readIozone(), [3, 40, 77, 120, 160, 201, 240, 270]);
    const offsets = batch.offsets;
    const models = FAMILY_NAMES.flatMap((f) => [1, 2, 3, 4, 5].map((k) => [FAMILY_CODES[f], k] as const));
    const input = { ...batch, models };
    const full = mixtureFit(selected, input);
    const raced = mixtureFit(selected, { ...input, starts: "raced" });
    const sum = (v: Float64Array) => v.reduce((s, x) => s + x, 0);
    let within = 0;
    for (let i = 0; i < full.loglik.length; i++) {
      const n = offsets[Math.floor(i / models.length) + 1] - offsets[Math.floor(i / models.length)];
      if (raced.loglik[i] >= full.loglik[i] - 1e-6 * n) within++;
      if (models[i % models.length][1] === 1) expect(raced.loglik[i]).toBe(full.loglik[i]); // one start: nothing to race
    }
    console.log(
      `raced: ${(sum(raced.work) / sum(full.work)).toFixed(2)} of the work; ${within} of ${full.loglik.length} fits within 1e-6 n of the full search`,
    );
    expect(sum(raced.work)).toBeLessThan(0.9 * sum(full.work));
    expect(within / full.loglik.length).toBeGreaterThanOrEqual(0.95);
  });
});

describe("families (TypeScript)", () => {
  it("cdf(quantile(p)) = p and the density is the derivative of the CDF", () => {
    for (const f of FAMILY_NAMES) {
      const fam = FAMILIES[f];
      const [a, b] = f === "normal" ? [100, 7] : f === "gamma" ? [30, 3] : [Math.log(100), 0.1];
      for (const p of [0.01, 0.1, 0.5, 0.9, 0.99]) {
        const q = fam.quantile(p, a, b);
        expect(Math.abs(fam.cdf(q, a, b) - p), `${f} p=${p}`).toBeLessThan(1e-9);
        const h = 1e-4 * q;
        const d = (fam.cdf(q + h, a, b) - fam.cdf(q - h, a, b)) / (2 * h);
        expect(Math.abs(d / Math.exp(fam.logpdf(q, a, b)) - 1), `${f} pdf at p=${p}`).toBeLessThan(1e-5);
      }
    }
  });

  it("a fitted Mixture's quantile inverts its cdf and its samples follow it", () => {
    const m = new Mixture("gamma", [0.3, 0.7], [40, 90], [2.5, 1.5]);
    for (const p of [0.05, 0.5, 0.95]) expect(Math.abs(m.cdf(m.quantile(p)) - p)).toBeLessThan(1e-9);
    const x = m.sample(5000, rng(9));
    const below = x.filter((v) => v <= m.quantile(0.3)).length / x.length;
    expect(Math.abs(below - 0.3)).toBeLessThan(0.03);
    expect(Mixture.fromJSON(JSON.parse(JSON.stringify(m.toJSON()))).cdf(100)).toBe(m.cdf(100));
  });
});

describe("mixtureFit parity native vs wasm", () => {
  it.skipIf(!nativeBackend || !hasShared)(
    `reaches the same optimum on 6 real configurations × 30 models, full and raced starts${nativeBackend ? "" : " — " + nativeSkipReason}`,
    () => {
      // Tolerance: log-likelihood within 1e-9 relative. The per-run exp/log are the kernels' own polynomials (the
      // same bits in both backends); gamma's M-step still calls the libraries' log/exp/lgamma pieces, whose last-bit
      // differences EM can carry along a flat likelihood (worst seen over all 274 configurations: 5e-14).
      const pick = [0, 40, 90, 140, 200, 273];
      const batch = pickIozone(readIozone(), pick);
      const models = FAMILY_NAMES.flatMap((f) => [1, 2, 3, 4, 5].map((k) => [FAMILY_CODES[f], k] as const));
      let worst = 0,
        worstGamma = 0;
      for (const starts of ["full", "raced"] as const) {
        const input = { ...batch, models, starts };
        const a = mixtureFit(nativeBackend!, input);
        const b = mixtureFit(wasmBackend, input);
        for (let i = 0; i < a.loglik.length; i++) {
          const fam = models[i % models.length][0];
          const rel = Math.abs(a.loglik[i] - b.loglik[i]) / Math.abs(a.loglik[i]);
          if (fam === 1) worstGamma = Math.max(worstGamma, rel);
          else worst = Math.max(worst, rel);
          expect(rel, `${starts}: config ${pick[Math.floor(i / models.length)]} ${FAMILY_NAMES[fam]} k=${models[i % models.length][1]}`).toBeLessThanOrEqual(
            1e-9,
          );
        }
      }
      console.log(
        `parity (full and raced starts): worst relative log-likelihood difference ${worst.toExponential(2)} outside gamma, ${worstGamma.toExponential(2)} gamma`,
      );
    },
  );
});
