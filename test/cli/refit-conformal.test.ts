// `refit --conformal-folds k` (issue 16): every model refit writes carries the same k-fold conformal calibration
// `fit --conformal-folds k` gives it, so `predict --interval` works on refit's models.json. Spawns the built CLI.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readCsv } from "../helpers/shared.js";
import { cliBuilt, cliIn } from "../helpers/cli.js";
import { TWO_HOST_COLUMNS, writeTwoHostRuns } from "../helpers/runs.js";

const built = cliBuilt;
const dir = mkdtempSync(join(tmpdir(), "varmap-refit-conformal-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const varmap = cliIn(dir);

const runs = join(dir, "runs.csv");
writeTwoHostRuns(runs, { ripple: true });
const cols = TWO_HOST_COLUMNS;

describe.skipIf(!built)(`refit --conformal-folds${built ? "" : " — dist/ts/cli/main.js missing: run npm run build"}`, () => {
  it("calibrates every model as fit does; predict --interval reads refit's models.json", () => {
    const out = join(dir, "refit");
    const r = varmap("refit", runs, ...cols, "--methods", "lr,lsp", "--no-mixtures", "--conformal-folds", "5", "--workers", "0", "--out", out, "--quiet");
    expect(r.code, r.err).toBe(0);
    const models = JSON.parse(readFileSync(join(out, "models.json"), "utf8")).models as {
      key: { host: string };
      method: string;
      conformal?: { folds: number; residuals: number[] };
    }[];
    expect(models).toHaveLength(4);
    for (const m of models) expect(m.conformal?.folds).toBe(5);
    // The same residuals as `fit --conformal-folds 5` (the same folds, the same fits).
    const fitted = join(dir, "lsp.json");
    expect(varmap("fit", runs, ...cols, "--method", "lsp", "--conformal-folds", "5", "--out", fitted, "--quiet").code).toBe(0);
    const fit = JSON.parse(readFileSync(fitted, "utf8")).maps as { key: { host: string }; conformal: { residuals: number[] } }[];
    for (const f of fit) expect(models.find((m) => m.method === "lsp" && m.key.host === f.key.host)!.conformal!.residuals).toEqual(f.conformal.residuals);

    const at = join(dir, "at.csv");
    writeFileSync(at, "host,freq,threads,size\na,2.5,2,16\nb,1.5,4,8\n");
    const lr = join(dir, "refit-lr");
    expect(varmap("refit", runs, ...cols, "--methods", "lr", "--no-mixtures", "--conformal-folds", "5", "--workers", "0", "--out", lr, "--quiet").code).toBe(0);
    const p = varmap("predict", join(lr, "models.json"), "--at", at, "--interval", "0.8", "--out", join(dir, "p.csv"), "--quiet");
    expect(p.code, p.err).toBe(0);
    for (const row of readCsv(join(dir, "p.csv"))) {
      expect(row.lo as number).toBeLessThan(row.prediction as number);
      expect(row.hi as number).toBeGreaterThan(row.prediction as number);
    }
  });

  it("without the flag the models carry no calibration (and the plan is unchanged); a bad k exits 2 before anything is written", () => {
    const out = join(dir, "plain");
    expect(varmap("refit", runs, ...cols, "--methods", "lr", "--no-mixtures", "--workers", "0", "--out", out, "--quiet").code).toBe(0);
    expect(readFileSync(join(out, "models.json"), "utf8")).not.toContain("conformal");
    expect(JSON.parse(readFileSync(join(out, "manifest.json"), "utf8"))).not.toHaveProperty("conformalFolds");
    const bad = join(dir, "bad");
    const r = varmap("refit", runs, ...cols, "--methods", "lr", "--no-mixtures", "--conformal-folds", "1", "--out", bad);
    expect(r.code).toBe(2);
    expect(r.err).toContain("E_USAGE");
    expect(existsSync(bad)).toBe(false);
  });
});
