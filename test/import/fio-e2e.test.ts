// issue 42: a fio campaign run here (3 block sizes x 2 iodepths x 10 runs, psync on a 1 MiB file in a temporary
// directory, 20 ms per job), imported and analysed with --preset fio alone. Skips, saying so, without fio
// (.ci/run installs it). fio spends ~0.3 s of wall time per job (little CPU): two processes of 30 jobs run side by side.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliBuilt, cliIn } from "../helpers/cli.js";
import { analyse } from "./pipeline.js";

const hasFio = !spawnSync("fio", ["--version"]).error;
if (!hasFio) console.warn("test/import/fio-e2e: fio is not installed (apt-get install fio): skipped");

function run(cmd: string, args: string[], cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const p = spawn(cmd, args, { cwd, stdio: ["ignore", "ignore", "pipe"] });
    let err = "";
    p.stderr.on("data", (d) => (err += d));
    p.on("error", reject);
    p.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} exited ${code}: ${err}`))));
  });
}

describe.skipIf(!hasFio || !cliBuilt)("fio end to end (needs fio and the built CLI)", () => {
  const dir = mkdtempSync(join(tmpdir(), "varmap-fio-e2e-"));
  const varmap = cliIn(dir);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  beforeAll(async () => {
    for (const part of ["a", "b"]) {
      const lines = ["[global]", `filename=${join(dir, `data-${part}`)}`, "size=1M", "rw=randread", "ioengine=psync", "runtime=20ms", "time_based=1", ""];
      for (let r = 0; r < 5; r++)
        for (const bs of ["4k", "16k", "64k"]) for (const qd of [1, 4]) lines.push(`[r${r}-bs${bs}-qd${qd}]`, "stonewall", `bs=${bs}`, `iodepth=${qd}`, "");
      writeFileSync(join(dir, `${part}.fio`), lines.join("\n"));
    }
    // json for one file, json+ (latency bins) for the other: both are read.
    await Promise.all([
      run("fio", ["a.fio", "--output-format=json", "--output=run-a.json"], dir),
      run("fio", ["b.fio", "--output-format=json+", "--output=run-b.json"], dir),
    ]);
  }, 120_000);

  it("imports 60 runs of 6 configurations with bs and iodepth as inputs", () => {
    const r = varmap("import", "fio", "run-a.json", "run-b.json", "--out", "runs.parquet", "--json");
    expect(r.code, r.err).toBe(0);
    const s = JSON.parse(r.out);
    expect(s).toMatchObject({ runs: 60, configurations: 6, files: 2, roles: { factors: [], inputs: ["bs", "iodepth"], run: "run", response: "bw_bytes" } });
    expect(s.columns.map((c: { name: string }) => c.name)).toEqual(
      expect.arrayContaining(["read_bw_bytes", "read_iops", "read_clat_mean_ns", "read_clat_p99_ns"]),
    );
  });

  it("summarize, fit --method auto, mixture, refit and report with --preset fio alone", () => {
    analyse(varmap, dir, join(dir, "runs.parquet"), "fio", 6, 10);
  }, 120_000);
});
