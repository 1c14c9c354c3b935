// Issue 17: selection criteria, the degeneracy guard, folds of runs and validation on held-back runs.
import { describe, expect, it } from "vitest";
import { fitMixtures } from "../../ts/mixture/fit.js";
import { Mixture } from "../../ts/mixture/model.js";
import {
  DEFAULT_GUARD,
  STRICT_GUARD,
  GUARD_OFF,
  foldBatch,
  guardVerdict,
  informationCriterion,
  parseCriterion,
  responsibilityEntropy,
  runFolds,
  runSpread,
} from "../../ts/mixture/select.js";
import { cvScores, isCatastrophic, selectModels, summarizeValidation, validateMixtures } from "../../ts/jobs/mixture-validate.js";
import { rng } from "../helpers/backends.js";
import { hasShared, sharedSkipReason } from "../helpers/shared.js";
import { pickIozone, readIozone } from "./iozone.js";

/** Configurations of normal runs around 100 (sd 3); `spike` adds a pair of identical runs far out. */
function batch(nconf: number, n: number, seed: number, spike = false): { runs: Float64Array; offsets: Int32Array; configIds: Int32Array } {
  const r = rng(seed);
  const runs: number[] = [];
  const offsets = [0];
  for (let c = 0; c < nconf; c++) {
    for (let i = 0; i < n; i++) {
      const z = Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r());
      runs.push(Math.round((100 + 3 * z) * 1000) / 1000);
    }
    if (spike) runs.push(140, 140);
    offsets.push(runs.length);
  }
  return { runs: Float64Array.from(runs), offsets: Int32Array.from(offsets), configIds: Int32Array.from({ length: nconf }, (_, i) => 10 + i) };
}

describe("folds of runs", () => {
  it("odd-even and halves are fixed 2-fold splits", () => {
    expect(Array.from(runFolds(5, "odd-even", 2, 1, 0))).toEqual([0, 1, 0, 1, 0]);
    expect(Array.from(runFolds(5, "halves", 2, 1, 0))).toEqual([0, 0, 0, 1, 1]);
  });
  it("random folds are balanced, keyed by (seed, configuration id) only", () => {
    const f = runFolds(23, "random", 5, 7, 42);
    const sizes = [0, 0, 0, 0, 0];
    for (const v of f) sizes[v]++;
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
    expect(Array.from(runFolds(23, "random", 5, 7, 42))).toEqual(Array.from(f));
    expect(Array.from(runFolds(23, "random", 5, 7, 43))).not.toEqual(Array.from(f));
    expect(Array.from(runFolds(23, "random", 5, 8, 42))).not.toEqual(Array.from(f));
  });
  it("foldBatch puts every run in exactly one held-back set", () => {
    const b = batch(3, 11, 1);
    const assign = [0, 1, 2].map((c) => runFolds(11, "random", 3, 1, c));
    let held = 0;
    for (let f = 0; f < 3; f++) {
      const fb = foldBatch(b.runs, b.offsets, assign, f);
      expect(fb.train.runs.length + fb.test.runs.length).toBe(33);
      held += fb.test.runs.length;
    }
    expect(held).toBe(33);
  });
});

describe("criteria", () => {
  it("ICL entropy: 0 for k = 1 and separated components, n log 2 for two identical halves", () => {
    const x = [1, 2, 3, 10, 11, 12];
    expect(responsibilityEntropy(new Mixture("normal", [1], [5], [2]), x)).toBe(0);
    expect(responsibilityEntropy(new Mixture("normal", [0.5, 0.5], [2, 11], [0.5, 0.5]), x)).toBeLessThan(1e-6);
    expect(responsibilityEntropy(new Mixture("normal", [0.5, 0.5], [6, 6], [3, 3]), x)).toBeCloseTo(6 * Math.log(2), 12);
  });
  it("BIC matches the kernel's, AIC and ICL follow their formulas", () => {
    const b = batch(1, 60, 3);
    const fit = fitMixtures(b.runs, b.offsets, { families: ["normal"], kmax: 2 });
    for (const r of fit.rows) {
      expect(informationCriterion(r, "bic", b.runs)).toBeCloseTo(r.bic, 8);
      expect(informationCriterion(r, "aic", b.runs)).toBeCloseTo(-2 * r.loglik + 2 * (3 * r.k - 1), 8);
      expect(informationCriterion(r, "icl", b.runs)).toBeCloseTo(r.bic + 2 * responsibilityEntropy(r.mixture, b.runs), 8);
    }
    expect(() => parseCriterion("hqc")).toThrow(/unknown --criterion/);
  });
});

describe("degeneracy guard", () => {
  const spread = { n: 100, resolution: 0.001, sd: 5 };
  it("strict: rejects a component with fewer than 10 expected runs or a scale below 10% of the sd", () => {
    expect(guardVerdict(new Mixture("normal", [0.97, 0.03], [100, 120], [5, 2]), spread, STRICT_GUARD)).toBe("count");
    expect(guardVerdict(new Mixture("normal", [0.9, 0.1], [100, 120], [5, 0.4]), spread, STRICT_GUARD)).toBe("scale"); // 0.4 < 10% of 5
    expect(guardVerdict(new Mixture("lognormal", [0.9, 0.1], [Math.log(100), Math.log(120)], [0.05, 3e-7]), spread, STRICT_GUARD)).toBe("scale");
    expect(guardVerdict(new Mixture("normal", [0.9, 0.1], [100, 120], [5, 0.6]), spread, STRICT_GUARD)).toBe("ok");
    expect(guardVerdict(new Mixture("normal", [0.97, 0.03], [100, 120], [5, 1e-9]), spread, GUARD_OFF)).toBe("ok");
    expect(guardVerdict(new Mixture("normal", [1], [100], [1e-9]), spread, DEFAULT_GUARD)).toBe("ok"); // k = 1 always eligible
  });
  it("default: rejects a component with fewer than 6 expected runs or a scale below max(2 × resolution, 1% of the sd)", () => {
    expect(guardVerdict(new Mixture("normal", [0.95, 0.05], [100, 120], [5, 2]), spread, DEFAULT_GUARD)).toBe("count"); // 5 runs
    expect(guardVerdict(new Mixture("normal", [0.94, 0.06], [100, 120], [5, 2]), spread, DEFAULT_GUARD)).toBe("ok"); // 6 runs
    expect(guardVerdict(new Mixture("normal", [0.9, 0.1], [100, 120], [5, 0.04]), spread, DEFAULT_GUARD)).toBe("scale"); // 0.04 < 1% of 5
    expect(guardVerdict(new Mixture("normal", [0.9, 0.1], [100, 120], [5, 0.4]), spread, DEFAULT_GUARD)).toBe("ok");
    const coarse = { n: 100, resolution: 0.5, sd: 5 };
    expect(guardVerdict(new Mixture("normal", [0.9, 0.1], [100, 120], [5, 0.9]), coarse, DEFAULT_GUARD)).toBe("scale"); // 0.9 < 2 × 0.5
  });
  it("runSpread: smallest gap between distinct runs and the sd", () => {
    const s = runSpread([3, 1, 1, 2.5, 7]);
    expect(s.resolution).toBe(0.5);
    expect(s.sd).toBeCloseTo(Math.sqrt(((3 - 2.9) ** 2 + 2 * 1.9 ** 2 + 0.4 ** 2 + 4.1 ** 2) / 4), 12);
  });
  it("keeps a two-run spike out of the chosen model where unguarded BIC takes it", async () => {
    const b = batch(4, 60, 5, true);
    const opts = { folds: 5, seed: 1, workers: 0, fit: { families: ["normal" as const], kmax: 3 } };
    const fit = fitMixtures(b.runs, b.offsets, { ...opts.fit, configIds: b.configIds });
    const off = await selectModels(b.runs, b.offsets, b.configIds, fit, { ...opts, criterion: "bic", guard: GUARD_OFF });
    const on = await selectModels(b.runs, b.offsets, b.configIds, fit, { ...opts, criterion: "bic", guard: DEFAULT_GUARD });
    const small = (i: number) => Math.min(...fit.rows[i].mixture.w) * fit.rows[i].n;
    expect(Array.from(off.chosen).some((i) => small(i) < 6)).toBe(true);
    for (const i of on.chosen) expect(fit.rows[i].k === 1 || small(i) >= 10).toBe(true);
    expect(on.guardBinds).toBeGreaterThan(0);
    expect(off.guardBinds).toBe(0);
    // the unguarded choice equals the kernel's BIC winner
    expect(Array.from(off.chosen)).toEqual(fit.rows.flatMap((r, i) => (r.best ? [i] : [])));
  });
});

describe("cv criterion and validation", () => {
  it("cv scores do not depend on the worker count", async () => {
    const b = batch(12, 30, 9);
    const o = { criterion: "cv" as const, guard: DEFAULT_GUARD, folds: 3, seed: 4, fit: { families: ["normal" as const, "lognormal" as const], kmax: 2 } };
    const one = await cvScores(b.runs, b.offsets, b.configIds, { ...o, workers: 0 });
    const two = await cvScores(b.runs, b.offsets, b.configIds, { ...o, workers: 2 });
    expect(Array.from(two)).toEqual(Array.from(one));
    expect(one.every((v) => Number.isFinite(v))).toBe(true);
  });
  it("scores held-back runs: singles are never catastrophic on normal data, the held-back mean is near the truth", async () => {
    const b = batch(6, 80, 11);
    const v = await validateMixtures(
      b.runs,
      b.offsets,
      b.configIds,
      "odd-even",
      2,
      [
        { name: "bic", criterion: "bic", guard: DEFAULT_GUARD },
        { name: "cv", criterion: "cv", guard: DEFAULT_GUARD },
      ],
      { folds: 4, seed: 1, workers: 0, fit: { families: ["normal", "lognormal"], kmax: 3 } },
    );
    const truth = -0.5 - Math.log(3) - 0.5 * Math.log(2 * Math.PI); // expected log density of N(100, 3²)
    for (const c of v.configs) {
      expect(c.chosen.bic.length).toBe(2);
      expect(isCatastrophic(c, "normal1")).toBe(false);
      expect(Math.abs(c.heldOut.normal1 - truth)).toBeLessThan(0.35);
    }
    const s = summarizeValidation(v);
    expect(s.map((a) => a.arm)).toEqual(["bic", "cv", "normal1", "lognormal1"]);
    expect(s.every((a) => a.catastrophic === 0)).toBe(true);
  });
});

describe.skipIf(!hasShared)(`guard on real IOzone runs${hasShared ? "" : " — " + sharedSkipReason}`, () => {
  it("on 40 configurations (odd/even runs) the strictly guarded BIC choice (all families, ML) is catastrophic no more often than unguarded BIC, and holds ≥ 10 expected runs per component", async () => {
    const d = pickIozone(
      readIozone(),
      Array.from({ length: 40 }, (_, i) => 3 + 6 * i),
    );
    const arms = [
      { name: "off", criterion: "bic" as const, guard: GUARD_OFF },
      { name: "on", criterion: "bic" as const, guard: STRICT_GUARD },
    ];
    const v = await validateMixtures(d.runs, d.offsets, d.configIds, "odd-even", 2, arms, { folds: 5, seed: 1, workers: 0, fit: { kmax: 5 } });
    const s = Object.fromEntries(summarizeValidation(v).map((a) => [a.arm, a]));
    expect(s.on.catastrophic).toBeLessThanOrEqual(s.off.catastrophic);
    expect(s.on.medianHeldOutPerRun).toBeGreaterThan(s.off.medianHeldOutPerRun);
    expect(v.guardBinds.on).toBeGreaterThan(0);
    const fit = fitMixtures(d.runs, d.offsets, { configIds: d.configIds });
    const sel = await selectModels(d.runs, d.offsets, d.configIds, fit, { criterion: "bic", guard: STRICT_GUARD, folds: 5, seed: 1, workers: 0, fit: {} });
    for (const i of sel.chosen) {
      const r = fit.rows[i];
      expect(r.k === 1 || Math.min(...r.mixture.w) * r.n >= 10).toBe(true);
    }
  });
});
