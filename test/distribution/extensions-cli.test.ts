// The distribution target's --per-level, --smooth pchip, --folds and --truth end to end through the built CLI,
// and their bad input (E_USAGE before anything is written). Run `npm run build` first.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cliBuilt, cliIn } from "../helpers/cli.js";
import { rng } from "../helpers/backends.js";
import { onceReason, secondBackendRun } from "../helpers/once.js";

const built = cliBuilt;
const dir = mkdtempSync(join(tmpdir(), "varmap-dist-ext-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const varmap = cliIn(dir, { VARMAP_QUIET: "1" });

/** One map on a 5 × 5 grid of (freq, threads), 15 runs per configuration. */
function writeRuns(path: string): void {
  const r = rng(21);
  const lines = ["freq,threads,run,tput"];
  for (const f of [1, 2, 3, 4, 5])
    for (const t of [1, 2, 4, 8, 16]) for (let k = 0; k < 15; k++) lines.push(`${f},${t},${k},${100 * f + 20 * t + (4 + t) * (r() + r() + r() - 1.5)}`);
  writeFileSync(path, lines.join("\n") + "\n");
}
const cols = ["--inputs", "freq,threads", "--response", "tput", "--run", "run"];
const csv = (path: string) =>
  readFileSync(path, "utf8")
    .trim()
    .split("\n")
    .map((l) => l.split(","));

describe.skipIf(secondBackendRun || !built)(
  `distribution --per-level, --smooth, --folds, --truth${built ? "" : " — dist/ts/cli/main.js missing: run npm run build"}`,
  () => {
    const runs = join(dir, "runs.csv");
    writeRuns(runs);
    const at = join(dir, "at.csv");
    writeFileSync(at, "freq,threads\n2.5,3\n4,10\n");

    it("fit --per-level --method lr and --smooth pchip: the models file records them; predict gives valid quantiles and CDFs", () => {
      const fit = varmap(
        "fit",
        runs,
        ...cols,
        "--target",
        "distribution",
        "--dist",
        "quantile",
        "--per-level",
        "--method",
        "lr",
        "--levels",
        "20",
        "--out",
        "pl.json",
      );
      expect(fit.code, fit.err).toBe(0);
      const models = JSON.parse(readFileSync(join(dir, "pl.json"), "utf8"));
      expect(models.perLevel).toEqual({ method: "lr" });
      const pr = varmap("predict", "pl.json", "--at", at, "--out", "pl.csv");
      expect(pr.code, pr.err).toBe(0);
      const q = csv(join(dir, "pl.csv"));
      expect(q[0]).toEqual(["freq", "threads", "p", "x", "extrapolated", "distance"]);
      const first = q.slice(1, 22).map((r) => Number(r[3]));
      expect(first.length).toBe(21);
      for (let j = 1; j < first.length; j++) expect(first[j]).toBeGreaterThanOrEqual(first[j - 1]);
      expect(csv(join(dir, "pl-summary.csv"))[0]).toContain("nonfinite");

      const fit2 = varmap("fit", runs, ...cols, "--target", "distribution", "--dist", "cdf", "--smooth", "pchip", "--out", "pc.json");
      expect(fit2.code, fit2.err).toBe(0);
      expect(JSON.parse(readFileSync(join(dir, "pc.json"), "utf8")).smooth).toBe("pchip");
      const pr2 = varmap("predict", "pc.json", "--at", at, "--output", "cdf", "--grid-points", "50", "--out", "pc.csv");
      expect(pr2.code, pr2.err).toBe(0);
      const F = csv(join(dir, "pc.csv"))
        .slice(1, 51)
        .map((r) => Number(r[3]));
      expect(F[0]).toBe(0);
      expect(F[49]).toBe(1);
      for (let j = 1; j < 50; j++) expect(F[j]).toBeGreaterThanOrEqual(F[j - 1]);
    });

    it("cv --folds: every configuration tested once; the same bytes with 1 or 2 workers; per-level rows name their predictor", () => {
      const base = ["cv", runs, ...cols, "--target", "distribution", "--dists", "quantile,cdf", "--smooth", "pchip", "--per-level", "--method", "lsp"];
      const a = varmap(...base, "--folds", "5", "--levels", "20", "--workers", "1", "--out", "f1", "--quiet");
      expect(a.code, a.err).toBe(0);
      const b = varmap(...base, "--folds", "5", "--levels", "20", "--workers", "2", "--out", "f2", "--quiet");
      expect(b.code, b.err).toBe(0);
      for (const f of ["ks.csv", "ks-summary.csv", "ks.md"]) expect(readFileSync(join(dir, "f2", f), "utf8")).toBe(readFileSync(join(dir, "f1", f), "utf8"));
      const ks = csv(join(dir, "f1", "ks.csv"));
      const quantile = ks.filter((r) => r[1] === "quantile");
      expect(new Set(quantile.map((r) => r[5])).size).toBe(25);
      expect(quantile.length).toBe(25);
      expect(new Set(quantile.map((r) => r[2]))).toEqual(new Set(["per-level:lsp"]));
      expect(new Set(ks.filter((r) => r[1] === "cdf").map((r) => r[2]))).toEqual(new Set(["delaunay"]));
      expect(new Set(quantile.map((r) => r[3]))).toEqual(new Set(["0.8"]));
      expect(a.out).toContain("`quantile` (per-level:lsp)");
    });

    it("cv --truth on a small synthetic design: ks_true beside ks, and below it (no sampling noise)", () => {
      const s = varmap("synth", "--design", "moana", "--maps", "1", "--seed", "2", "--workers", "1", "--out", "syn.csv", "--truth", "syn-truth.csv", "--quiet");
      expect(s.code, s.err).toBe(0);
      const r = varmap("cv", "syn.csv", "--preset", "moana", "--target", "distribution", "--dists", "quantile,normal", "--p", "0.5", "--reps", "1");
      const c = varmap(
        ...["cv", "syn.csv", "--preset", "moana", "--target", "distribution", "--dists", "quantile,normal", "--p", "0.5", "--reps", "1"],
        ...["--truth", "syn-truth.csv", "--out", "tr", "--quiet", "--json"],
      );
      expect(r.code).toBe(2); // no --out
      expect(c.code, c.err).toBe(0);
      const ks = csv(join(dir, "tr", "ks.csv"));
      expect(ks[0].slice(7, 10)).toEqual(["ks", "ks_true", "w1_rel"]);
      const rows = ks.slice(1).filter((x) => x[1] === "quantile" && x[14] === "0");
      expect(rows.length).toBeGreaterThan(300);
      const mean = (i: number) => rows.reduce((a, x) => a + Number(x[i]), 0) / rows.length;
      expect(mean(8)).toBeLessThan(mean(7));
      expect(rows.every((x) => Number(x[8]) >= 0 && Number(x[8]) <= 1)).toBe(true);
      expect(csv(join(dir, "tr", "ks-summary.csv"))[0]).toContain("ks_true_mean");
      expect(JSON.parse(c.out).summary.meanKsTrue.quantile["0.5"]).toBeCloseTo(
        rows.length
          ? ks
              .slice(1)
              .filter((x) => x[1] === "quantile")
              .reduce((a, x, _, all) => a + Number(x[8]) / all.length, 0)
          : NaN,
        6,
      );
    });

    it("bad flags: E_USAGE, exit 2, nothing written", () => {
      const cv = ["cv", runs, ...cols, "--target", "distribution"];
      const cases: string[][] = [
        [...cv, "--smooth", "spline", "--out", "bad"],
        [...cv, "--dists", "quantile", "--smooth", "pchip", "--out", "bad"],
        [...cv, "--dists", "cdf,normal", "--per-level", "--out", "bad"],
        [...cv, "--folds", "1", "--out", "bad"],
        [...cv, "--folds", "26", "--out", "bad"],
        [...cv, "--folds", "3", "--splits", "s.json", "--out", "bad"],
        [...cv, "--truth", "truth.txt", "--out", "bad"],
        [...cv, "--per-level", "--method", "nope", "--out", "bad"],
        ["fit", runs, ...cols, "--target", "distribution", "--dist", "normal", "--per-level", "--out", "bad.json"],
        ["synth", "--design", "interference", "--out", "bad.csv", "--truth", "t.csv"],
      ];
      for (const c of cases) {
        const r = varmap(...c);
        expect(r.code, c.join(" ")).toBe(2);
        expect(r.err, c.join(" ")).toMatch(/E_USAGE|error: option/);
        for (const f of ["bad", "bad.json", "bad.csv", "t.csv"]) expect(existsSync(join(dir, f)), c.join(" ")).toBe(false);
      }
    });
  },
);

describe.runIf(secondBackendRun)(`this file${onceReason}`, () => {
  it.skip("skipped on the wasm run", () => {});
});
