// issue 42: a tiny Google Benchmark (test/fixtures/import/gbench/bm.cc) built with Debian's libbenchmark-dev and
// run here with 4 repetitions, imported and analysed with --preset gbench alone. Skips, saying so, without g++ or
// libbenchmark-dev (.ci/run installs it); the build takes a few seconds.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packageRoot } from "../../ts/package-root.js";
import { cliBuilt, cliIn } from "../helpers/cli.js";

const hasGbench = existsSync("/usr/include/benchmark/benchmark.h") && !spawnSync("g++", ["--version"]).error;
if (!hasGbench) console.warn("test/import/gbench-e2e: g++ or libbenchmark-dev missing (apt-get install libbenchmark-dev): skipped");

describe.skipIf(!hasGbench || !cliBuilt)("Google Benchmark end to end (needs g++ and libbenchmark-dev)", () => {
  const dir = mkdtempSync(join(tmpdir(), "varmap-gbench-e2e-"));
  const varmap = cliIn(dir);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  beforeAll(() => {
    const src = join(packageRoot(), "test", "fixtures", "import", "gbench", "bm.cc");
    const cc = spawnSync("g++", ["-O2", src, "-o", "bm", "-lbenchmark", "-lpthread"], { cwd: dir, encoding: "utf8" });
    if (cc.status !== 0) throw new Error(`g++ failed: ${cc.stderr}`);
    const run = spawnSync("./bm", ["--benchmark_repetitions=4", "--benchmark_min_time=0.005", "--benchmark_out=bm.json", "--benchmark_out_format=json"], {
      cwd: dir,
      encoding: "utf8",
    });
    if (run.status !== 0) throw new Error(`the benchmark failed: ${run.stderr}`);
  }, 120_000);

  it("imports every repetition (not the aggregates) and analyses it with --preset gbench", () => {
    const r = varmap("import", "gbench", "bm.json", "--out", "runs.parquet", "--json");
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ runs: 28, configurations: 7, roles: { factors: ["host", "benchmark"], inputs: ["arg0", "threads", "bytes"] } });
    const s = varmap("summarize", "runs.parquet", "--preset", "gbench", "--json", "--quiet");
    expect(s.code, s.err).toBe(0);
    expect(JSON.parse(s.out).maps.map((m: { key: { benchmark: string }; rows: number }) => [m.key.benchmark, m.rows])).toEqual([
      ["BM_fill", 4],
      ["BM_sort", 3],
    ]);
    const m = varmap("mixture", "runs.parquet", "--preset", "gbench", "--out", "mixture.csv", "--quiet");
    expect(m.code, m.err).toBe(0);
  });
});
