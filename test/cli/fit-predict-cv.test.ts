// `varmap fit`, `varmap predict` and `varmap cv` end to end (spawns the built CLI: run `npm run build` first).
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cliBuilt, cliIn } from "../helpers/cli.js";
import { goldenPath, hasShared, readCsv, sharedSkipReason, moanaMapArgs } from "../helpers/shared.js";

const built = cliBuilt;
const dir = mkdtempSync(join(tmpdir(), "varmap-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const varmap = cliIn(dir, { VARMAP_QUIET: "1" });

// A small long-format dataset: two maps (factor "host"), 3 x 3 x 3 settings, 3 runs each.
function writeRuns(path: string): void {
  const lines = ["host,freq,threads,size,run,tput"];
  for (const host of ["a", "b"])
    for (const f of [1, 2, 3])
      for (const t of [1, 2, 4])
        for (const s of [8, 16, 32])
          for (let r = 0; r < 3; r++) lines.push(`${host},${f},${t},${s},${r},${100 + 10 * f * (host === "a" ? 1 : 2) + t * s * (1 + 0.1 * r) + r * r}`);
  writeFileSync(path, lines.join("\n") + "\n");
}

describe.skipIf(!built)(`fit / predict / cv CLI${built ? "" : " — dist/ts/cli/main.js missing: run npm run build"}`, () => {
  const runs = join(dir, "runs.csv");
  writeRuns(runs);
  const cols = ["--factors", "host", "--inputs", "freq,threads,size", "--response", "tput", "--run", "run"];

  for (const method of ["lsp", "lr"])
    it(`fits ${method} per map and predicts new configurations (exact at a measured one for lsp)`, () => {
      const models = join(dir, `models-${method}.json`);
      const fit = varmap("fit", runs, ...cols, "--log-inputs", "threads,size", "--method", method, "--out", models);
      expect(fit.code, fit.err).toBe(0);
      const json = JSON.parse(readFileSync(models, "utf8"));
      expect(json.format).toBe("varmap-models");
      expect(json.maps).toHaveLength(2);
      expect(json.maps[0].model.inputs.log2).toEqual([1, 2]);
      const at = join(dir, "at.csv");
      writeFileSync(at, "host,freq,threads,size\na,2,2,16\nb,2.5,3,20\n");
      const pred = varmap("predict", models, "--at", at, "--out", join(dir, `pred-${method}.csv`));
      expect(pred.code, pred.err).toBe(0);
      const rows = readCsv(join(dir, `pred-${method}.csv`));
      expect(rows.map((r) => r.host)).toEqual(["a", "b"]);
      expect(Object.keys(rows[0])).toEqual(["host", "freq", "threads", "size", "prediction", "extrapolated", "distance", "clamped"]);
      for (const r of rows) expect(Number.isFinite(r.prediction as number)).toBe(true);
      if (method === "lsp") {
        // sd of the three runs of (a, 2, 2, 16): 100 + 20 + 32 (1 + 0.1 r) + r^2 for r = 0, 1, 2
        const v = [0, 1, 2].map((r) => 120 + 32 * (1 + 0.1 * r) + r * r);
        const m = v.reduce((a, b) => a + b) / 3;
        const sd = Math.sqrt(v.reduce((a, b) => a + (b - m) ** 2, 0) / 2);
        expect(Math.abs((rows[0].prediction as number) - sd)).toBeLessThanOrEqual(1e-12 * sd);
      }
    });

  it("refuses unknown maps and missing columns with exit code 2 and no output file", () => {
    const models = join(dir, "models-lr.json");
    const bad = join(dir, "bad.csv");
    writeFileSync(bad, "host,freq,threads,size\nz,1,1,8\n");
    const r = varmap("predict", models, "--at", bad, "--out", join(dir, "never.csv"));
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/E_UNKNOWN_MAP/);
    writeFileSync(bad, "host,freq,size\na,1,8\n");
    expect(varmap("predict", models, "--at", bad, "--out", join(dir, "never.csv")).err).toMatch(/E_COLUMN.*threads/);
    // threads is log2-scaled in these models: 0 has no log, named by file row and column.
    writeFileSync(bad, "host,freq,threads,size\na,1,2,8\nb,2,0,16\n");
    const log = varmap("predict", models, "--at", bad, "--out", join(dir, "never.csv"));
    expect(log.code).toBe(2);
    expect(log.err).toMatch(/E_LOG_INPUT.*bad\.csv, row 3, column 'threads': threads = 0, but the model takes its log2/);
    expect(readdirSync(dir).some((f) => f.includes("never"))).toBe(false);
  });

  it("refuses a hyperparameter flag of another method", () => {
    const r = varmap("fit", runs, ...cols, "--method", "lsp", "--degree", "2");
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--degree applies to mars/);
  });

  it.skipIf(!hasShared)(
    `cv on the MOANA map with given splits writes p,rep,index,prediction and the ARE per p${hasShared ? "" : " — " + sharedSkipReason}`,
    () => {
      const out = join(dir, "cv.csv");
      const r = varmap("cv", ...moanaMapArgs(), "--splits", goldenPath("moana-splits.json"), "--method", "lsp", "--paper", "--predictions", out, "--json");
      expect(r.code, r.err).toBe(0);
      const summary = JSON.parse(r.out);
      expect(summary.maps[0].are.map((t: { p: number }) => t.p)).toEqual([0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]);
      const text = readFileSync(out, "utf8");
      expect(text.split("\n")[0]).toBe("p,rep,index,prediction,extrapolated,distance,clamped");
      expect(text.trim().split("\n")).toHaveLength(77761);
      // First reference row: p 0.1, rep 0, index 0
      const first = text.split("\n")[1].split(",").map(Number);
      expect(first.slice(0, 3)).toEqual([0.1, 0, 0]);
      expect(Math.abs(first[3] - -80205.69393251296) / 80205.69393251296).toBeLessThan(1e-8);
    },
  );

  // Without --splits, cv generates divisions on the pool (issue #8); --predictions still needs given splits.
  it("cv --predictions without --splits is a usage error", () => {
    expect(varmap("cv", runs, ...cols, "--predictions", join(dir, "p.csv")).code).toBe(2);
  });
});
