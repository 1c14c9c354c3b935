// `cv --target distribution` end to end on the job engine: outputs, parity across --workers and shards + merge,
// too_few_runs test configurations, resume (spawns the built CLI: run `npm run build` first).
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cliBuilt, cliIn } from "../helpers/cli.js";
import { rng } from "../helpers/backends.js";

const built = cliBuilt;
const dir = mkdtempSync(join(tmpdir(), "varmap-dist-cv-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const varmap = cliIn(dir, { VARMAP_QUIET: "1" });

/** Two maps on a 5 × 5 grid, 12 runs per configuration; configuration (1, 1) of map a has 3 runs. */
function writeRuns(path: string): void {
  const r = rng(9);
  const lines = ["host,freq,threads,run,tput"];
  for (const host of ["a", "b"])
    for (const f of [1, 2, 3, 4, 5])
      for (const t of [1, 2, 4, 8, 16]) {
        const n = host === "a" && f === 1 && t === 1 ? 3 : 12;
        for (let k = 0; k < n; k++) lines.push(`${host},${f},${t},${k},${100 * f + 20 * t + (3 + t) * (r() + r() + r() - 1.5) + (r() < 0.2 ? 200 : 0)}`);
      }
  writeFileSync(path, lines.join("\n") + "\n");
}

const cols = ["--factors", "host", "--inputs", "freq,threads", "--response", "tput", "--run", "run"];

describe.skipIf(!built)(`cv --target distribution${built ? "" : " — dist/ts/cli/main.js missing: run npm run build"}`, () => {
  const runs = join(dir, "runs.csv");
  writeRuns(runs);
  const base = ["cv", runs, ...cols, "--target", "distribution", "--p", "0.5,0.8", "--reps", "3", "--seed", "4", "--quiet"];
  const read = (d: string, f: string) => readFileSync(join(dir, d, f), "utf8");

  it("writes ks.csv, ks-summary.csv, ks.md; identical with 1 or 2 workers and as 2 shards merged", () => {
    const one = varmap(...base, "--workers", "1", "--out", "w1");
    expect(one.code, one.err).toBe(0);
    expect(one.out).toContain("Test configurations inside the training hull");
    expect(varmap(...base, "--workers", "2", "--out", "w2").code).toBe(0);
    expect(varmap(...base, "--workers", "1", "--shard", "1/2", "--out", "s1").code).toBe(0);
    expect(varmap(...base, "--workers", "1", "--shard", "2/2", "--out", "s2").code).toBe(0);
    const m = varmap("merge", "s1", "s2", "--out", "merged", "--quiet");
    expect(m.code, m.err).toBe(0);
    for (const f of ["ks.csv", "ks-summary.csv", "ks.md"]) {
      expect(read("w2", f)).toBe(read("w1", f));
      expect(read("merged", f)).toBe(read("w1", f));
    }
    const ks = read("w1", "ks.csv").trim().split("\n");
    expect(ks[0]).toBe(
      "map,method,weights,p,rep,config,n,ks,w1_rel,reject_0.05,reject_0.01,reject_0.001,reject_1e-06,extrapolated,distance,too_few_runs,mean_pred,mean_obs,sd_pred,sd_obs,q10_pred,q10_obs,q90_pred,q90_obs",
    );
    // 2 maps × (2 p × 3 reps) divisions × 4 methods × test configurations (13 at p = 0.5, 5 at p = 0.8, of 25).
    expect(ks.length - 1).toBe(2 * 3 * 4 * (12 + 5));
    const summary = read("w1", "ks-summary.csv").trim().split("\n");
    expect(summary[0]).toContain("ks_mean,ks_median,reject_pct_0.05");
    expect(summary.length - 1).toBe(2 * 4 * 2 * 3 - countMissing(summary));
  });

  it("a test configuration with fewer than 5 runs gets no KS (too_few_runs = 1)", () => {
    const rows = read("w1", "ks.csv")
      .trim()
      .split("\n")
      .slice(1)
      .map((l) => l.split(","));
    const few = rows.filter((r) => r[15] === "1");
    expect(few.length).toBeGreaterThan(0);
    for (const r of few) {
      expect(r[6]).toBe("3");
      expect(r[7]).toBe("");
    }
    expect(rows.filter((r) => r[15] === "0").every((r) => Number(r[6]) === 12 && r[7] !== "")).toBe(true);
  });

  it("resumes from its journal; E_USAGE without --out or with a bad --ks-test", () => {
    const again = varmap(...base, "--workers", "1", "--out", "w1");
    expect(again.code, again.err).toBe(0);
    const noOut = varmap(...base);
    expect(noOut.code).toBe(2);
    expect(noOut.err).toContain("E_USAGE");
    expect(varmap(...base, "--ks-test", "three-sample", "--out", "bad").code).toBe(2);
    expect(existsSync(join(dir, "bad"))).toBe(false);
  });

  it("--leave-out: one division per level of the held-out input, groups.csv names them, the held-out rows are the group's", () => {
    const lo = ["cv", runs, ...cols, "--target", "distribution", "--leave-out", "freq", "--quiet", "--workers", "1"];
    const r = varmap(...lo, "--out", "lo");
    expect(r.code, r.err).toBe(0);
    const groups = read("lo", "groups.csv").trim().split("\n");
    expect(groups[0]).toBe("map,rep,group");
    // 2 maps × 5 freq levels, one group per division.
    expect(groups.slice(1)).toEqual(["a", "b"].flatMap((m) => [1, 2, 3, 4, 5].map((f, i) => `${m},${i},freq=${f}`)));
    const ks = read("lo", "ks.csv").trim().split("\n");
    const h = ks[0].split(",");
    const rows = ks.slice(1).map((l) => Object.fromEntries(l.split(",").map((v, i) => [h[i], v])));
    // Every configuration is tested once per method: 2 maps × 25 configurations × 4 methods; p = 4/5.
    expect(rows.length).toBe(2 * 25 * 4);
    expect(new Set(rows.map((x) => x.p))).toEqual(new Set(["0.8"]));
    // The ends of the freq range are extrapolations, the interior levels are not.
    const ext = (rep: string) => new Set(rows.filter((x) => x.rep === rep).map((x) => x.extrapolated));
    expect(ext("0")).toEqual(new Set(["1"]));
    expect(ext("2")).toEqual(new Set(["0"]));
    // --group-folds: 2 folds of whole levels; more folds than levels is a coded error that writes nothing.
    const k2 = varmap(...lo, "--group-folds", "2", "--out", "lo2");
    expect(k2.code, k2.err).toBe(0);
    expect(
      new Set(
        read("lo2", "groups.csv")
          .trim()
          .split("\n")
          .slice(1)
          .map((l) => l.split(",")[1]),
      ),
    ).toEqual(new Set(["0", "1"]));
    const bad = varmap(...lo, "--group-folds", "6", "--out", "lo6");
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("E_GROUP_FOLDS");
    expect(existsSync(join(dir, "lo6"))).toBe(false);
  });
});

/** Summary rows absent because a point set is empty (no extrapolated test configurations at some p). */
function countMissing(summary: string[]): number {
  const have = new Set(summary.slice(1).map((l) => l.split(",").slice(0, 5).join(",")));
  let missing = 0;
  for (const map of ["a", "b"])
    for (const method of ["quantile", "cdf", "locscale", "normal"])
      for (const p of ["0.5", "0.8"]) for (const pts of ["inside", "extrapolated", "all"]) if (!have.has(`${map},${method},delaunay,${p},${pts}`)) missing++;
  return missing;
}
