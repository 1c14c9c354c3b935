// End-to-end workload timings for the bulk engine, run through the real CLI (`node dist/ts/cli/main.js`):
//   table2   the MOANA Table 2 workload on the synthetic moana design: every map × 9 fractions × R reps, one
//            `varmap cv` per method (or all methods in one command with --together); the figure is the wall time
//            of the whole workload, goal ≤ 3 min on 2 cores (issue 25)
//   scaling  the same cv on a slice of the maps with 1 and with 2 workers (median of runs): throughput ratio
//   demo     `varmap demo` wall time
// Usage: node dist/bench/table2-workload.js table2|scaling|demo [--methods lr,lsp,delaunay,mars] [--maps K]
//        [--reps R] [--workers N] [--together] [--runs k] [--data file] [--where sql] [--save record.json]
// --maps K (K of the 117 maps, evenly spread) and --reps R take a slice, run at R and 2R reps: the pool's time per
// rep is scaled to the whole workload (117 maps, 200 reps) and added to the measured load and start-up time: the
// "extrapolated" figure (a development estimate; the full run is the figure).
// The dataset is generated once with `varmap synth --design moana` into $TMPDIR/varmap-bench/.
// CPU times are the child process's (all its threads), read with /usr/bin/time where it exists.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import { packageRoot } from "../ts/package-root.js";
import { figure, machine, printFigures, saveRecord, type Figure } from "./figures.js";
import { benchDir, table2Dataset } from "./table2-data.js";

const argv = process.argv.slice(2);
const mode = argv[0] && !argv[0].startsWith("--") ? argv[0] : "table2";
const flag = (name: string, dflt: string): string => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1] : dflt;
};
const cli = join(packageRoot(), "dist", "ts", "cli", "main.js");
const work = benchDir;
mkdirSync(work, { recursive: true });
const TIME = "/usr/bin/time";
const FULL_MAPS = 117;
const FULL_REPS = 200;
export const TABLE2_GOAL = { op: "<=" as const, value: 180, unit: "s", text: "≤ 3 min wall on 2 cores" };

interface Timed {
  seconds: number;
  cpu?: number;
  stdout: string;
}

function varmap(args: string[]): Timed {
  const timeFile = join(work, `time-${process.pid}.txt`);
  const useTime = existsSync(TIME);
  const cmd = useTime ? TIME : process.execPath;
  const full = useTime ? ["-f", "%U %S", "-o", timeFile, process.execPath, cli, ...args] : [cli, ...args];
  const t0 = process.hrtime.bigint();
  const r = spawnSync(cmd, full, { encoding: "utf8", maxBuffer: 1 << 28, stdio: ["ignore", "pipe", "inherit"] });
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  if (r.status !== 0) throw new Error(`varmap ${args.join(" ")} exited with ${r.status}`);
  let cpu: number | undefined;
  if (useTime) {
    const [u, s] = readFileSync(timeFile, "utf8").trim().split(/\s+/).slice(-2).map(Number);
    cpu = u + s;
    rmSync(timeFile, { force: true });
  }
  return { seconds, cpu, stdout: r.stdout };
}

function median(v: number[]): number {
  const s = [...v].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** K of the design's 117 maps, evenly spread over scheduler pairs and modes, as a --where predicate. */
function mapsWhere(k: number): string | undefined {
  const sched = ["CFQ", "DEADLINE", "NOOP"];
  const modes = ["backward-readers", "fread", "fwrite", "initial-writers", "random-readers", "random-writers", "re-fread", "re-fwrite", "re-readers"];
  modes.push("readers", "record-rewriters", "rewriters", "stride-readers");
  const all: string[] = [];
  for (const h of sched) for (const v of sched) for (const m of modes) all.push(`(host_sched = '${h}' AND vm_sched = '${v}' AND mode = '${m}')`);
  if (k >= all.length) return undefined;
  const step = all.length / k;
  return Array.from({ length: k }, (_, i) => all[Math.floor(i * step)]).join(" OR ");
}

interface CvTiming {
  wall: number;
  /** The pool phase and the writing of the outputs (the job's own seconds, from --json). */
  job: number;
  cpu?: number;
  tasks: number;
}

/** Wall seconds of the whole command, and the job's own seconds (pool phase, from --json: excludes loading the data). */
function cv(data: string, methods: string, workers: string, reps: string, where: string | undefined, out?: string): CvTiming {
  const dir = out ?? join(work, `cv-${methods.replace(/,/g, "-")}-${workers}`);
  rmSync(dir, { recursive: true, force: true });
  const args = ["cv", data, "--preset", "moana", "--methods", methods, "--p", "0.1:0.9:0.1", "--reps", reps, "--seed", "1", "--out", dir];
  args.push("--paper"); // the papers' Table 2: no transforms (fit/cv/refit default to auto transforms)
  args.push("--workers", workers, "--quiet", "--json");
  if (where) args.push("--where", where);
  const r = varmap(args);
  if (!out) rmSync(dir, { recursive: true, force: true });
  const s = JSON.parse(r.stdout) as { seconds: number; tasks: number };
  return { wall: r.seconds, job: s.seconds, cpu: r.cpu, tasks: s.tasks };
}

const save = flag("save", "") || undefined;
if (mode === "table2") {
  const data = flag("data", "") || table2Dataset();
  const reps = flag("reps", String(FULL_REPS));
  const workers = flag("workers", String(cpus().length));
  const methods = flag("methods", "lr,lsp,delaunay,mars").split(",");
  const k = Number(flag("maps", String(FULL_MAPS)));
  // --where selects a slice of the design by hand (e.g. the 13 maps of one scheduler pair); --maps K an even spread.
  const where = flag("where", "") || mapsWhere(k);
  const nMaps = flag("where", "") ? Number(flag("where-maps", "13")) : Math.min(k, FULL_MAPS);
  const scale = (FULL_MAPS / nMaps) * (FULL_REPS / Number(reps));
  const together = argv.includes("--together");
  const keep = flag("keep", "") || undefined; // keep the cv output directories here (to compare runs byte for byte)
  const full = scale === 1;
  const runs: Record<string, CvTiming> = {};
  const doubled: Record<string, CvTiming> = {};
  let extrapolated = 0;
  // The same from CPU times (what a busy machine does not inflate): the serial part (loading, starting the pool) at
  // its CPU time, the per-rep part spread over the workers, as on idle cores.
  let extrapolatedIdle: number | undefined = 0;
  for (const m of together ? [methods.join(",")] : methods) {
    runs[m] = cv(data, m, workers, reps, where, keep ? join(keep, m.replace(/,/g, "-")) : undefined);
    const r = runs[m];
    process.stderr.write(`${m}: ${r.wall.toFixed(1)} s wall (${r.job.toFixed(1)} s in the pool)${r.cpu !== undefined ? `, ${r.cpu.toFixed(1)} s CPU` : ""}\n`);
    if (full) continue;
    // A slice: the pool's time at R and at 2R reps gives its cost per rep apart from the start of the workers;
    // that cost is scaled to the whole workload, the rest (loading, starting) counted once as measured.
    const r2 = (doubled[m] = cv(data, m, workers, String(2 * Number(reps)), where));
    const perRep = Math.max(0, r2.job - r.job) / Number(reps);
    extrapolated += r.wall - r.job + (r.job - perRep * Number(reps)) + perRep * Number(reps) * scale;
    if (r.cpu === undefined || r2.cpu === undefined || extrapolatedIdle === undefined) extrapolatedIdle = undefined;
    else {
      const cpuPerRep = Math.max(0, r2.cpu - r.cpu) / Number(reps);
      extrapolatedIdle += r.cpu - cpuPerRep * Number(reps) + (cpuPerRep * Number(reps) * scale) / Number(workers);
    }
    process.stderr.write(`${m} at ${2 * Number(reps)} reps: ${r2.job.toFixed(1)} s in the pool\n`);
  }
  const wall = Object.values(runs).reduce((a, r) => a + r.wall, 0);
  const cpu = Object.values(runs).every((r) => r.cpu !== undefined) ? Object.values(runs).reduce((a, r) => a + r.cpu!, 0) : undefined;
  const label = `Table-2 workload (${FULL_MAPS} maps × 9 p × ${FULL_REPS} reps × ${methods.length} methods, ${together ? "one command" : "one command per method"}, ${workers} workers)`;
  const figs: Figure[] = full
    ? [figure(label, wall, "s wall", TABLE2_GOAL, { note: cpu !== undefined ? `${cpu.toFixed(0)} s CPU` : undefined })]
    : [
        figure(`${label}, extrapolated from ${nMaps} maps × ${reps} and ${2 * Number(reps)} reps by wall time`, extrapolated, "s wall", TABLE2_GOAL),
        ...(extrapolatedIdle !== undefined
          ? [
              figure(
                `${label}, extrapolated by CPU time to ${workers} idle cores (serial CPU + per-rep CPU / ${workers})`,
                extrapolatedIdle,
                "s wall (est.)",
                TABLE2_GOAL,
              ),
            ]
          : []),
      ];
  printFigures(figs);
  const result = {
    mode,
    data,
    where,
    maps: nMaps,
    reps: Number(reps),
    workers: Number(workers),
    together,
    runs,
    doubled,
    wall,
    cpu,
    extrapolated,
    scale,
    machine: machine(),
  };
  process.stdout.write(JSON.stringify(result, null, 2) + "\n");
  saveRecord(save, { workload: "table2", figures: figs, ...{ details: result } });
} else if (mode === "scaling") {
  const data = flag("data", "") || table2Dataset();
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
  const result = { mode, data, method, reps: Number(reps), where, seconds1: t1, seconds2: t2, speedup: median(t1) / median(t2), machine: machine() };
  const figs = [figure(`cv ${method} throughput with 2 workers over 1`, result.speedup, "×")];
  printFigures(figs);
  process.stdout.write(JSON.stringify(result, null, 2) + "\n");
  saveRecord(save, { workload: "table2-scaling", figures: figs });
} else if (mode === "demo") {
  const runs = Number(flag("runs", "1"));
  const t: number[] = [];
  for (let i = 0; i < runs; i++) {
    const out = join(work, "demo");
    rmSync(out, { recursive: true, force: true });
    t.push(varmap(["demo", "--out", out, "--quiet"]).seconds);
  }
  const figs = [figure("varmap demo", median(t), "s wall")];
  printFigures(figs);
  process.stdout.write(JSON.stringify({ mode, seconds: t, median: median(t), machine: machine() }, null, 2) + "\n");
  saveRecord(save, { workload: "demo", figures: figs });
} else throw new Error(`unknown mode ${mode}: table2 | scaling | demo`);
