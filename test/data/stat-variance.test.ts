// Jackknife sampling variances of each configuration's statistic (ts/data/stat-variance.ts): exact for the mean
// (s²/n), close to the normal-theory value for an sd, NaN below three runs, and carried onto the maps by loadDataset.
import { describe, expect, it } from "vitest";
import { jackknifeVariances } from "../../ts/data/stat-variance.js";
import { counterRng } from "../../ts/data/random.js";
import { loadDataset } from "../../ts/data/load.js";
import { tQuantile } from "../../ts/data/stats.js";
import { dataPath, hasShared, sharedSkipReason } from "../helpers/shared.js";

function table(groups: number[][]) {
  const offsets = new Int32Array(groups.length + 1);
  groups.forEach((g, i) => (offsets[i + 1] = offsets[i] + g.length));
  return { count: groups.length, runs: Float64Array.from(groups.flat()), offsets };
}

describe("jackknife variances of a configuration's statistic", () => {
  it("mean: equals s²/n exactly (to rounding); fewer than 3 runs: NaN", () => {
    const x = [3, 1, 4, 1, 5, 9, 2, 6];
    const n = x.length;
    const m = x.reduce((a, b) => a + b) / n;
    const s2 = x.reduce((a, b) => a + (b - m) ** 2, 0) / (n - 1);
    const v = jackknifeVariances(table([x, [1, 2]]), "mean");
    expect(v[0]).toBeCloseTo(s2 / n, 12);
    expect(v[1]).toBeNaN();
  });

  it("sd of normal runs: near σ²/(2(n − 1)); of a bimodal distribution (kurtosis ~1): far smaller", () => {
    const r = counterRng(5, "jackknife-test");
    const n = 4000;
    const normal = Array.from({ length: n }, () => r.normal());
    const bimodal = Array.from({ length: n }, (_, i) => (i % 2 ? 1 : -1) + 0.05 * r.normal());
    const [vn, vb] = jackknifeVariances(table([normal, bimodal]), "sd");
    expect(vn / (1 / (2 * (n - 1)))).toBeGreaterThan(0.8);
    expect(vn / (1 / (2 * (n - 1)))).toBeLessThan(1.25);
    // var(s) ≈ σ² (κ − 1) / (4n): κ ≈ 1 for two equal spikes, so a few percent of the normal value.
    expect(vb).toBeLessThan(0.1 * vn);
  });

  it("the O(n) leave-one-out moments equal recomputing each statistic without run i (mean, var, sd, cv, ci90)", () => {
    const r = counterRng(7, "jackknife-test");
    const x = Array.from({ length: 37 }, () => 2e5 + 3e4 * r.normal());
    const n = x.length;
    const stat = (s: number[], name: string): number => {
      const k = s.length;
      const mean = s.reduce((a, b) => a + b) / k;
      const v = s.reduce((a, b) => a + (b - mean) ** 2, 0) / (k - 1);
      if (name === "mean") return mean;
      if (name === "var") return v;
      if (name === "sd") return Math.sqrt(v);
      if (name === "cv") return Math.sqrt(v) / mean;
      return (2 * tQuantile(0.95, k - 1) * Math.sqrt(v)) / Math.sqrt(k);
    };
    for (const name of ["mean", "var", "sd", "cv", "ci90"] as const) {
      const theta = x.map((_, i) =>
        stat(
          x.filter((_, k) => k !== i),
          name,
        ),
      );
      const tm = theta.reduce((a, b) => a + b) / n;
      const direct = ((n - 1) / n) * theta.reduce((a, b) => a + (b - tm) ** 2, 0);
      const [v] = jackknifeVariances(table([x]), name);
      expect(Math.abs(v - direct) / direct, name).toBeLessThan(1e-6);
    }
  });

  it("every statistic gives finite nonnegative variances", () => {
    const r = counterRng(6, "jackknife-test");
    const g = [Array.from({ length: 40 }, () => 1 + r.next()), Array.from({ length: 12 }, () => 5 + r.normal())];
    for (const stat of ["sd", "var", "mean", "q10", "q90", "ci90", "cv"] as const)
      for (const v of jackknifeVariances(table(g), stat)) expect(v >= 0 && Number.isFinite(v), stat).toBe(true);
  });
});

describe.skipIf(!hasShared)(`maps carry the variances${hasShared ? "" : " — " + sharedSkipReason}`, () => {
  it("the fread runs: one variance per configuration, a wide spread of var(log sd) across configurations", async () => {
    const { maps } = await loadDataset(dataPath("moana-cfq-noop-fread.csv"), { preset: "moana" });
    const m = maps[0];
    expect(m.yVar).toHaveLength(m.rows);
    const rel = Array.from(m.yVar!, (v, i) => v / m.y[i] ** 2).sort((a, b) => a - b);
    expect(rel.every((v) => v > 0 && Number.isFinite(v))).toBe(true);
    expect(rel[Math.floor(0.95 * rel.length)] / rel[Math.floor(0.05 * rel.length)]).toBeGreaterThan(10);
  });
});
