// `varmap gev` end to end (needs `npm run build`): the golden samples through the CLI, flags per configuration,
// lower tail and block maxima, and bad input (exit 2, no output file).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { packageRoot } from "../../ts/package-root.js";
import { counterRng } from "../../ts/data/random.js";
import { gevQuantile } from "../../ts/evt/gev.js";
import { goldenPath, hasShared, readCsv } from "../helpers/shared.js";
import { onceReason, secondBackendRun } from "../helpers/once.js";

const cli = join(packageRoot(), "dist", "ts", "cli", "main.js");
const run = (args: string[]) => spawnSync(process.execPath, [cli, ...args], { encoding: "utf8", env: { ...process.env } });

/** Configurations a (GEV ξ = 0.1, 200 runs), b (ξ = −0.2, 120 runs), c (5 runs), d (constant, 30 runs). */
function dataset(dir: string, extra: string[] = []): string {
  const lines = ["g,run,t"];
  const add = (g: string, n: number, v: (i: number) => number) => {
    for (let i = 0; i < n; i++) lines.push(`${g},${i},${v(i)}`);
  };
  const ra = counterRng(1, "a"),
    rb = counterRng(1, "b");
  add("a", 200, () => gevQuantile(1 - ra.next(), { loc: 20, scale: 2, shape: 0.1 }));
  add("b", 120, () => gevQuantile(1 - rb.next(), { loc: 5, scale: 0.5, shape: -0.2 }));
  add("c", 5, (i) => 1 + i);
  add("d", 30, () => 7);
  lines.push(...extra);
  const file = join(dir, "runs.csv");
  writeFileSync(file, lines.join("\n") + "\n");
  return file;
}

describe.skipIf(secondBackendRun || !existsSync(cli))("varmap gev (CLI)", () => {
  it.skipIf(!hasShared)("reproduces the golden reference fits on gev-samples.csv (1e-9)", () => {
    const dir = mkdtempSync(join(tmpdir(), "varmap-gev-"));
    const out = join(dir, "gev.csv"),
      diag = join(dir, "diag.csv");
    const r = run(["gev", goldenPath("gev-samples.csv"), "--factors", "sample_id", "--response", "value", "--out", out, "--diagnostics", diag, "--quiet"]);
    expect(r.status, r.stderr).toBe(0);
    const rows = readCsv(out);
    const ref = readCsv(goldenPath("gev-anchors.csv")).filter((a) => a.package === "reference");
    expect(rows.length).toBe(3);
    for (const a of ref) {
      const row = rows.find((x) => x.sample_id === a.sample_id)!;
      for (const k of ["loc", "scale", "shape", "nllh"]) expect(Math.abs(Number(row[k]) - Number(a[k]))).toBeLessThanOrEqual(1e-9);
      expect(row.converged).toBe("true");
      expect(Number(row.n)).toBe(400);
      expect(Number(row.rl100)).toBeGreaterThan(Number(row.rl10));
    }
    // --information expected: SEs from the Fisher information, close to (not equal to) the observed ones.
    const exp = join(dir, "expected.csv");
    expect(
      run(["gev", goldenPath("gev-samples.csv"), "--factors", "sample_id", "--response", "value", "--information", "expected", "--out", exp, "--quiet"]).status,
    ).toBe(0);
    for (const row of readCsv(exp)) {
      const obs = rows.find((x) => x.sample_id === row.sample_id)!;
      expect(Number(row.loc)).toBe(Number(obs.loc));
      const ratio = Number(row.se_shape) / Number(obs.se_shape);
      expect(ratio).not.toBe(1);
      expect(Math.abs(ratio - 1)).toBeLessThan(0.1);
    }
    const d = readCsv(diag);
    expect(new Set(d.map((x) => x.kind))).toEqual(new Set(["pp", "qq", "rl_point", "rl_curve", "density"]));
    expect(d.filter((x) => x.kind === "pp").length).toBe(1200);
  });

  it("one row per configuration with row flags: too_few_runs, degenerate; lower tail flips return levels", () => {
    const dir = mkdtempSync(join(tmpdir(), "varmap-gev-"));
    const file = dataset(dir);
    const out = join(dir, "gev.csv");
    const r = run([
      "gev",
      file,
      "--factors",
      "g",
      "--run",
      "run",
      "--response",
      "t",
      "--return-periods",
      "10,50",
      "--gumbel",
      "--profile",
      "--out",
      out,
      "--json",
    ]);
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).flags).toEqual({ ok: 2, too_few_runs: 1, degenerate: 1 });
    const rows = readCsv(out);
    const by = (g: string) => rows.find((x) => x.g === g)!;
    expect(by("c").flag).toBe("too_few_runs");
    expect(by("d").flag).toBe("degenerate");
    expect(by("d").loc).toBe(""); // no estimates: an empty cell
    expect(Number(by("a").shape)).toBeGreaterThan(-0.1);
    expect(Number(by("a").shape_lo_profile)).toBeLessThan(Number(by("a").shape));
    expect(Number(by("a").rl50_lo)).toBeLessThan(Number(by("a").rl50));
    expect(Number(by("a").gumbel_rl10)).toBeGreaterThan(0);
    const lower = join(dir, "lower.csv");
    expect(run(["gev", file, "--factors", "g", "--run", "run", "--response", "t", "--tail", "lower", "--out", lower, "--quiet"]).status).toBe(0);
    const lo = readCsv(lower).find((x) => x.g === "a")!;
    expect(lo.tail).toBe("lower");
    // Minima: the 100-run return level on the runs' scale is below the typical run (and the interval is ordered).
    expect(Number(lo.rl100)).toBeLessThan(20);
    expect(Number(lo.rl100_lo)).toBeLessThan(Number(lo.rl100_hi));
  });

  it("--block fits block maxima; --strict turns a flagged configuration into E_TOO_FEW_RUNS (exit 2, no output)", () => {
    const dir = mkdtempSync(join(tmpdir(), "varmap-gev-"));
    const file = dataset(dir);
    const out = join(dir, "gev.csv");
    const blk = run(["gev", file, "--factors", "g", "--run", "run", "--response", "t", "--where", "g = 'a'", "--block", "10", "--out", out, "--quiet"]);
    expect(blk.status, blk.stderr).toBe(0);
    expect(Number(readCsv(out)[0].n)).toBe(20);
    const out2 = join(dir, "strict.csv");
    const s = run(["gev", file, "--factors", "g", "--run", "run", "--response", "t", "--strict", "--out", out2]);
    expect(s.status).toBe(2);
    expect(s.stderr).toMatch(/too_few_runs|fewer/);
    expect(existsSync(out2)).toBe(false);
  });

  it("exits 2 without output on bad options and non-finite runs", () => {
    const dir = mkdtempSync(join(tmpdir(), "varmap-gev-"));
    const file = dataset(dir);
    const out = join(dir, "gev.csv");
    const base = ["gev", file, "--factors", "g", "--run", "run", "--response", "t", "--out", out];
    for (const extra of [
      ["--return-periods", "1,10"],
      ["--return-periods", "x"],
      ["--block", "0"],
      ["--level", "1.5"],
      ["--block", "20"],
      ["--min-runs", "2"],
    ]) {
      const r = run([...base, ...extra]);
      expect(r.status, extra.join(" ")).toBe(2);
      expect(r.stderr).toMatch(/E_USAGE|--/);
      expect(existsSync(out)).toBe(false);
    }
    const bad = dataset(dir, ["a,200,NaN"]);
    const r = run(["gev", bad, "--factors", "g", "--run", "run", "--response", "t", "--out", out]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/NaN or infinite/);
    expect(existsSync(out)).toBe(false);
  });
});

describe.skipIf(secondBackendRun || !existsSync(cli))("varmap gev on the job engine", () => {
  it("a job directory: shards merged equal the unsharded run, which equals the direct file; resume reruns nothing", () => {
    const dir = mkdtempSync(join(tmpdir(), "varmap-gev-job-"));
    const file = dataset(dir);
    const base = ["gev", file, "--factors", "g", "--run", "run", "--response", "t", "--chunk", "1", "--quiet"];
    const whole = join(dir, "whole"),
      s1 = join(dir, "s1"),
      s2 = join(dir, "s2"),
      merged = join(dir, "merged"),
      direct = join(dir, "direct.csv");
    expect(run([...base, "--out", whole, "--diagnostics", "--workers", "2"]).status).toBe(0);
    expect(run([...base, "--out", s1, "--diagnostics", "--shard", "1/2"]).status).toBe(0);
    expect(run([...base, "--out", s2, "--diagnostics", "--shard", "2/2"]).status).toBe(0);
    expect(existsSync(join(s1, "gev.csv"))).toBe(false);
    const m = run(["merge", s1, s2, "--out", merged, "--quiet"]);
    expect(m.status, m.stderr).toBe(0);
    expect(readFileSync(join(merged, "gev.csv"), "utf8")).toBe(readFileSync(join(whole, "gev.csv"), "utf8"));
    expect(readFileSync(join(merged, "diagnostics.csv"), "utf8")).toBe(readFileSync(join(whole, "diagnostics.csv"), "utf8"));
    expect(run([...base, "--out", direct]).status).toBe(0);
    expect(readFileSync(direct, "utf8")).toBe(readFileSync(join(whole, "gev.csv"), "utf8"));
    const again = run([...base, "--out", whole, "--diagnostics", "--json"]);
    expect(again.status).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ tasks: 4, resumed: 4, ran: 0 });
  });

  it("--strict in a job: the task raises E_TOO_FEW_RUNS (exit 2) and no gev.csv is written", () => {
    const dir = mkdtempSync(join(tmpdir(), "varmap-gev-job-"));
    const out = join(dir, "job");
    const r = run(["gev", dataset(dir), "--factors", "g", "--run", "run", "--response", "t", "--strict", "--out", out, "--quiet"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/E_TOO_FEW_RUNS|too_few_runs/);
    expect(existsSync(join(out, "gev.csv"))).toBe(false);
  });
});

describe.runIf(secondBackendRun)(`this file${onceReason}`, () => {
  it.skip("skipped on the wasm run", () => {});
});
