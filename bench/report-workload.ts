// The report of a full-size output directory: the 117-map synthetic MOANA design (810 configurations × 40 runs
// each), refit (lr, lsp, delaunay, mars; --no-mixtures) and cross-validated (--reps 2 per fraction, the outputs a
// demo --full directory has apart from the mixtures), rendered by `varmap report` as a user runs it.
// Target (issue 20): ≤ 10 s for the report.
// Usage: node dist/bench/report-workload.js [--dir DIR] [--runs k] [--save results.json]
// The directory is built once (synth, refit, cv) under $TMPDIR/varmap-bench/report-full/ unless --dir names one;
// only `varmap report` is timed (whole command: process start, reading 3.8 M runs, figures, writing).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { packageRoot } from "../ts/package-root.js";

const argv = process.argv.slice(2);
const flag = (name: string, dflt: string): string => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1] : dflt;
};
const cli = join(packageRoot(), "dist", "ts", "cli", "main.js");

function varmap(args: string[]): { seconds: number; stdout: string } {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [cli, ...args], { encoding: "utf8", maxBuffer: 1 << 28, stdio: ["ignore", "pipe", "inherit"] });
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  if (r.status !== 0) throw new Error(`varmap ${args.join(" ")} exited with ${r.status}`);
  return { seconds, stdout: r.stdout };
}

const dir = flag("dir", join(tmpdir(), "varmap-bench", "report-full"));
const data = join(dir, "moana-full-seed1.parquet");
if (!existsSync(join(dir, "cv", "table2.csv"))) {
  mkdirSync(dir, { recursive: true });
  const say = (s: string) => process.stderr.write(`report-workload: ${s}\n`);
  if (!existsSync(data)) say(`synth (117 maps) → ${data}`), varmap(["synth", "--design", "moana", "--seed", "1", "--out", data, "--quiet"]);
  say("refit --no-mixtures (lr, lsp, delaunay, mars)");
  varmap(["refit", data, "--preset", "moana", "--methods", "lr,lsp,delaunay,mars", "--paper", "--no-mixtures", "--out", join(dir, "refit"), "--quiet"]);
  say("cv (lr, lsp, delaunay, mars, mean; 2 divisions per fraction)");
  varmap(["cv", data, "--preset", "moana", "--methods", "lr,lsp,delaunay,mars,mean", "--paper", "--reps", "2", "--out", join(dir, "cv"), "--quiet", "--json"]);
}

const runs = Number(flag("runs", "3"));
const out = join(dir, "report.html");
const times: number[] = [],
  cpu: number[] = [];
let last: { figures: number; bytes: number; seconds: number; cpuSeconds: number } | undefined;
for (let i = 0; i < runs; i++) {
  const r = varmap(["report", dir, "--out", out, "--json", "--quiet"]);
  times.push(r.seconds);
  last = JSON.parse(r.stdout);
  cpu.push(last!.cpuSeconds);
}
const sorted = [...times].sort((a, b) => a - b);
const median = sorted[Math.floor((sorted.length - 1) / 2)];
const result = {
  workload: "varmap report of the 117-map synthetic MOANA directory (refit --no-mixtures + cv)",
  command: `node dist/ts/cli/main.js report ${dir} --out ${out}`,
  runs: times.map((t) => Number(t.toFixed(2))),
  medianSeconds: Number(median.toFixed(2)),
  // CPU seconds of the report process (user + system, all threads): less sensitive to a busy machine than wall time.
  cpuSeconds: cpu,
  target: 10,
  met: median <= 10,
  figures: last?.figures,
  reportBytes: statSync(out).size,
  env: { cores: cpus().length, loadavg: loadavg(), backend: process.env.VARMAP_BACKEND ?? "auto", node: process.version, when: new Date().toISOString() },
};
process.stdout.write(JSON.stringify(result, null, 2) + "\n");
const save = flag("save", "");
if (save) writeFileSync(save, JSON.stringify(result, null, 2) + "\n");
