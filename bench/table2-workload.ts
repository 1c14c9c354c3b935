// End-to-end workload timings for the bulk engine, run through the real CLI (`node dist/ts/cli/main.js`):
//   table2   the MOANA Table 2 workload on the synthetic moana design: every map × 9 fractions × R reps, per method
//   scaling  the same cv on a slice of the maps with 1 and with 2 workers (median of runs): throughput ratio
//   demo     `varmap demo` wall time
// Usage: node dist/bench/table2-workload.js table2|scaling|demo [--methods lr,lsp,delaunay,mars] [--maps K]
//        [--reps R] [--workers N] [--runs k] [--data file] [--save results.json]
// The dataset is generated once with `varmap synth --design moana` into $TMPDIR/varmap-bench/.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { packageRoot } from "../ts/package-root.js";

const argv = process.argv.slice(2);
const mode = argv[0] ?? "table2";
const flag = (name: string, dflt: string): string => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1] : dflt;
};
const cli = join(packageRoot(), "dist", "ts", "cli", "main.js");
const work = join(tmpdir(), "varmap-bench");
mkdirSync(work, { recursive: true });

function varmap(args: string[]): { seconds: number; stdout: string } {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [cli, ...args], { encoding: "utf8", maxBuffer: 1 << 28, stdio: ["ignore", "pipe", "inherit"] });
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  if (r.status !== 0) throw new Error(`varmap ${args.join(" ")} exited with ${r.status}`);
  return { seconds, stdout: r.stdout };
}

function dataset(): string {
  const given = flag("data", "");
  if (given) return given;
  const file = join(work, "moana-synth.parquet");
  if (!existsSync(file)) {
    process.stderr.write(`generating the synthetic moana design into ${file}\n`);
    varmap(["synth", "--design", "moana", "--seed", "1", "--out", file]);
  }
  return file;
}

function median(v: number[]): number {
  const s = [...v].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** Wall seconds of the whole command, and the job's own seconds (pool phase, from --json: excludes loading the data). */
function cv(data: string, method: string, workers: string, reps: string, where: string | undefined): { wall: number; job: number } {
  const out = join(work, `cv-${method}-${workers}`);
  rmSync(out, { recursive: true, force: true });
  const args = [
    "cv",
    data,
    "--preset",
    "moana",
    "--methods",
    method,
    "--p",
    "0.1:0.9:0.1",
    "--reps",
    reps,
    "--seed",
    "1",
    "--out",
    out,
    "--workers",
    workers,
    "--quiet",
    "--json",
  ];
  if (where) args.push("--where", where);
  const r = varmap(args);
  rmSync(out, { recursive: true, force: true });
  return { wall: r.seconds, job: JSON.parse(r.stdout).seconds };
}

const env = { cores: cpus().length, loadavg: loadavg(), backend: process.env.VARMAP_BACKEND ?? "auto", node: process.version, when: new Date().toISOString() };
let result: Record<string, unknown>;
if (mode === "table2") {
  const data = dataset();
  const reps = flag("reps", "200");
  const workers = flag("workers", String(cpus().length));
  const methods = flag("methods", "lr,lsp,delaunay,mars").split(",");
  // --where selects a slice of the design (e.g. the 13 maps of one scheduler pair) to extrapolate from.
  const where = flag("where", "") || undefined;
  const perMethod: Record<string, { wall: number; job: number }> = {};
  for (const m of methods) {
    perMethod[m] = cv(data, m, workers, reps, where);
    process.stderr.write(`${m}: ${perMethod[m].wall.toFixed(1)} s wall, ${perMethod[m].job.toFixed(1)} s in the pool\n`);
  }
  const total = Object.values(perMethod).reduce((a, b) => a + b.wall, 0);
  result = { mode, data, where, reps: Number(reps), workers: Number(workers), seconds: perMethod, totalWall: total, env };
} else if (mode === "scaling") {
  const data = dataset();
  const method = flag("methods", "lsp");
  const reps = flag("reps", "40");
  const runs = Number(flag("runs", "3"));
  // A slice of the design: the 13 maps of one (host, VM) scheduler pair.
  const where = flag("where", "host_sched = 'CFQ' AND vm_sched = 'NOOP'");
  const t1: number[] = [];
  const t2: number[] = [];
  for (let i = 0; i < runs; i++) {
    t1.push(cv(data, method, "1", reps, where).job);
    t2.push(cv(data, method, "2", reps, where).job);
  }
  result = { mode, data, method, reps: Number(reps), where, seconds1: t1, seconds2: t2, speedup: median(t1) / median(t2), env };
} else if (mode === "demo") {
  const runs = Number(flag("runs", "1"));
  const t: number[] = [];
  for (let i = 0; i < runs; i++) {
    const out = join(work, "demo");
    rmSync(out, { recursive: true, force: true });
    t.push(varmap(["demo", "--out", out, "--quiet"]).seconds);
  }
  result = { mode, seconds: t, median: median(t), env };
} else throw new Error(`unknown mode ${mode}: table2 | scaling | demo`);

const text = JSON.stringify(result, null, 2) + "\n";
process.stdout.write(text);
const save = flag("save", "");
if (save) writeFileSync(save, text);
