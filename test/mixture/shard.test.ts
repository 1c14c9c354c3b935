// `varmap mixture --shard i/N` (issue 39 item 2): shards merged by `varmap merge` (and by `varmap slurm submit`'s
// scripts, run by hand as array tasks) write a fits.csv byte-identical to one unsharded `--out fits.csv` run.
import { beforeAll, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { tmpdir } from "node:os";
import { packageRoot } from "../../ts/package-root.js";
import { secondBackendRun } from "../helpers/once.js";

const cli = join(packageRoot(), "dist", "ts", "cli", "main.js");
const built = existsSync(cli);
const noSlurmPath = dirname(process.execPath) + ":/usr/bin:/bin";
const varmap = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  spawnSync(process.execPath, [cli, ...args], { encoding: "utf8", env: { ...process.env, ...env } });

describe.skipIf(secondBackendRun || !built)(`varmap mixture --shard${built ? "" : " (dist not built: run npm run build:ts)"}`, () => {
  const dir = mkdtempSync(join(tmpdir(), "varmap-mixture-shard-"));
  const data = join(dir, "runs.csv");
  // 90 configurations: 12 tasks of 8.
  const fitArgs = (...extra: string[]) => [
    "mixture",
    data,
    "--preset",
    "moana",
    "--where",
    "threads = 1",
    "--kmax",
    "2",
    "--workers",
    "1",
    "--quiet",
    ...extra,
  ];
  const whole = (name: string, ...extra: string[]) => {
    const out = join(dir, name);
    const r = varmap([...fitArgs(...extra), "--out", out]);
    expect(r.status, r.stderr).toBe(0);
    return readFileSync(out, "utf8");
  };
  const sharded = (name: string, n: number, ...extra: string[]) => {
    const dirs: string[] = [];
    for (let i = 1; i <= n; i++) {
      const d = join(dir, `${name}-${i}`);
      const r = varmap([...fitArgs(...extra), "--shard", `${i}/${n}`, "--out", d]);
      expect(r.status, r.stderr).toBe(0);
      expect(existsSync(join(d, "fits.csv"))).toBe(false);
      dirs.push(d);
    }
    const m = varmap(["merge", ...dirs, "--out", join(dir, `${name}-merged`)]);
    expect(m.status, m.stderr).toBe(0);
    return readFileSync(join(dir, `${name}-merged`, "fits.csv"), "utf8");
  };

  beforeAll(() => {
    const r = varmap(["synth", "--design", "moana", "--maps", "1", "--out", data, "--quiet"]);
    expect(r.status, r.stderr).toBe(0);
  });

  it("2 and 3 shards merged: fits.csv byte-identical to the unsharded table (default guarded BIC)", () => {
    const one = whole("fits.csv");
    expect(one.split("\n").length).toBe(90 * 2 + 2);
    expect(sharded("b2", 2)).toBe(one);
    expect(sharded("b3", 3)).toBe(one);
  });

  it("criterion cv and guard off: merged shards equal the unsharded table", () => {
    const cv = ["--criterion", "cv", "--folds", "3"];
    expect(sharded("cv2", 2, ...cv)).toBe(whole("cv.csv", ...cv));
    expect(sharded("off2", 2, "--guard", "off")).toBe(whole("off.csv", "--guard", "off"));
  });

  it("slurm submit --dry-run: array tasks run by hand and the merge script give the unsharded table", () => {
    const out = join(dir, "slurm-job");
    const args = ["mixture", data, "--preset", "moana", "--where", "threads = 1", "--kmax", "2"];
    const r = varmap(["slurm", "submit", ...args, "--shards", "2", "--out", out, "--dry-run"]);
    expect(r.status, r.stderr).toBe(0);
    for (const i of [1, 2]) {
      const t = spawnSync("bash", [join(out, "slurm", "array.sh")], {
        encoding: "utf8",
        env: { ...process.env, PATH: noSlurmPath, SLURM_ARRAY_TASK_ID: String(i) },
      });
      expect(t.status, t.stderr).toBe(0);
    }
    const m = spawnSync("bash", [join(out, "slurm", "merge.sh")], { encoding: "utf8", env: { ...process.env, PATH: noSlurmPath } });
    expect(m.status, m.stderr).toBe(0);
    expect(readFileSync(join(out, "merged", "fits.csv"), "utf8")).toBe(whole("slurm.csv"));
  });

  it("bad input: --shard without --out, with --validate or --job-dir: exit 2, E_USAGE", () => {
    for (const extra of [
      ["--shard", "1/2"],
      ["--shard", "1/2", "--out", join(dir, "v"), "--validate"],
      ["--shard", "1/2", "--out", join(dir, "j"), "--job-dir", join(dir, "jd")],
    ]) {
      const r = varmap([...fitArgs(), ...extra]);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/E_USAGE/);
    }
    expect(existsSync(join(dir, "v"))).toBe(false);
    expect(existsSync(join(dir, "j"))).toBe(false);
  });
});
