// Runs needed (spec D.4 test 1) and Pareto fronts (D.4 test 2), and the objective ranking around them.
import { describe, expect, it } from "vitest";
import { meanRunsNeededCI } from "../../ts/mixture/runs-needed.js";
import { tQuantile } from "../../ts/data/stats.js";
import { RunsNeededTable, tQuantileLargeNu, CORNISH_FISHER_NU } from "../../ts/whatif/runs.js";
import { paretoFronts, paretoFrontsBrute } from "../../ts/whatif/pareto.js";
import { evaluate, parseObjective, parsePareto, rankBy } from "../../ts/whatif/objective.js";
import { throughputEvaluation } from "../helpers/whatif.js";
import { normQuantile } from "../../ts/mixture/families.js";
import { rng } from "../helpers/backends.js";

describe("runs needed (A.2.5 CI rule)", () => {
  it("gives 3, 18, 64, 387 runs for CV 0.02, 0.1, 0.2, 0.5 at ±5%, 95%", () => {
    const t = new RunsNeededTable(0.05, 0.95);
    expect([0.02, 0.1, 0.2, 0.5].map((cv) => t.runsNeeded(cv))).toEqual([3, 18, 64, 387]);
  });

  it("equals meanRunsNeededCI wherever the exact t quantiles are used", () => {
    const r = rng(7);
    for (const [eps, level] of [
      [0.05, 0.95],
      [0.02, 0.9],
      [0.1, 0.99],
    ]) {
      const t = new RunsNeededTable(eps, level);
      const cvMax = (eps * Math.sqrt(CORNISH_FISHER_NU)) / normQuantile(1 - (1 - level) / 2);
      for (let i = 0; i < 400; i++) {
        const cv = r() * cvMax;
        expect(t.runsNeeded(cv), `cv ${cv}`).toBe(meanRunsNeededCI(cv, eps, level));
      }
    }
    const t = new RunsNeededTable(0.05, 0.95);
    expect(t.runsNeeded(0)).toBe(2);
    expect(t.runsNeeded(-1)).toBeNaN();
    expect(t.runsNeeded(NaN)).toBeNaN();
    expect(t.runsNeeded(1e6)).toBe(Infinity);
  });

  it("meets the rule beyond, with the Cornish–Fisher t quantile (within 1e-10 of the bisection)", () => {
    const z = normQuantile(0.975);
    for (const nu of [CORNISH_FISHER_NU, 5000, 20000]) expect(Math.abs(tQuantileLargeNu(z, nu) / tQuantile(0.975, nu) - 1)).toBeLessThan(1e-10);
    const t = new RunsNeededTable(0.05, 0.95);
    for (const cv of [1.5, 3, 10]) {
      const m = t.runsNeeded(cv);
      expect((tQuantileLargeNu(z, m - 1) * cv) / Math.sqrt(m)).toBeLessThanOrEqual(0.05);
      expect((tQuantileLargeNu(z, m - 2) * cv) / Math.sqrt(m - 1)).toBeGreaterThan(0.05);
    }
  });

  it("rejects ε ≤ 0 and levels outside (0, 1) with E_USAGE", () => {
    for (const [eps, level] of [
      [0, 0.95],
      [-0.1, 0.95],
      [0.05, 1],
      [0.05, 0],
      [NaN, 0.95],
    ])
      expect(() => new RunsNeededTable(eps, level)).toThrow(expect.objectContaining({ code: "E_USAGE" }));
  });
});

describe("Pareto fronts", () => {
  // Both criteria minimized. Front 1: A(1,5), B(2,3), C(4,1), and D = a duplicate of B; E(2,4) is dominated by B
  // only (same first, worse second); F(3,3) by B (worse first, same second); G(4,4); H(5,5); I(NaN) left out.
  const a = [1, 2, 4, 2, 2, 3, 4, 5, NaN];
  const b = [5, 3, 1, 3, 4, 3, 4, 5, 1];
  it("sorts a hand-made set with ties and duplicates into its known fronts", () => {
    expect(Array.from(paretoFronts(a, b))).toEqual([1, 1, 1, 1, 2, 2, 3, 4, 0]);
    expect(Array.from(paretoFrontsBrute(a, b))).toEqual([1, 1, 1, 1, 2, 2, 3, 4, 0]);
  });

  it("equals the O(n²) definition on random sets with many ties", () => {
    const r = rng(3);
    for (let rep = 0; rep < 30; rep++) {
      const n = 1 + Math.floor(r() * 200);
      const x = Array.from({ length: n }, () => Math.floor(r() * 12));
      const y = Array.from({ length: n }, () => Math.floor(r() * 12));
      expect(Array.from(paretoFronts(x, y))).toEqual(Array.from(paretoFrontsBrute(x, y)));
    }
  });
});

describe("objectives, constraints and ranking", () => {
  const base = throughputEvaluation;
  it("ranks by the objective with ties by candidate order, flags invalid predictions and applies constraints", () => {
    const mean = Float64Array.from([10, 20, 20, -1, 30, 25]);
    const sd = Float64Array.from([1, 2, 4, 1, -0.5, 5]);
    const e = evaluate({ mean, spread: sd }, base({ maxCv: 0.15 }));
    expect(Array.from(e.invalid)).toEqual([0, 0, 0, 1, 1, 0]);
    expect(Array.from(e.cv).slice(0, 3)).toEqual([0.1, 0.1, 0.2]);
    // Feasible: 0, 1 (cv 0.1); 2 (cv 0.2) and 5 (cv 0.2) break --max-cv.
    expect(Array.from(e.rank)).toEqual([2, 1, 0, 0, 0, 0]);
    expect(Array.from(e.runs).slice(0, 3)).toEqual([18, 18, 64]);
    const tie = rankBy([5, 7, 7, 1], "max", Uint8Array.from([1, 1, 1, 1]));
    expect(Array.from(tie)).toEqual([3, 1, 2, 4]);
  });

  it("costs runs × seconds per run, or runs × the predicted time", () => {
    const mean = Float64Array.from([10, 20]);
    const sd = Float64Array.from([1, 10]);
    const thr = evaluate({ mean, spread: sd }, base({ secondsPerRun: 3, objective: parseObjective("min-cost", "sd") }));
    expect(Array.from(thr.cost)).toEqual([54, 3 * 387]);
    const time = evaluate({ mean, spread: sd }, base({ responseKind: "time", objective: parseObjective("min-cost", "sd") }));
    expect(Array.from(time.cost)).toEqual([180, 20 * 387]);
    expect(Array.from(time.rank)).toEqual([1, 2]);
  });

  it("takes runs needed from a runs model when given (at least 2, rounded up; negative = invalid)", () => {
    const mean = Float64Array.from([10, 10, 10]);
    const sd = Float64Array.from([1, 1, 1]);
    const e = evaluate({ mean, spread: sd, runs: Float64Array.from([7.2, 0.5, -1]) }, base({ objective: parseObjective("min-runs", "sd") }));
    expect(Array.from(e.runs).slice(0, 2)).toEqual([8, 2]);
    expect(Array.from(e.invalid)).toEqual([0, 0, 1]);
    expect(Array.from(e.rank)).toEqual([2, 1, 0]);
  });

  it("parses objectives and Pareto criteria, rejecting unknown or unavailable ones", () => {
    const o = parseObjective("min-q90", "q90");
    expect(o).toEqual({ name: "q90", direction: "min" });
    expect(parsePareto("mean,cv", parseObjective("max-mean", "sd"), "throughput", "sd")).toEqual([
      { name: "mean", direction: "max" },
      { name: "cv", direction: "min" },
    ]);
    expect(parsePareto("mean,runs", parseObjective("min-cost", "sd"), "time", "sd")[0]).toEqual({ name: "mean", direction: "min" });
    for (const bad of ["best", "max-speed", "min-q90"]) expect(() => parseObjective(bad, "sd")).toThrow(expect.objectContaining({ code: "E_USAGE" }));
    expect(() => parseObjective("min-cv", "q90")).toThrow(expect.objectContaining({ code: "E_USAGE" }));
    expect(() => parsePareto("mean", o, "time", "q90")).toThrow(expect.objectContaining({ code: "E_USAGE" }));
  });
});
