// issue 42: pytest-benchmark run here on test/fixtures/import/pytest-benchmark/bench_sort.py (6 parameter sets x 8
// rounds), imported with --preset pytest-benchmark. Skips, saying so, without python3 and pytest-benchmark.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { packageRoot } from "../../ts/package-root.js";
import { cliBuilt, cliIn } from "../helpers/cli.js";

const hasPytestBenchmark = spawnSync("python3", ["-c", "import pytest, pytest_benchmark"]).status === 0;
if (!hasPytestBenchmark) console.warn("test/import/pytest-e2e: python3 with pytest-benchmark missing (pip install pytest-benchmark): skipped");

describe.skipIf(!hasPytestBenchmark || !cliBuilt)("pytest-benchmark end to end (needs python3 with pytest-benchmark)", () => {
  const dir = mkdtempSync(join(tmpdir(), "varmap-pytest-e2e-"));
  const varmap = cliIn(dir);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("every round of every parameter set is a run; params are the configuration", () => {
    const src = join(packageRoot(), "test", "fixtures", "import", "pytest-benchmark", "bench_sort.py");
    const py = spawnSync(
      "python3",
      ["-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", dir, "--benchmark-json=sort.json", "--benchmark-save-data", src],
      { cwd: dir, encoding: "utf8" },
    );
    expect(py.status, py.stdout + py.stderr).toBe(0);
    const r = varmap("import", "pytest-benchmark", "sort.json", "--out", "runs.parquet", "--json");
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ runs: 48, configurations: 6, roles: { factors: ["host", "kind"], inputs: ["n"], response: "time_s" } });
    const s = varmap("summarize", "runs.parquet", "--preset", "pytest-benchmark", "--json", "--quiet");
    expect(s.code, s.err).toBe(0);
    expect(JSON.parse(s.out)).toMatchObject({ configurations: 6, runs: 48 });
  }, 60_000);
});
