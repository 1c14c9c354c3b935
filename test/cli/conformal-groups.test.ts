// Intervals for combinations nobody measured (issue 41): `fit --conformal-groups COLS` calibrates queries whose
// combination of COLS was never measured on leave-group-out residuals, `predict` writes a `novel` column, widens those
// rows and counts them; lsp under automatic transforms runs on the raw scales (ts/cv/scale-guard.ts). Spawns the CLI
// on one synthetic MOANA map.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readCsv } from "../helpers/shared.js";
import { cliBuilt, cliIn } from "../helpers/cli.js";

const dir = mkdtempSync(join(tmpdir(), "varmap-conformal-groups-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const varmap = cliIn(dir);
const runs = join(dir, "runs.csv");

describe.skipIf(!cliBuilt)("grouped conformal calibration and the novel column", () => {
  beforeAll(() => {
    const r = varmap("synth", "--design", "moana", "--maps", "1", "--out", runs, "--quiet", "--workers", "1");
    expect(r.code, r.err).toBe(0);
  });

  it("fit --conformal-groups: a never-measured (fsize, rsize) pair is novel, its interval from its kind's residuals; predict counts it", () => {
    const models = join(dir, "mars.json");
    const where = "NOT (fsize_kb = 256 AND rsize_kb = 32)";
    const f = varmap(
      "fit",
      runs,
      "--preset",
      "moana",
      "--where",
      where,
      "--method",
      "mars",
      "--conformal-groups",
      "fsize_kb,rsize_kb",
      "--out",
      models,
      "--quiet",
    );
    expect(f.code, f.err).toBe(0);
    const file = JSON.parse(readFileSync(models, "utf8"));
    const cal = file.maps[0].conformal;
    expect(cal.groups.columns).toEqual(["fsize_kb", "rsize_kb"]);
    expect(cal.groups.seen).toHaveLength(5);
    expect(cal.novel.length + cal.newLevel.length + cal.extrapolated.length).toBe(cal.residuals.length);
    const at = join(dir, "at.csv");
    writeFileSync(
      at,
      "host_sched,vm_sched,mode,freq_khz,threads,fsize_kb,rsize_kb\nCFQ,CFQ,initial-writers,1200000,4,256,32\nCFQ,CFQ,initial-writers,1200000,4,1024,128\n",
    );
    const out = join(dir, "p.csv");
    const p = varmap("predict", models, "--at", at, "--interval", "0.9", "--out", out, "--json");
    expect(p.code, p.err).toBe(0);
    const rows = readCsv(out);
    expect(rows.map((r) => r.novel)).toEqual([1, 0]);
    // On a log response hi = prediction · e^q: the novel row's q is its kind's quantile (a novel combination of measured
    // levels: leave-group-out residuals, never narrower than the seen one's), the seen row's the random-fold one.
    const q = (r: number[]) => r[Math.ceil((r.length + 1) * 0.9 - 1e-9) - 1];
    const ratio = (r: Record<string, unknown>) => Math.log((r.hi as number) / (r.prediction as number));
    expect(ratio(rows[1])).toBeCloseTo(q(cal.residuals), 6);
    expect(ratio(rows[0])).toBeCloseTo(Math.max(q(cal.residuals), q(cal.novel)), 6);
    expect(JSON.parse(p.out).methods.mars.novel).toBe(1);
    expect(p.err).toMatch(/1 of 2 prediction\(s\) of mars are for combinations never measured/);
  });

  it("refit --conformal-groups carries the grouped calibration in models.json (implying 10 folds)", () => {
    const out = join(dir, "refit");
    const r = varmap(
      "refit",
      runs,
      "--preset",
      "moana",
      "--methods",
      "mars",
      "--no-mixtures",
      "--conformal-groups",
      "fsize_kb,rsize_kb",
      "--workers",
      "1",
      "--out",
      out,
      "--quiet",
    );
    expect(r.code, r.err).toBe(0);
    const m = JSON.parse(readFileSync(join(out, "models.json"), "utf8")).models[0];
    expect(m.conformal.folds).toBe(10);
    expect(m.conformal.groups.seen).toHaveLength(6);
    expect(m.conformal.groupFolds).toBe(6);
  });

  it("a --conformal-groups column that is not an input exits 2 with E_LEAVE_OUT", () => {
    const r = varmap("fit", runs, "--preset", "moana", "--method", "lr", "--conformal-groups", "nosuch", "--out", join(dir, "bad.json"));
    expect(r.code).toBe(2);
    expect(r.err).toContain("E_LEAVE_OUT");
  });

  it("cv: lsp under the automatic transforms scores as on the raw scales (the guard); named transforms apply as given", () => {
    const cv = (...extra: string[]) => {
      const r = varmap(
        "cv",
        runs,
        "--preset",
        "moana",
        "--stat",
        "mean",
        "--methods",
        "lsp",
        "--p",
        "0.5",
        "--reps",
        "3",
        "--workers",
        "1",
        "--json",
        "--quiet",
        ...extra,
      );
      expect(r.code, r.err).toBe(0);
      return JSON.parse(r.out).summary.table2[0].lsp as number;
    };
    const auto = cv();
    expect(auto).toBe(cv("--log-inputs", "none", "--log-response", "none"));
    expect(auto).not.toBe(cv("--log-inputs", "fsize_kb,rsize_kb,threads", "--log-response"));
  });
});
