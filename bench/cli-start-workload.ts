// What a command costs before and around its work (docs/studies/cli-startup.md): the CPU seconds (user + sys, every
// thread) of a few short CLI runs on a one-map synthetic file, median of --reps, measured by the process itself at
// exit (bench/studies/process-cpu.cjs). `--against DIR` runs another built checkout's CLI interleaved with this one.
//   node dist/bench/cli-start-workload.js [--reps 5] [--against /path/to/other/checkout]
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { packageRoot } from "../ts/package-root.js";

const flag = (name: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const reps = Number(flag("--reps") ?? 5);
const against = flag("--against");
const dir = mkdtempSync(join(tmpdir(), "varmap-cli-start-"));
const hook = join(packageRoot(), "bench", "studies", "process-cpu.cjs");
const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];

/** CPU seconds of one `varmap …` run of the checkout `root` (its own exit hook writes them). */
function cpuOf(root: string, args: string[]): number {
  const log = join(dir, "cpu.tsv");
  rmSync(log, { force: true });
  spawnSync(process.execPath, [join(root, "dist", "ts", "cli", "main.js"), ...args], {
    cwd: dir,
    env: { ...process.env, NODE_OPTIONS: `--require=${hook}`, VARMAP_PROCESS_CPU_LOG: log },
  });
  return Number(readFileSync(log, "utf8").trim().split("\n")[0].split("\t")[1]);
}

const roots: [string, string][] = [["this", packageRoot()], ...(against ? ([["against", against]] as [string, string][]) : [])];
cpuOf(packageRoot(), ["synth", "--design", "moana", "--maps", "1", "--out", "runs.csv", "--quiet"]);
const commands: [string, string[]][] = [
  ["--version", ["--version"]],
  ["an error exit (fit --method foo)", ["fit", "runs.csv", "--preset", "moana", "--method", "foo", "--out", "f.json"]],
  ["summarize, one map", ["summarize", "runs.csv", "--preset", "moana", "--quiet"]],
  ["fit --method lr, one map", ["fit", "runs.csv", "--preset", "moana", "--method", "lr", "--out", "f.json", "--quiet"]],
  [
    "cv --methods lr --reps 2, 2 workers",
    ["cv", "runs.csv", "--preset", "moana", "--methods", "lr", "--reps", "2", "--workers", "2", "--out", "cv", "--no-resume", "--quiet"],
  ],
];
const rows: Record<string, string | number>[] = [];
for (const [name, args] of commands) {
  const cpu: Record<string, number[]> = Object.fromEntries(roots.map(([label]) => [label, []]));
  for (let r = 0; r < reps; r++) for (const [label, root] of roots) cpu[label].push(cpuOf(root, args)); // interleaved
  rows.push({ command: name, ...Object.fromEntries(roots.map(([label]) => [`${label}_cpu_s`, Number(median(cpu[label]).toFixed(3))])) });
}
rmSync(dir, { recursive: true, force: true });
console.log(JSON.stringify({ reps, load: loadavg().map((x) => Number(x.toFixed(2))), rows }, null, 2));
