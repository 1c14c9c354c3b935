// varmap import (issue 42) on the committed fixtures: each tool's rows and roles, --preset <tool> reading the roles
// back, --format on a verb, --tag groups, readToolResult, and malformed input (exit 2 naming the file and the JSON
// path, nothing written). No tool runs here (test/import/*-e2e.test.ts run fio and hyperfine).
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadDataset } from "../../ts/data/load.js";
import { importRuns, readToolResult, readToolResults, rolesFromColumns } from "../../ts/import/registry.js";
import { benchmarkArgs } from "../../ts/import/gbench.js";
import { fioBytes } from "../../ts/import/fio.js";
import { pathAt } from "../../ts/import/json.js";
import { fileGroups } from "../../ts/cli/commands/import.js";
import { packageRoot } from "../../ts/package-root.js";
import { cliBuilt, cliIn } from "../helpers/cli.js";

const FX = join(packageRoot(), "test", "fixtures", "import");
const fx = (dir: string) =>
  readdirSync(join(FX, dir))
    .filter((f) => !/\.(cc|py)$/.test(f)) // the benchmarks' sources beside their output
    .sort()
    .map((f) => join(FX, dir, f));
const tmp = mkdtempSync(join(tmpdir(), "varmap-import-test-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const varmap = cliIn(tmp);

describe("the fixtures", () => {
  it("stay under 200 KB", () => {
    let total = 0;
    for (const d of readdirSync(FX, { withFileTypes: true }))
      if (d.isDirectory()) for (const f of readdirSync(join(FX, d.name))) total += readFileSync(join(FX, d.name, f)).length;
    expect(total).toBeLessThan(200 * 1024);
  });
});

describe("parsers", () => {
  it("fio: one row per job; bs varies (bytes, an input), the rest is constant; runs numbered per configuration", () => {
    const r = importRuns("fio", [{ files: fx("fio"), tags: {} }]);
    expect(r.rows).toBe(6);
    expect(r.configurations).toBe(2);
    expect(r.roles).toEqual({ factors: [], inputs: ["bs"], response: "bw_bytes", run: "run" });
    const col = (n: string) => r.columns.find((c) => c.name === n)!.values;
    expect(new Set(col("bs"))).toEqual(new Set([4096, 65536]));
    expect([...col("run")].sort()).toEqual([0, 0, 1, 1, 2, 2]);
    // bw_bytes is the sum over directions: read only here, so it equals read_bw_bytes, as fio wrote it.
    const doc = JSON.parse(readFileSync(fx("fio")[0], "utf8"));
    expect(col("read_bw_bytes")).toContain(doc.jobs[0].read.bw_bytes);
    expect(col("bw_bytes")).toEqual(col("read_bw_bytes"));
    expect(col("read_clat_p99_ns")).toContain(doc.jobs[0].read.clat_ns.percentile["99.000000"]);
  });

  it("fio sizes are fio's binary units", () => {
    expect([fioBytes("4k"), fioBytes("64KiB"), fioBytes("1m"), fioBytes("2G"), fioBytes("512")]).toEqual([4096, 65536, 1048576, 2 * 1024 ** 3, 512]);
    expect(fioBytes("4k,8k")).toBeUndefined();
  });

  it("hyperfine: parameters are inputs, every time a run, exit codes a response", () => {
    const r = importRuns("hyperfine", [{ files: fx("hyperfine"), tags: {} }]);
    const doc = JSON.parse(readFileSync(fx("hyperfine")[0], "utf8"));
    expect(r.rows).toBe(doc.results.reduce((s: number, x: { times: number[] }) => s + x.times.length, 0));
    expect(r.roles.inputs).toEqual(["ms"]);
    expect(r.columns.find((c) => c.name === "time_s")!.values.slice(0, 5)).toEqual(doc.results[0].times);
    expect(r.columns.map((c) => c.name)).toContain("exit_code");
  });

  it("Google Benchmark (real output of Debian's libbenchmark 1.7.1): aggregates skipped, arguments from names, counters kept", () => {
    expect(benchmarkArgs("BM_x/8/64")).toEqual({ family: "BM_x", args: { arg0: 8, arg1: 64 } });
    expect(benchmarkArgs("BM_x/size:8/threads:4/real_time")).toEqual({ family: "BM_x", args: { size: 8, threads: 4 } });
    const doc = JSON.parse(readFileSync(join(FX, "gbench", "bm.json"), "utf8"));
    const reps = doc.benchmarks.filter((b: { run_type: string }) => b.run_type === "iteration");
    const r = importRuns("gbench", [{ files: [join(FX, "gbench", "bm.json")], tags: {} }]);
    expect(r.rows).toBe(reps.length); // 7 instances x 4 repetitions; mean/median/stddev/cv aggregates left out
    expect(r.configurations).toBe(7);
    expect(r.roles.factors).toEqual(["host", "benchmark"]);
    expect(r.roles.inputs).toEqual(["arg0", "threads", "bytes"]);
    expect(r.columns.find((c) => c.name === "real_time_ns")!.values[0]).toBe(reps[0].real_time); // time_unit ns
    expect(r.columns.map((c) => c.name)).toEqual(expect.arrayContaining(["cpu_time_ns", "items_per_second", "counter_n"]));
  });

  it("pytest-benchmark: stats.data rounds, params as configuration", () => {
    const r = importRuns("pytest-benchmark", [{ files: fx("pytest-benchmark"), tags: {} }]);
    expect(r.rows).toBe(48);
    expect(r.roles).toMatchObject({ factors: ["host", "kind"], inputs: ["n"], response: "time_s" });
  });

  it("IOR: a row per repetition and access, transfer size an input", () => {
    const r = importRuns("ior", [{ files: fx("ior"), tags: {} }]);
    expect(r.rows).toBe(18);
    expect(r.roles).toMatchObject({ factors: ["host", "access"], inputs: ["transferSize"], response: "bw_mib" });
  });

  it("IOzone -R tables: the papers' column names, rows only where the record fits the file", () => {
    const r = importRuns("iozone", [{ files: fx("iozone"), tags: {} }]);
    expect(r.roles).toMatchObject({ factors: ["test"], inputs: ["fsize_kb", "rsize_kb"], response: "throughput_kbps" });
    expect(r.rows).toBe(2 * 4 * (5 + 5 + 5));
  });

  it("the roles --preset reads back from the columns are the import's", () => {
    for (const [tool, dir] of [
      ["fio", "fio"],
      ["hyperfine", "hyperfine"],
      ["gbench", "gbench"],
      ["pytest-benchmark", "pytest-benchmark"],
      ["ior", "ior"],
      ["iozone", "iozone"],
    ]) {
      const r = importRuns(tool, [{ files: fx(dir), tags: {} }]);
      expect(rolesFromColumns(tool, r.columns), tool).toEqual(r.roles);
    }
  });

  it("--tag groups: each tag holds for the files after it; tags are factors", () => {
    const [a, b, c] = fx("fio");
    expect(fileGroups([a, "--tag", "node=x", b, "--tag=node=y", c])).toEqual([
      { files: [a], tags: {} },
      { files: [b], tags: { node: "x" } },
      { files: [c], tags: { node: "y" } },
    ]);
    const r = importRuns("fio", fileGroups(["--tag", "node=x", a, b, "--tag", "node=y", c]));
    expect(r.roles.factors).toEqual(["node"]);
    expect(r.columns[0].values).toEqual(["x", "x", "x", "x", "y", "y"]);
  });

  it("fio: several documents in one file (a shell loop appending) after a warning line; dates over two days", () => {
    const [a, b] = fx("fio").map((f) => readFileSync(f, "utf8"));
    const day2 = JSON.parse(b);
    day2.timestamp_ms += 86_400_000;
    const text = `note: both iodepth >= 1 and synchronous I/O engine are selected\n${a}\n${JSON.stringify(day2)}\n`;
    const read = () => text;
    const r = importRuns("fio", [{ files: ["loop.json"], tags: {} }], { read });
    expect(r.rows).toBe(4);
    expect(r.roles.factors).toEqual(["date"]);
    expect(new Set(r.columns[0].values).size).toBe(2);
    expect(r.notes.join(" ")).toMatch(/span 2 days/);
    const pooled = importRuns("fio", [{ files: ["loop.json"], tags: {} }], { read, date: false });
    expect(pooled.roles.factors).toEqual([]);
    expect(pooled.configurations).toBe(2);
  });

  it("the JSON path where a truncated document stops", () => {
    const text = '{"jobs": [{"jobname": "a", "read": {"bw": 1, "clat_ns": {"mean": 2';
    expect(pathAt(text, text.length)).toBe("$.jobs[0].read.clat_ns.mean");
  });
});

describe("readToolResult (for the planner)", () => {
  const fioText = readFileSync(fx("fio")[0], "utf8");
  const doc = JSON.parse(fioText);
  it("reads a JSON path or a column of a single run", () => {
    expect(readToolResult("fio", fioText, "jobs[1].read.bw_bytes")).toBe(doc.jobs[1].read.bw_bytes);
    expect(readToolResult("fio", fioText, "$.jobs[0]['job options'].bs")).toBe(4096);
    expect(readToolResults("fio", fioText, "read_iops")).toEqual([doc.jobs[0].read.iops, doc.jobs[1].read.iops]);
    expect(() => readToolResult("fio", fioText, "read_iops")).toThrow(/2 values/);
    expect(() => readToolResult("fio", fioText, "jobs[7].read.bw")).toThrow(/\$\.jobs\[7\]/);
    const hf = readFileSync(fx("hyperfine")[0], "utf8");
    expect(readToolResult("hyperfine", hf, "results[2].times[4]")).toBe(JSON.parse(hf).results[2].times[4]);
  });
});

describe.skipIf(!cliBuilt)("the CLI", () => {
  it("import writes the table and --preset fio reads it; --format fio reads the files directly, same maps", async () => {
    const out = join(tmp, "fio.parquet");
    const r = varmap("import", "fio", ...fx("fio"), "--out", out);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/6 runs of 2 configurations from 3 file/);
    expect(r.out).toMatch(/--preset fio: factors \(none\); inputs bs; run run; response bw_bytes/);
    const a = await loadDataset(out, { preset: "fio", stat: "sd" });
    const b = await loadDataset(join(FX, "fio"), { format: "fio", stat: "sd" });
    expect(a.table.runs.length).toBe(6);
    expect(Array.from(b.maps[0].y)).toEqual(Array.from(a.maps[0].y));
    expect(b.table.source).toBe(join(FX, "fio"));
    const s = varmap("summarize", join(FX, "hyperfine", "sleep-scan.json"), "--format", "hyperfine", "--json", "--quiet");
    expect(s.code, s.err).toBe(0);
    expect(JSON.parse(s.out)).toMatchObject({ configurations: 3, runs: 15 });
  });

  const malformed: [string, string[], RegExp, RegExp][] = [];
  const truncated = join(tmp, "truncated.json");
  const text = readFileSync(fx("fio")[0], "utf8");
  writeFileSync(truncated, text.slice(0, Math.floor(text.length / 2)));
  malformed.push(["truncated JSON", ["fio", fx("fio")[1], truncated], /E_IMPORT_JSON/, /truncated\.json, row \d+, at \$\.jobs\[0\]/]);
  malformed.push([
    "fio error job",
    ["fio", fx("fio")[0], join(FX, "errors", "fio-error-job.json")],
    /E_IMPORT_RUN_FAILED/,
    /fio-error-job\.json, at \$\.jobs\[0\]\.error/,
  ]);
  const noTimes = join(tmp, "no-times.json");
  const hf = JSON.parse(readFileSync(fx("hyperfine")[0], "utf8"));
  delete hf.results[1].times;
  writeFileSync(noTimes, JSON.stringify(hf, null, 2));
  malformed.push(["hyperfine without times", ["hyperfine", noTimes], /E_IMPORT_NO_RUNS/, /no-times\.json, at \$\.results\[1\]\.times/]);
  malformed.push([
    "Google Benchmark with only aggregates",
    ["gbench", join(FX, "errors", "gbench-aggregates-only.json")],
    /E_IMPORT_NO_RUNS/,
    /gbench-aggregates-only\.json, at \$\.benchmarks: .*only aggregates/,
  ]);
  malformed.push(["mixed tools", ["fio", fx("fio")[0], fx("hyperfine")[0]], /E_IMPORT_MIXED/, /sleep-scan\.json, at \$: this is hyperfine output, not fio/]);

  for (const [what, args, code, where] of malformed) {
    it(`${what}: exit 2 naming the file and the JSON path, nothing written`, () => {
      const out = join(tmp, `bad-${what.replace(/\W+/g, "-")}.parquet`);
      const r = varmap("import", ...args, "--out", out);
      expect(r.code, r.err).toBe(2);
      expect(r.err).toMatch(code);
      expect(r.err).toMatch(where);
      expect(existsSync(out)).toBe(false);
      expect(readdirSync(tmp).filter((f) => f.startsWith(".bad-"))).toEqual([]);
    });
  }

  it("--format on a verb: a malformed file exits 2 too, and names the file", () => {
    const r = varmap("summarize", truncated, "--format", "fio");
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/E_IMPORT_JSON.*truncated\.json/);
  });
});
