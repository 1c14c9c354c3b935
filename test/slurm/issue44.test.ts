// Issue 44 items 9–12 and 19 (varmap slurm), through the built CLI with stand-in sbatch/squeue/scancel scripts
// (test/cluster/slurm.test.ts runs a real Slurm): values checked at submit by building the verb's plan (S1), a
// failed task's last error in status, a moved or copied job directory read where it is (S2), a lock left by a
// task killed on another node recognized through squeue (S3), the merge job's own resources, --max-running,
// --setup and --wait (S4), and a failed submit that leaves nothing behind (19). Each failed before its fix.
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { packageRoot } from "../../ts/package-root.js";
import { dataPath, hasShared, sharedSkipReason } from "../helpers/shared.js";

const cli = join(packageRoot(), "dist", "ts", "cli", "main.js");
const built = existsSync(cli);
const tmp = (): string => mkdtempSync(join(tmpdir(), "varmap-slurm-44-"));
const basePath = dirname(process.execPath) + ":/usr/bin:/bin";
/** This process's environment without Slurm's variables (the tests set them where a task would have them). */
const baseEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("SLURM_")));
const varmap = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  spawnSync(process.execPath, [cli, ...args], { encoding: "utf8", env: { ...baseEnv, PATH: basePath, ...env } });
const oneLine = (s: string) => s.replace(/\s+/g, " ");

/** A directory of stand-in Slurm commands. squeue prints the lines of $FAKE_SQUEUE (a file), whatever is asked. */
function fakeSlurm(opts: { sbatch?: string } = {}): { bin: string; calls: string; path: string } {
  const bin = tmp();
  const calls = join(bin, "calls.txt");
  const sbatch = opts.sbatch ?? `#!/bin/bash\necho "sbatch $*" >> ${calls}\nn=$(grep -c . ${calls})\necho "$((100 + n));cluster"\n`;
  writeFileSync(join(bin, "sbatch"), sbatch);
  writeFileSync(
    join(bin, "squeue"),
    `#!/bin/bash\necho "squeue $*" >> ${calls}\n[ -n "$FAKE_SQUEUE" ] && [ -f "$FAKE_SQUEUE" ] && cat "$FAKE_SQUEUE"\nexit 0\n`,
  );
  writeFileSync(join(bin, "scancel"), `#!/bin/bash\necho "scancel $*" >> ${calls}\n`);
  for (const f of ["sbatch", "squeue", "scancel"]) chmodSync(join(bin, f), 0o755);
  return { bin, calls, path: `${bin}:${basePath}` };
}

describe.skipIf(!built || !hasShared)(
  `varmap slurm, issue 44${!built ? " (dist not built: run npm run build:ts)" : !hasShared ? ` (${sharedSkipReason})` : ""}`,
  () => {
    const data = () => dataPath("moana-cfq-noop-fread.csv");
    const cv = (...extra: string[]) => ["cv", data(), "--preset", "moana", "--methods", "lr,mean", "--reps", "10", "--seed", "3", ...extra];
    /** Runs array task i of a dry-run job by hand, its output into the log Slurm would write (array job 900). */
    const task = (out: string, i: number, env: NodeJS.ProcessEnv = {}) => {
      const r = spawnSync("bash", [join(out, "slurm", "array.sh")], {
        encoding: "utf8",
        env: { ...baseEnv, PATH: basePath, SLURM_ARRAY_TASK_ID: String(i), ...env },
      });
      writeFileSync(join(out, "slurm", "logs", `shard-${i}-900.log`), r.stdout + r.stderr);
      return r;
    };

    it("S1: a value the verb refuses is refused at submit, with the verb's own error, and nothing is written", () => {
      const parent = tmp();
      const out = join(parent, "job");
      const cases: [string[], RegExp][] = [
        [["cv", data(), "--preset", "moana", "--methods", "lr,foo"], /E_METHOD.*unknown method 'foo'/],
        [["cv", data(), "--preset", "moana", "--methods", "lr", "--reps", "-3"], /E_USAGE.*--reps must be a positive integer, got '-3'/],
        [["cv", data(), "--preset", "moana", "--methods", "lr", "--interval", "2"], /E_USAGE.*--interval 2 is not a coverage level/],
        [["cv", data(), "--preset", "moana", "--response", "nope", "--methods", "lr"], /E_[A-Z_]+.*nope/],
        [cv("--p", "0.5"), /E_USAGE.*--shards 4 is more than the 2 task\(s\) of this cv.*give --shards 2 or fewer/],
        [["gev", data(), "--preset", "moana", "--compare", "vm_sched=CFQ,NOOP"], /E_NOT_SHARDABLE.*gev --compare/],
      ];
      const { path } = fakeSlurm();
      for (const [args, msg] of cases) {
        const r = varmap(["slurm", "submit", ...args, "--shards", "4", "--out", out], { PATH: path });
        expect(r.status, `${args.join(" ")}: ${r.stderr}`).toBe(2);
        expect(oneLine(r.stderr)).toMatch(msg);
        expect(existsSync(out), args.join(" ")).toBe(false);
      }
      expect(readdirSync(parent)).toEqual([]);
    });

    it("S1: status shows a failed task's last E_ line (a task that failed before starting is failed, not missing)", () => {
      const out = join(tmp(), "job");
      // --no-check lets the bad value through, as every submit did before.
      const r = varmap(["slurm", "submit", "cv", data(), "--preset", "moana", "--methods", "lr,foo", "--shards", "2", "--out", out, "--dry-run", "--no-check"]);
      expect(r.status, r.stderr).toBe(0);
      expect(task(out, 1).status).toBe(2);
      const st = varmap(["slurm", "status", out]);
      expect(st.stdout).toMatch(/^1 +failed +- +failed before starting; last error: \[E_METHOD\]: unknown method 'foo'.*shard-1-900\.log\)$/m);
      expect(st.stdout).toMatch(/^2 +missing +- +not started$/m);
      expect(oneLine(st.stdout)).toMatch(/Shard\(s\) 1 stopped at an error before their first task .* fix its cause first/);
      expect(JSON.parse(varmap(["slurm", "status", out, "--json"]).stdout).shards[0].state).toBe("failed");
    });

    it("S2: status and merge read the directory given: a copy is merged from its own shards, a moved job is found where it is", () => {
      const parent = tmp();
      const out = join(parent, "job");
      expect(varmap(["slurm", "submit", ...cv(), "--shards", "2", "--out", out, "--dry-run"]).status).toBe(0);
      expect(task(out, 1).status).toBe(0);
      const copy = join(parent, "copy");
      cpSync(out, copy, { recursive: true });
      expect(task(out, 2).status).toBe(0); // the original completes; the copy does not have shard 2
      const m = varmap(["slurm", "merge", copy]);
      expect(m.status, m.stdout).toBe(2);
      expect(oneLine(m.stderr)).toMatch(/E_SHARDS_INCOMPLETE.*shard\(s\) 2 of 2 not done/);
      expect(m.stderr).toContain(`submitted as ${out}, not here (moved or copied)`);
      expect(existsSync(join(copy, "merged"))).toBe(false);
      expect(existsSync(join(out, "merged"))).toBe(false); // the original was not merged behind the user's back
      const cst = varmap(["slurm", "status", copy]).stdout;
      expect(cst).toMatch(/^2 +missing/m);
      const w = varmap(["slurm", "wait", copy, "--timeout", "5"]);
      expect(w.status).toBe(2);
      expect(oneLine(w.stderr)).toMatch(/E_SLURM_MOVED.*was submitted as .*job \(moved or copied\)/);
      expect(cst).not.toMatch(/J=\$\(sbatch/); // its scripts write into the original: no resubmit command from here
      expect(oneLine(cst)).toMatch(/resubmit from there, or submit the job again into a new --out/);
      // mv: every shard is found where it is now, and the merge writes here.
      const moved = join(parent, "moved");
      renameSync(out, moved);
      const mst = varmap(["slurm", "status", moved]).stdout;
      expect(mst).toMatch(/2 done, 0 running, 0 pending, 0 failed, 0 missing/);
      const mm = varmap(["slurm", "merge", moved]);
      expect(mm.status, mm.stderr).toBe(0);
      expect(existsSync(join(moved, "merged", "are.csv"))).toBe(true);
      expect(JSON.parse(readFileSync(join(moved, "slurm", "job.json"), "utf8")).out).toBe(out); // read-only: the record is kept
    });

    it("S3: a lock left by a task killed on another node is stale once squeue no longer runs its job", () => {
      const out = join(tmp(), "job");
      const fake = fakeSlurm();
      const queue = join(fake.bin, "queue.txt");
      expect(varmap(["slurm", "submit", ...cv(), "--shards", "2", "--out", out, "--dry-run"]).status).toBe(0);
      expect(task(out, 1).status).toBe(0);
      // Shard 2 part-done under a lock written on another node by array task 4242_2 (SIGKILLed: nothing removed it).
      const s2 = join(out, "shards", "2");
      mkdirSync(s2);
      writeFileSync(join(s2, "manifest.json"), readFileSync(join(out, "shards", "1", "manifest.json"), "utf8").replace('"shard": "1/2"', '"shard": "2/2"'));
      writeFileSync(join(s2, "journal.jsonl"), "");
      const lock = { host: "node-17.cluster", pid: 31337, started: new Date().toISOString(), command: "varmap cv", slurm: { job: "4243", task: "4242_2" } };
      writeFileSync(join(s2, ".varmap.lock"), JSON.stringify(lock));
      // While squeue shows its job running: running.
      writeFileSync(queue, "RUNNING\n");
      const live = varmap(["slurm", "status", out], { PATH: fake.path, FAKE_SQUEUE: queue }).stdout;
      expect(live).toMatch(/^2 +running .*pid 31337 on node-17.cluster, job 4242_2$/m);
      // Killed: squeue no longer lists it. Before, this said "running" for 2 minutes and the merge promised a later merge.
      writeFileSync(queue, "");
      const st = varmap(["slurm", "status", out], { PATH: fake.path, FAKE_SQUEUE: queue }).stdout;
      expect(st).toMatch(/^2 +failed .*interrupted: its Slurm job 4243 has ended \(not in squeue\) \(pid 31337 on node-17.cluster, Slurm job 4242_2\)$/m);
      expect(st).toContain("--array=2 ");
      const m = varmap(["slurm", "merge", out], { PATH: fake.path, FAKE_SQUEUE: queue });
      expect(m.status).toBe(2);
      expect(oneLine(m.stderr)).toMatch(/resubmit them and a new merge with: J=\$\(sbatch --parsable --array=2 /);
      expect(m.stderr).not.toMatch(/will merge/);
      // The rerun takes the lock over at once (before: E_OUT_LOCKED for 2 minutes) and completes the shard.
      const rerun = task(out, 2, { PATH: fake.path, FAKE_SQUEUE: queue });
      expect(rerun.status, rerun.stderr).toBe(0);
      expect(rerun.stderr).toMatch(/replacing the stale lock .*its Slurm job 4243 has ended/);
      // Another process of the same running job (another node, same restart count) is refused: the lock is live.
      writeFileSync(join(s2, ".varmap.lock"), JSON.stringify(lock));
      writeFileSync(queue, "RUNNING\n");
      const twin = task(out, 2, { PATH: fake.path, FAKE_SQUEUE: queue, SLURM_JOB_ID: "4243" });
      expect(twin.status).toBe(2);
      expect(twin.stderr).toMatch(/E_OUT_LOCKED/);
      // A requeued task (same job id, restarted, another node) takes its own earlier lock over.
      writeFileSync(join(s2, ".varmap.lock"), JSON.stringify(lock));
      writeFileSync(queue, "RUNNING\n");
      const requeued = task(out, 2, { PATH: fake.path, FAKE_SQUEUE: queue, SLURM_JOB_ID: "4243", SLURM_RESTART_COUNT: "1" });
      expect(requeued.status, requeued.stderr).toBe(0);
      expect(requeued.stderr).toMatch(/earlier run of this Slurm job/);
    });

    it("S4: the merge job has its own resources; --max-running, --setup; --sbatch stays with the array", () => {
      const out = join(tmp(), "job");
      const submit = (mergeTime: string[]) =>
        varmap([
          "slurm",
          "submit",
          ...cv(),
          "--shards",
          "4",
          "--out",
          out,
          "--dry-run",
          "--time",
          "2:00:00",
          "--mem",
          "4G",
          "--partition",
          "short",
          "--cpus-per-task",
          "2",
          "--sbatch=--constraint=avx2",
          "--merge-sbatch=--mem=16G",
          ...mergeTime,
          "--max-running",
          "2",
          "--setup",
          "module load nodejs/20",
          "--setup",
          "export FOO=1",
        ]);
      // -t with its value in the next flag is not one option: refused; give it as --time=…
      const r = submit(["--merge-sbatch=-t", "--merge-sbatch=0:20:00"]);
      expect(r.status).toBe(2);
      expect(oneLine(r.stderr)).toMatch(/E_USAGE.*--merge-sbatch "0:20:00" is not one sbatch option/);
      const ok = submit(["--merge-sbatch=--time=0:20:00"]);
      expect(ok.status, ok.stderr).toBe(0);
      const array = readFileSync(join(out, "slurm", "array.sh"), "utf8");
      const merge = readFileSync(join(out, "slurm", "merge.sh"), "utf8");
      const sb = (s: string) =>
        s
          .split("\n")
          .filter((l) => l.startsWith("#SBATCH "))
          .map((l) => l.slice(8));
      expect(sb(array)).toEqual(
        expect.arrayContaining(["--array=1-4%2", "--cpus-per-task=2", "--time=2:00:00", "--mem=4G", "--partition=short", "--constraint=avx2"]),
      );
      expect(sb(merge)).toEqual(expect.arrayContaining(["--cpus-per-task=1", "--partition=short", "--mem=16G", "--time=0:20:00"]));
      expect(sb(merge).filter((x) => /^--(mem|time)=/.test(x))).toEqual(["--mem=16G", "--time=0:20:00"]); // replaced, not doubled
      expect(merge).not.toMatch(/--constraint|--array/);
      for (const s of [array, merge]) expect(s).toMatch(/^set -e\n# setup \(--setup\):\nmodule load nodejs\/20\nexport FOO=1\nset -u\n/m);
      // The setup lines run before varmap (a task by hand: `module` is not a command here, so the task stops there).
      const t = spawnSync("bash", [join(out, "slurm", "array.sh")], { encoding: "utf8", env: { ...baseEnv, PATH: basePath, SLURM_ARRAY_TASK_ID: "1" } });
      expect(t.status).not.toBe(0);
      expect(t.stderr).toMatch(/module: command not found/);
      expect(existsSync(join(out, "shards", "1"))).toBe(false);
      // The resubmit command keeps the limit.
      expect(varmap(["slurm", "status", out]).stdout).toContain("--array=1-4%2 ");
      // A newline in --setup hides a second line: refused.
      const nl = varmap(["slurm", "submit", ...cv(), "--shards", "2", "--out", join(tmp(), "j"), "--dry-run", "--setup", "module load a\nrm -rf ~"]);
      expect(nl.status).toBe(2);
      expect(nl.stderr).toMatch(/E_USAGE.*--setup .* control character/);
      const mr = varmap(["slurm", "submit", ...cv(), "--shards", "2", "--out", join(tmp(), "j"), "--dry-run", "--max-running", "0"]);
      expect(mr.stderr).toMatch(/E_USAGE.*--max-running '0'/);
    });

    it("S4: submit --wait and slurm wait block until merged; wait ends with the resubmit command when nothing runs", () => {
      // A stand-in sbatch that runs the job at once: the array's tasks one after the other, then the merge.
      const fake = fakeSlurm();
      const sbatch = `#!/bin/bash
echo "sbatch $*" >> ${fake.calls}
n=$(grep -c '^sbatch' ${fake.calls}); id=$((100 + n)); script="\${@: -1}"
if grep -q -- '--array=' "$script"; then
  N=$(sed -n 's/^#SBATCH --array=1-\\([0-9]*\\).*/\\1/p' "$script"); logs=$(dirname "$script")/logs
  for i in $(seq 1 "$N"); do SLURM_ARRAY_TASK_ID=$i SLURM_JOB_ID=$id bash "$script" > "$logs/shard-$i-$id.log" 2>&1; done
else
  SLURM_JOB_ID=$id bash "$script" > "$(dirname "$script")/logs/merge-$id.log" 2>&1
fi
echo "$id;cluster"
`;
      writeFileSync(join(fake.bin, "sbatch"), sbatch);
      const out = join(tmp(), "job");
      const r = varmap(["slurm", "submit", ...cv(), "--shards", "2", "--out", out, "--wait", "--wait-interval", "0.1", "--wait-timeout", "60"], {
        PATH: fake.path,
      });
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`merged after \\d+ s: ${out}/merged/`));
      expect(existsSync(join(out, "merged", "are.csv"))).toBe(true);
      const w = varmap(["slurm", "wait", out, "--json"], { PATH: fake.path });
      expect(w.status, w.stderr).toBe(0);
      expect(JSON.parse(w.stdout).merged).toBe(join(out, "merged"));

      // A dry run with a failed shard: nothing is queued (squeue empty), so wait ends with the resubmit command.
      const out2 = join(tmp(), "job");
      expect(varmap(["slurm", "submit", ...cv(), "--shards", "2", "--out", out2, "--dry-run"]).status).toBe(0);
      expect(task(out2, 1).status).toBe(0);
      const ended = varmap(["slurm", "wait", out2, "--interval", "0.1"], { PATH: fake.path });
      expect(ended.status).toBe(2);
      expect(oneLine(ended.stderr)).toMatch(/E_SHARDS_INCOMPLETE.*shard\(s\) 2 of 2 are not done.*--array=2 /);
      // Without squeue nothing says the shard will not come: the timeout ends the wait.
      const timeout = varmap(["slurm", "wait", out2, "--interval", "0.1", "--timeout", "0.3"]);
      expect(timeout.status).toBe(2);
      expect(timeout.stderr).toMatch(/E_SLURM_WAIT_TIMEOUT.*not merged after 0.3 s/);
      expect(varmap(["slurm", "submit", ...cv(), "--shards", "2", "--out", join(tmp(), "j"), "--dry-run", "--wait"]).stderr).toMatch(
        /E_USAGE.*--wait and --dry-run/,
      );
    });

    it("19: a submit that sbatch refuses leaves no scripts behind; a refused merge cancels the array", () => {
      const parent = tmp();
      const out = join(parent, "job");
      const refuse = fakeSlurm({ sbatch: "#!/bin/sh\necho 'sbatch: error: invalid partition specified: nope' >&2\nexit 1\n" });
      const r = varmap(["slurm", "submit", ...cv(), "--shards", "2", "--out", out, "--partition", "nope"], { PATH: refuse.path });
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/E_SBATCH.*invalid partition/);
      expect(existsSync(out)).toBe(false);
      // --out existed (empty): it stays, empty.
      mkdirSync(out);
      expect(varmap(["slurm", "submit", ...cv(), "--shards", "2", "--out", out], { PATH: refuse.path }).status).toBe(2);
      expect(readdirSync(out)).toEqual([]);
      // The array is accepted, the merge refused: the array is cancelled and nothing is left.
      const half = fakeSlurm();
      writeFileSync(
        join(half.bin, "sbatch"),
        `#!/bin/sh\necho "sbatch $*" >> ${half.calls}\ncase "$*" in *dependency*) echo 'sbatch: error: QOSMaxSubmitJobPerUserLimit' >&2; exit 1;; esac\necho "555;cluster"\n`,
      );
      const h = varmap(["slurm", "submit", ...cv(), "--shards", "2", "--out", join(parent, "half")], { PATH: half.path });
      expect(h.status).toBe(2);
      expect(h.stderr).toMatch(/E_SBATCH.*QOSMaxSubmitJobPerUserLimit/);
      expect(readFileSync(half.calls, "utf8")).toMatch(/^scancel 555$/m);
      expect(existsSync(join(parent, "half"))).toBe(false);
      rmSync(parent, { recursive: true, force: true });
    });
  },
);
