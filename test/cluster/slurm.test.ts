// A real Slurm cluster on localhost (test/cluster/slurm.sh): `varmap slurm submit` of a 4-shard cv on the MOANA
// data, merged outputs byte-identical to an unsharded run, a task cancelled mid-run and resubmitted with the
// command `varmap slurm status` prints. As root the script installs Slurm and munge with apt when they are
// missing; it skips (saying why) only when it is not root and Slurm is absent. About 30 s on an idle 2-core machine.
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { packageRoot } from "../../ts/package-root.js";
import { hasShared, sharedDir, sharedSkipReason } from "../helpers/shared.js";
import { onceReason, secondBackendRun } from "../helpers/once.js";

const script = join(packageRoot(), "test", "cluster", "slurm.sh");
const built = existsSync(join(packageRoot(), "dist", "ts", "cli", "main.js"));
const onPath = (exe: string): boolean => spawnSync("sh", ["-c", `command -v ${exe}`]).status === 0;
const root = process.getuid?.() === 0;
const slurmPresent = ["slurmctld", "slurmd", "sbatch", "munged"].every(onPath);
const why = !built
  ? " (dist not built: run npm run build)"
  : !hasShared
    ? ` (${sharedSkipReason})`
    : !root && !slurmPresent
      ? " (not root and Slurm absent: apt-get install slurmctld slurmd slurm-client munge, or run as root)"
      : "";
if (why) console.warn(`slurm cluster test skipped${why}`);

describe.skipIf(secondBackendRun || why !== "")(`Slurm cluster${why}`, () => {
  it("varmap slurm submit on a one-node Slurm: merge identical to an unsharded run; a cancelled task resubmitted and merged again", (ctx) => {
    const work = mkdtempSync(join(tmpdir(), "varmap-slurm-"));
    const t0 = Date.now();
    try {
      const r = spawnSync("bash", [script, work], {
        encoding: "utf8",
        env: { ...process.env, VARMAP_SHARED: sharedDir, VARMAP_NODE: process.execPath },
        timeout: 600_000,
      });
      const seconds = (Date.now() - t0) / 1000;
      console.log(`test/cluster/slurm.sh: exit ${r.status} after ${seconds.toFixed(1)} s\n${r.stdout}`);
      if (r.status === 77) {
        console.warn(r.stderr);
        ctx.skip();
      }
      expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
      expect(r.stdout).toMatch(/run1: 1 worker per task \(--cpus-per-task 1\); merged outputs byte-identical/);
      expect(r.stdout).toMatch(/run2: shard \d resumed \d+ task\(s\) from its journal; merged outputs byte-identical again/);
      expect(r.stdout).toMatch(/run3: status named the killed task.s ended job; wait ended with the resubmit command, then with the merge/);
      expect(r.stdout).toMatch(/stopped slurmd .*\n.*stopped slurmctld/);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }, 600_000);
});

describe.runIf(secondBackendRun)(`this file${onceReason}`, () => {
  it.skip("skipped on the wasm run", () => {});
});
