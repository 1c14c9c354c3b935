// Issue 44 item 6: `varmap summary` shows gp length scales / nugget, rbf smoothing, auto's choice and inner scores;
// the demo names every predictor honestly; `predict --interval` on a refit file with a method lacking calibration
// gives the others' intervals instead of failing them all.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { demoMethodsLine } from "../../ts/cli/commands/demo.js";

const CLI = join(process.cwd(), "dist/ts/cli/main.js");
const dir = mkdtempSync(join(tmpdir(), "varmap-explain-models-"));
const data = join(dir, "runs.csv");
const sel = ["--preset", "moana", "--where", "threads <= 4 AND fsize_kb <= 256"];
execFileSync("node", [CLI, "synth", "--design", "moana", "--maps", "1", "--out", data, "--quiet"]);

const run = (args: string[]) => spawnSync("node", [CLI, ...args], { encoding: "utf8" });

describe("varmap summary of gp, rbf and auto models", () => {
  it("gp: a length scale per input, the nugget; rbf: λ and its GCV score", () => {
    for (const method of ["gp", "rbf"]) {
      const m = join(dir, `${method}.json`);
      expect(run(["fit", data, ...sel, "--method", method, "--out", m, "--quiet"]).status).toBe(0);
      const text = run(["summary", m]);
      expect(text.status, text.stderr).toBe(0);
      const json = JSON.parse(run(["summary", m, "--json"]).stdout)[0];
      if (method === "gp") {
        expect(text.stdout).toMatch(/length scales \(small = the input matters\): freq_khz [0-9.e+-]+, threads/);
        expect(text.stdout).toContain("nugget");
        expect(json.details.lengthScales).toHaveLength(json.inputs.length);
        expect(json.details.nugget).toBeGreaterThan(0);
      } else {
        expect(text.stdout).toMatch(/smoothing λ [0-9.e+-]+ \(GCV score/);
        expect(json.details.smoothing).toBeGreaterThanOrEqual(0);
      }
    }
  }, 60_000);
  it("auto: the chosen method and every candidate's inner score", () => {
    const m = join(dir, "auto.json");
    expect(run(["fit", data, ...sel, "--method", "auto", "--auto-candidates", "lr,mars", "--out", m, "--quiet"]).status).toBe(0);
    const text = run(["summary", m]).stdout;
    expect(text).toMatch(/chosen: (lr|mars) \(lowest inner cross-validated mean ARE; candidates: (lr|mars) [0-9.]+ %, (lr|mars) [0-9.]+ %\)/);
    const json = JSON.parse(run(["summary", m, "--json"]).stdout)[0];
    expect(Object.keys(json.details.innerScores).sort()).toEqual(["lr", "mars"]);
    expect(["lr", "mars"]).toContain(json.details.chosen);
  }, 60_000);
});

describe("demo and predict --interval", () => {
  it("the demo's line names the predictors it does not run", () => {
    const line = demoMethodsLine(["lr", "lsp", "delaunay", "mars"]);
    expect(line).toContain("the demo runs the paper's predictors: lr, lsp, delaunay, mars");
    for (const m of ["rbf", "gp", "auto"]) expect(line).toContain(m);
    expect(line).not.toContain("available in this build");
  });
  it("a refit file without calibration: gp's interval, lr's lo/hi NaN with a note; exit 0", () => {
    const out = join(dir, "refit");
    expect(run(["refit", data, ...sel, "--methods", "lr,gp", "--out", out, "--quiet"]).status).toBe(0);
    const at = join(dir, "at.csv");
    writeFileSync(at, "host_sched,vm_sched,mode,freq_khz,threads,fsize_kb,rsize_kb\nCFQ,CFQ,initial-writers,1500000,2,128,64\n");
    const res = run(["predict", join(out, "models.json"), "--at", at, "--interval", "0.9", "--out", join(dir, "p.csv")]);
    expect(res.status, res.stderr).toBe(0);
    expect(res.stderr).toContain("lr: no interval for 1 row(s)");
    const [head, row] = readFileSync(join(dir, "p.csv"), "utf8").trim().split("\n");
    const cells = Object.fromEntries(head.split(",").map((h, i) => [h, row.split(",")[i]]));
    expect(Number(cells.lo_gp)).toBeLessThan(Number(cells.prediction_gp));
    expect(Number(cells.hi_gp)).toBeGreaterThan(Number(cells.prediction_gp));
    expect(cells.lo_lr).toBe("NaN");
    // A single-method file without calibration is still an error (exit 2).
    const lr = join(dir, "lr.json");
    expect(run(["fit", data, ...sel, "--method", "lr", "--out", lr, "--quiet"]).status).toBe(0);
    const bad = run(["predict", lr, "--at", at, "--interval", "0.9"]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("E_NO_CALIBRATION");
  }, 90_000);
});
