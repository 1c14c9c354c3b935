// Distribution models at any scale of the runs, and far queries (issue 44, items 14–15; spawns the built CLI: run
// `npm run build` first). A model fitted on runs × 1e298 or × 1e-300 predicted NaN with locscale and normal (its
// stored runs' sds over- or underflowed); Shepard weights at a query near 1e300 were NaN and the query's rows were
// dropped from the quantile table. Both now predict what the model at scale 1 predicts, times the scale; and
// `--output mixture` names the query whose predicted distribution is not positive instead of blaming "a run".
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cliBuilt, cliIn } from "../helpers/cli.js";
import { rng } from "../helpers/backends.js";
import { secondBackendRun } from "../helpers/once.js";

const dir = mkdtempSync(join(tmpdir(), "varmap-dist-scale-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const cli = cliIn(dir, { VARMAP_QUIET: "1" });
const varmap = (args: string[]) => {
  const r = cli(...args);
  expect(r.code, r.err).toBe(0);
  return r;
};
const cols = ["--factors", "host", "--inputs", "freq,threads", "--response", "tput", "--run", "run"];

/** One map on a 4 × 4 grid of (freq, threads), 12 runs each, multiplied by `scale`. */
function writeRuns(path: string, scale: number): void {
  const r = rng(5);
  const lines = ["host,freq,threads,run,tput"];
  for (const f of [1, 2, 3, 4])
    for (const t of [1, 2, 4, 8]) for (let k = 0; k < 12; k++) lines.push(`a,${f},${t},${k},${(100 * f + 30 * t + (5 + t) * (r() + r() - 1)) * scale}`);
  writeFileSync(path, lines.join("\n") + "\n");
}
const summary = (path: string) => {
  const [head, ...rows] = readFileSync(path, "utf8").trim().split("\n");
  const names = head.split(",");
  return rows.map((l) => Object.fromEntries(l.split(",").map((v, i) => [names[i], v])));
};

describe.skipIf(secondBackendRun || !cliBuilt)("distribution models at any scale", () => {
  const at = join(dir, "at.csv");
  writeFileSync(at, "host,freq,threads\na,2.5,3\na,1e300,3\na,2,-1e300\n");
  const predicted = (scale: number, dist: string, weights: string) => {
    const runs = join(dir, `runs-${scale}.csv`);
    writeRuns(runs, scale);
    const models = join(dir, `dm-${scale}-${dist}-${weights}.json`);
    varmap(["fit", runs, ...cols, "--target", "distribution", "--dist", dist, "--weights", weights, "--out", models]);
    const out = join(dir, `q-${scale}-${dist}-${weights}.csv`);
    varmap(["predict", models, "--at", at, "--output", "quantiles", "--levels", "10", "--out", out]);
    return { table: summary(out), summary: summary(out.replace(/\.csv$/, "-summary.csv")) };
  };
  for (const [dist, weights] of [
    ["locscale", "delaunay"],
    ["normal", "delaunay"],
    ["quantile", "shepard"],
  ])
    it(`${dist} with ${weights} weights: the predictions at × 1e298 and × 1e-300 are those at × 1, scaled`, () => {
      const base = predicted(1, dist, weights);
      // Every query has its rows, the far ones included (normal: levels 0 and 1 are infinite and left out).
      expect(new Set(base.table.map((r) => `${r.freq},${r.threads}`)).size).toBe(3);
      for (const f of [1e298, 1e-300]) {
        const other = predicted(f, dist, weights);
        expect(other.table.length).toBe(base.table.length);
        other.summary.forEach((row, i) => {
          for (const c of ["mean", "sd", "q10", "q50", "q90"]) {
            const x = Number(base.summary[i][c]);
            expect(Number.isFinite(x), `${c} at query ${i}`).toBe(true);
            expect(Math.abs(Number(row[c]) / f / x - 1), `${c} at query ${i} × ${f}`).toBeLessThan(1e-9);
          }
          expect(Number.isFinite(Number(row.distance))).toBe(true);
        });
      }
    });

  it("--output mixture of a normal prediction below 0 names the query (exit 2)", () => {
    const runs = join(dir, "runs-1.csv");
    writeRuns(runs, 1);
    const models = join(dir, "dm-normal-wide.json");
    varmap(["fit", runs, ...cols, "--target", "distribution", "--dist", "normal", "--out", models]);
    const wide = join(dir, "wide.csv");
    writeFileSync(wide, "host,freq,threads\na,1,8\n");
    // Normal at (1, 8): mean near 340, sd near 8: positive everywhere, a fit; then the same model far below 0 is refused.
    varmap(["predict", models, "--at", wide, "--output", "mixture", "--out", join(dir, "mix.csv")]);
    const neg = join(dir, "neg.csv");
    writeRuns(neg, -1);
    const negModels = join(dir, "dm-normal-neg.json");
    varmap(["fit", neg, ...cols, "--target", "distribution", "--dist", "normal", "--out", negModels]);
    const r = cli("predict", negModels, "--at", wide, "--output", "mixture", "--out", join(dir, "mix-neg.csv"));
    expect(r.code).toBe(2);
    expect(r.err).toContain("E_MIXTURE_NONPOSITIVE");
    expect(r.err).toMatch(/row 2: query 1's predicted distribution has the quantile -/);
  });
});
