// The synthetic moana design the Table-2 workloads run on: generated once with `varmap synth --design moana --seed 1`
// into $TMPDIR/varmap-bench/moana-synth.parquet (117 maps, 94,770 configurations, 3.8 M runs).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { packageRoot } from "../ts/package-root.js";

export const benchDir = join(tmpdir(), "varmap-bench");

export function table2Dataset(): string {
  mkdirSync(benchDir, { recursive: true });
  const file = join(benchDir, "moana-synth.parquet");
  if (!existsSync(file)) {
    process.stderr.write(`generating the synthetic moana design into ${file}\n`);
    const cli = join(packageRoot(), "dist", "ts", "cli", "main.js");
    const r = spawnSync(process.execPath, [cli, "synth", "--design", "moana", "--seed", "1", "--out", file, "--quiet"], { stdio: "inherit" });
    if (r.status !== 0) throw new Error(`varmap synth exited with ${r.status}`);
  }
  return file;
}
