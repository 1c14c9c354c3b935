// The synthetic mixture design through the bulk engine: `varmap synth --design mixture` (22,734 configurations ×
// 150 runs), then `varmap refit` fitting all 30 mixtures (6 families × k = 1..5) of every configuration on the pool.
//   node dist/bench/mixture-workload.js [--workers 2] [--configs N] [--starts full|raced] [--data design.csv] [--out DIR]
// --configs N fits an evenly spaced slice of N configurations (every mode and setting range represented) and
// extrapolates to the whole design. refit needs at least one map predictor: lr (one small least-squares fit per
// map, 6 maps) is the cheapest and rides along. CPU time is the process's (the pool's worker threads included).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { refitAction } from "../ts/cli/bulk.js";
import { flag } from "./args.js";

const RUN_COLUMN = "run",
  RESPONSE_COLUMN = "throughput_kbps";
const workers = Number(flag("--workers") ?? 2);
const wanted = flag("--configs") ?? flag("--limit");
const data = flag("--data") ?? join(tmpdir(), "varmap-mixture-design.csv");
const cli = join(dirname(fileURLToPath(import.meta.url)), "..", "ts", "cli", "main.js");

if (!existsSync(data)) {
  process.stderr.write(`generating the mixture design into ${data}\n`);
  const r = spawnSync(process.execPath, [cli, "synth", "--design", "mixture", "--out", data, "--quiet"], { stdio: "inherit" });
  if (r.status !== 0) throw new Error(`varmap synth failed (${r.status})`);
}

// Configurations are consecutive blocks of rows with the same values outside the run and response columns.
const text = readFileSync(data, "utf8");
const lines = text.split(/\r?\n/).filter(Boolean);
const head = lines[0].split(",");
const keep = head.map((c, i) => (c === RUN_COLUMN || c === RESPONSE_COLUMN ? -1 : i)).filter((i) => i >= 0);
const starts: number[] = [];
let last = "";
for (let r = 1; r < lines.length; r++) {
  const c = lines[r].split(",");
  const key = keep.map((i) => c[i]).join(",");
  if (key !== last) starts.push(r);
  last = key;
}
starts.push(lines.length);
const total = starts.length - 1;
const n = wanted ? Math.min(total, Math.max(1, Number(wanted))) : total;

const work = mkdtempSync(join(tmpdir(), "varmap-mixture-workload-"));
let file = data;
if (n < total) {
  const picked: string[] = [lines[0]];
  for (let i = 0; i < n; i++) {
    const c = Math.floor((i * total) / n);
    for (let r = starts[c]; r < starts[c + 1]; r++) picked.push(lines[r]);
  }
  file = join(work, "slice.csv");
  writeFileSync(file, picked.join("\n") + "\n");
}

const out = flag("--out") ?? join(work, "refit");
const c0 = process.cpuUsage(),
  t0 = performance.now();
const startStrategy = flag("--starts") ?? "full";
await refitAction(file, {
  preset: "iozone",
  methods: "lr",
  families: "all",
  kmax: "5",
  starts: startStrategy,
  out,
  workers: String(workers),
  resume: false,
  quiet: true,
});
const wall = (performance.now() - t0) / 1000;
const cu = process.cpuUsage(c0);
const cpu = (cu.user + cu.system) / 1e6;
const counts = readFileSync(join(out, "distributions.csv"), "utf8").trim().split(/\r?\n/).length - 1;
console.log(
  `${counts} of ${total} configurations × 30 mixtures (${startStrategy} starts; + lr on the maps), ${workers} worker(s): wall ${wall.toFixed(1)} s, CPU ${cpu.toFixed(1)} s (${((1000 * cpu) / n).toFixed(1)} CPU-ms per configuration)`,
);
if (n < total) console.log(`extrapolated to all ${total}: wall ${((wall * total) / n / 60).toFixed(2)} min, CPU ${((cpu * total) / n / 60).toFixed(2)} min`);
if (!flag("--out")) rmSync(work, { recursive: true, force: true });
