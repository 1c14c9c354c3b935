// `varmap cv/fit/predict --method mars` end to end (spawns the built CLI: run `npm run build` first): the MOANA
// map's rep-0 splits reproduce R earth's predictions; model files round-trip; bad flags exit with code 2.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { goldenPath, hasShared, moanaMapArgs, readCsv, sharedSkipReason } from "../helpers/shared.js";
import { cliBuilt, cliIn } from "../helpers/cli.js";

const built = cliBuilt;
const dir = mkdtempSync(join(tmpdir(), "varmap-mars-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const varmap = cliIn(dir);

describe.skipIf(!built || !hasShared)(
  `mars CLI${!built ? " — dist/ts/cli/main.js missing: run npm run build" : !hasShared ? ` — ${sharedSkipReason}` : ""}`,
  () => {
    it("cv --method mars [--degree 2] [--nk 200] reproduces earth's predictions on the rep-0 splits", () => {
      const all = JSON.parse(readFileSync(goldenPath("moana-splits.json"), "utf8"));
      const splitsFile = join(dir, "rep0.json");
      writeFileSync(splitsFile, JSON.stringify({ n: all.n, splits: all.splits.filter((s: { rep: number }) => s.rep === 0) }));
      const earth = new Map<string, number>();
      for (const r of readCsv(goldenPath("mars-earth-predictions.csv"))) if (r.rep === 0) earth.set(`${r.variant}/${r.p}/${r.index}`, r.prediction as number);
      for (const [variant, flags] of [
        ["d1", []],
        ["d2", ["--degree", "2"]],
        ["d2nk200", ["--degree", "2", "--nk", "200"]],
      ] as const) {
        const out = join(dir, `cv-${variant}.csv`);
        const r = varmap("cv", ...moanaMapArgs(), "--splits", splitsFile, "--method", "mars", "--paper", ...flags, "--predictions", out, "--quiet");
        expect(r.code, r.err).toBe(0);
        expect(r.out).toContain("mean ARE");
        const rows = readCsv(out);
        expect(rows.length).toBe(
          9 * 864 - all.splits.filter((s: { rep: number }) => s.rep === 0).reduce((a: number, s: { train: number[] }) => a + s.train.length, 0),
        );
        for (const row of rows) {
          const e = earth.get(`${variant}/${row.p}/${row.index}`)!;
          expect(Math.abs((row.prediction as number) - e)).toBeLessThanOrEqual(1e-6 * Math.abs(e));
        }
      }
    });

    it("fit --method mars saves a model that predict uses; bad mars flags exit with code 2", () => {
      const model = join(dir, "mars.json");
      const fit = varmap("fit", ...moanaMapArgs(), "--method", "mars", "--paper", "--degree", "2", "--fast-k", "10", "--out", model);
      expect(fit.code, fit.err).toBe(0);
      const json = JSON.parse(readFileSync(model, "utf8"));
      expect(json.method).toBe("mars");
      expect(json.maps[0].model.options).toMatchObject({ degree: 2, fastK: 10 });
      const at = join(dir, "at.csv");
      writeFileSync(at, "u_freq,u_threads,u_fsize,u_rsize\n0.5,0.5,0.2,0.2\n1,1,1,1\n");
      const pred = varmap("predict", model, "--at", at);
      expect(pred.code, pred.err).toBe(0);
      const lines = pred.out.trim().split("\n");
      expect(lines.length).toBe(3);
      expect(Number.isFinite(Number(lines[1].split(",").at(-1)))).toBe(true);
      expect(varmap("fit", ...moanaMapArgs(), "--method", "mars", "--degree", "0", "--out", join(dir, "x.json")).code).toBe(2);
      expect(varmap("fit", ...moanaMapArgs(), "--method", "mars", "--auto-linpreds", "maybe", "--out", join(dir, "x.json")).code).toBe(2);
      expect(varmap("fit", ...moanaMapArgs(), "--method", "lsp", "--nk", "30", "--out", join(dir, "x.json")).code).toBe(2);
      expect(existsSync(join(dir, "x.json"))).toBe(false);
    });
  },
);
