// `varmap slurm submit|status|merge` through the built CLI, without a cluster: --dry-run scripts run by hand as
// array tasks (SLURM_ARRAY_TASK_ID set) and merged; submission through a stand-in sbatch that records its
// arguments; bad input (exit 2, nothing written). test/cluster/slurm.test.ts runs the same on a real Slurm.
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { packageRoot } from "../../ts/package-root.js";
import { dataPath, hasShared, sharedSkipReason } from "../helpers/shared.js";
import { onceReason, secondBackendRun } from "../helpers/once.js";

const cli = join(packageRoot(), "dist", "ts", "cli", "main.js");
const built = existsSync(cli);
const tmp = (): string => mkdtempSync(join(tmpdir(), "varmap-slurm-cli-"));
const noSlurmPath = dirname(process.execPath) + ":/usr/bin:/bin"; // where a system slurm-client may also live
const varmap = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  spawnSync(process.execPath, [cli, ...args], { encoding: "utf8", env: { ...process.env, ...env } });

function outputs(dir: string): Record<string, string> {
  const o: Record<string, string> = {};
  for (const f of readdirSync(dir).sort()) if (f !== "run-log.json") o[f] = readFileSync(join(dir, f), "utf8");
  return o;
}

describe.skipIf(secondBackendRun || !built || !hasShared)(
  `varmap slurm${!built ? " (dist not built: run npm run build:ts)" : !hasShared ? ` (${sharedSkipReason})` : ""}`,
  () => {
    const data = () => dataPath("moana-cfq-noop-fread.csv");
    const cvArgs = () => ["cv", data(), "--preset", "moana", "--methods", "lr,mean", "--reps", "10", "--seed", "3"];

    it("--dry-run writes runnable scripts: 4 array tasks by hand, a failed one reported with its resubmit command, then merged", () => {
      const out = join(tmp(), "job");
      const r = varmap(["slurm", "submit", ...cvArgs(), "--shards", "4", "--out", out, "--dry-run", "--time", "0:05:00", "--mem", "2G"]);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/dry run: nothing submitted/);
      const array = readFileSync(join(out, "slurm", "array.sh"), "utf8");
      expect(array.split("\n")[0]).toBe("#!/bin/bash");
      expect(array).toMatch(/^#SBATCH --array=1-4$/m);
      expect(array).toMatch(/^#SBATCH --cpus-per-task=1$/m);
      expect(array).toMatch(/^#SBATCH --time=0:05:00$/m);
      expect(array).toMatch(/^#SBATCH --mem=2G$/m);
      expect(array).not.toMatch(/npx/);
      expect(array).toContain(`exec ${process.execPath} ${cli} cv `);
      expect(array).toContain(`--shard auto --shards 4 --out ${out}/shards/"$SLURM_ARRAY_TASK_ID"`);
      const merge = readFileSync(join(out, "slurm", "merge.sh"), "utf8");
      expect(merge.split("\n")[0]).toBe("#!/bin/bash");
      expect(merge).toContain(`exec ${process.execPath} ${cli} slurm merge ${out}`);
      expect(JSON.parse(readFileSync(join(out, "slurm", "job.json"), "utf8")).submissions).toEqual([]);

      const task = (i: number) =>
        spawnSync("bash", [join(out, "slurm", "array.sh")], { encoding: "utf8", env: { ...process.env, PATH: noSlurmPath, SLURM_ARRAY_TASK_ID: String(i) } });
      for (const i of [1, 2, 4]) expect(task(i).status).toBe(0);
      const bad = task(5);
      expect(bad.status).toBe(2);
      expect(bad.stderr).toMatch(/E_SHARD_INDEX.*outside 1..4/);
      const st = varmap(["slurm", "status", out], { PATH: noSlurmPath });
      expect(st.stdout).toMatch(/^3 +missing/m);
      expect(st.stdout).toContain(`J=$(sbatch --parsable --array=3 ${out}/slurm/array.sh) && sbatch --dependency=afterany:\${J%%;*} ${out}/slurm/merge.sh`);
      const early = spawnSync("bash", [join(out, "slurm", "merge.sh")], { encoding: "utf8", env: { ...process.env, PATH: noSlurmPath } });
      expect(early.status).toBe(2);
      expect(early.stderr).toMatch(/E_SHARDS_INCOMPLETE.*shard\(s\) 3 of 4 not done/);
      expect(existsSync(join(out, "merged"))).toBe(false);
      // Shard 3 part-done (a manifest, one journal line): running while a live process holds its lock, then failed.
      const s3 = join(out, "shards", "3");
      mkdirSync(s3);
      writeFileSync(join(s3, "manifest.json"), readFileSync(join(out, "shards", "1", "manifest.json"), "utf8").replace('"shard": "1/4"', '"shard": "3/4"'));
      writeFileSync(join(s3, "journal.jsonl"), readFileSync(join(out, "shards", "1", "results.jsonl"), "utf8").split("\n")[0] + "\n");
      writeFileSync(join(s3, ".varmap.lock"), JSON.stringify({ host: hostname(), pid: process.pid, started: "t", command: "varmap cv" }));
      const running = varmap(["slurm", "status", out], { PATH: noSlurmPath }).stdout;
      expect(running).toMatch(new RegExp(`^3 +running +1/\\d+ +pid ${process.pid} on `, "m"));
      expect(running).not.toMatch(/To resubmit/);
      rmSync(join(s3, ".varmap.lock"));
      const failed = varmap(["slurm", "status", out], { PATH: noSlurmPath }).stdout;
      expect(failed).toMatch(/^3 +failed +1\/\d+ +interrupted: partial results, no live run$/m);
      expect(failed).toContain("--array=3 ");
      expect(task(3).status).toBe(0); // finishes the shard (the borrowed journal line is not one of its tasks)
      const m = spawnSync("bash", [join(out, "slurm", "merge.sh")], { encoding: "utf8", env: { ...process.env, PATH: noSlurmPath } });
      expect(m.status, m.stderr).toBe(0);
      const whole = tmp();
      expect(varmap([...cvArgs(), "--out", whole, "--quiet"]).status).toBe(0);
      expect(outputs(join(out, "merged"))).toEqual(outputs(whole));
      expect(varmap(["slurm", "status", out], { PATH: noSlurmPath }).stdout).toMatch(/4 done, 0 running, 0 pending, 0 failed, 0 missing\nmerged outputs/);
    });

    it("submits the array, then the merge with afterany on it, and records the job ids", () => {
      const bin = tmp();
      const calls = join(bin, "calls.txt");
      writeFileSync(join(bin, "sbatch"), `#!/bin/sh\necho "$@" >> ${calls}\nn=$(wc -l < ${calls})\necho "$((100 + n));cluster"\n`);
      chmodSync(join(bin, "sbatch"), 0o755);
      const out = join(tmp(), "job");
      const r = varmap(["slurm", "submit", ...cvArgs(), "--shards", "3", "--out", out, "--partition", "short"], { PATH: `${bin}:${noSlurmPath}` });
      expect(r.status, r.stderr).toBe(0);
      expect(readFileSync(calls, "utf8")).toBe(`--parsable ${out}/slurm/array.sh\n--parsable --dependency=afterany:101 ${out}/slurm/merge.sh\n`);
      expect(r.stdout).toMatch(/submitted array job 101 \(shards 1-3\) and merge job 102 \(afterany:101\)/);
      expect(r.stdout).toMatch(/follow: +squeue -j 101,102/);
      expect(r.stdout).toContain(`status:  ${process.execPath} ${cli} slurm status ${out}`);
      expect(JSON.parse(readFileSync(join(out, "slurm", "job.json"), "utf8")).submissions[0]).toMatchObject({
        arrayJob: "101",
        mergeJob: "102",
        indices: "1-3",
      });
      expect(readFileSync(join(out, "slurm", "array.sh"), "utf8")).toMatch(/^#SBATCH --partition=short$/m);
      // The same --out again: refused (status and the resubmit command are the way on).
      const again = varmap(["slurm", "submit", ...cvArgs(), "--shards", "3", "--out", out], { PATH: `${bin}:${noSlurmPath}` });
      expect(again.status).toBe(2);
      expect(again.stderr).toMatch(/E_OUT.*already holds a submitted job/);
    });

    it("bad input: exit 2 with a code, nothing written", () => {
      const parent = tmp();
      const out = join(parent, "job");
      const cases: [string[], RegExp, NodeJS.ProcessEnv?][] = [
        [[...cvArgs(), "--out", out], /E_USAGE.*needs --shards/],
        [[...cvArgs(), "--shards", "0", "--out", out], /E_USAGE.*--shards '0'/],
        [[...cvArgs(), "--shards", "-2", "--out", out], /E_USAGE|error/],
        [["fit", data(), "--preset", "moana", "--shards", "2", "--out", out], /E_NOT_SHARDABLE.*'fit' cannot be sharded.*cv, mixture, refit/],
        [[...cvArgs(), "--shard", "1/2", "--shards", "2", "--out", out], /E_USAGE.*--shard is set by varmap slurm submit/],
        [[...cvArgs(), "--bogus", "--shards", "2", "--out", out], /E_USAGE.*cv arguments are not valid.*--bogus/],
        [["cv", join(parent, "nope.csv"), "--preset", "moana", "--shards", "2", "--out", out], /E_FILE_NOT_FOUND/],
        [[...cvArgs(), "--shards", "2"], /E_USAGE.*needs --out/],
        [[...cvArgs(), "--shards", "2", "--out", out, "--cpus-per-task", "0"], /E_USAGE.*--cpus-per-task/],
        [[...cvArgs(), "--shards", "2", "--out", out], /E_NO_SBATCH.*sbatch is not on PATH.*apt-get install slurm-client.*--dry-run/, { PATH: tmp() }],
      ];
      for (const [args, msg, env] of cases) {
        const r = varmap(["slurm", "submit", ...args], env);
        expect(r.status, `${args.join(" ")}: ${r.stderr}`).toBe(2);
        expect(r.stderr.replace(/\n/g, " ")).toMatch(msg);
        expect(existsSync(out), args.join(" ")).toBe(false);
      }
      mkdirSync(out);
      const st = varmap(["slurm", "status", out]);
      expect(st.status).toBe(2);
      expect(st.stderr).toMatch(/E_SLURM_JOB/);
    });
  },
);

describe.runIf(secondBackendRun)(`this file${onceReason}`, () => {
  it.skip("skipped on the wasm run", () => {});
});
