// issue 42: a hyperfine parameter scan run here (4 values x 20 runs of `sleep`), imported and analysed with
// --preset hyperfine alone; the same file read directly with --format hyperfine. Skips, saying so, without
// hyperfine (.ci/run installs it).
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliBuilt, cliIn } from "../helpers/cli.js";
import { analyse } from "./pipeline.js";

const hasHyperfine = !spawnSync("hyperfine", ["--version"]).error;
if (!hasHyperfine) console.warn("test/import/hyperfine-e2e: hyperfine is not installed (apt-get install hyperfine): skipped");

describe.skipIf(!hasHyperfine || !cliBuilt)("hyperfine end to end (needs hyperfine and the built CLI)", () => {
  const dir = mkdtempSync(join(tmpdir(), "varmap-hyperfine-e2e-"));
  const varmap = cliIn(dir);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  beforeAll(() => {
    const r = spawnSync(
      "hyperfine",
      ["-N", "--runs", "20", "--warmup", "1", "--style", "none", "--parameter-scan", "ms", "1", "4", "--export-json", "scan.json", "sleep 0.00{ms}"],
      { cwd: dir, encoding: "utf8" },
    );
    if (r.status !== 0) throw new Error(`hyperfine failed: ${r.stderr}`);
  }, 60_000);

  it("imports 80 runs of 4 configurations; the parameter is the input", () => {
    const r = varmap("import", "hyperfine", "scan.json", "--out", "runs.csv", "--json");
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ runs: 80, configurations: 4, roles: { factors: [], inputs: ["ms"], run: "run", response: "time_s" } });
  });

  it("summarize, fit --method auto, mixture, refit and report with --preset hyperfine alone", () => {
    analyse(varmap, dir, join(dir, "runs.csv"), "hyperfine", 4, 20);
  }, 120_000);

  it("--format hyperfine reads the file itself: the same configurations", () => {
    const r = varmap("summarize", "scan.json", "--format", "hyperfine", "--json", "--quiet");
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ configurations: 4, runs: 80 });
    // sleep 0.004 takes longer than sleep 0.001 on any machine: the import kept each run with its parameter.
    const s = varmap("summarize", "scan.json", "--format", "hyperfine", "--quiet", "--out", "s.csv");
    expect(s.code, s.err).toBe(0);
  });
});
