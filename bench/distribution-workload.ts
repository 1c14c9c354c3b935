// Whole-distribution prediction workloads (spec E), run through the real CLI (`node dist/ts/cli/main.js`):
//   fread   `cv --target distribution` on the real fread map with the 180 golden splits (default 2 workers):
//           wall seconds, CPU seconds of the process tree, and the mean KS table (inside-hull points)
//   design  the same on the 117-map synthetic MOANA design (`varmap synth --design moana`) at p = 0.5, 20 reps;
//           with --truth also the KS against each configuration's true CDF (`synth --truth`, cv's ks_true)
// Usage: node dist/bench/distribution-workload.js fread|design [--workers N] [--dists quantile,cdf,locscale,normal]
//        [--weights delaunay] [--p 0.5] [--reps 20] [--maps K] [--truth] [--data file] [--shared DIR] [--save results.json]
//        [--positions weibull] [--feature-weights lr] [--smooth pchip] [--per-level --method lsp] [--levels K] [--folds k]
// CPU seconds come from /usr/bin/time when it exists (user + system of the command and its worker threads), so a
// figure taken on a loaded machine can be told apart from one taken on an idle one; loadavg is recorded too.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { packageRoot } from "../ts/package-root.js";
import { sharedDir } from "../ts/benchmarks/shared-dir.js";

const argv = process.argv.slice(2);
const mode = argv[0] ?? "fread";
const flag = (name: string, dflt: string): string => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1] : dflt;
};
const cli = join(packageRoot(), "dist", "ts", "cli", "main.js");
const work = join(tmpdir(), "varmap-bench");
mkdirSync(work, { recursive: true });
const timeBin = existsSync("/usr/bin/time") ? "/usr/bin/time" : undefined;

function varmap(args: string[]): { wall: number; cpu: number | null; stdout: string } {
  const t0 = process.hrtime.bigint();
  const cmd = timeBin ? [timeBin, "-f", "cpu %U %S", process.execPath, cli, ...args] : [process.execPath, cli, ...args];
  const r = spawnSync(cmd[0], cmd.slice(1), { encoding: "utf8", maxBuffer: 1 << 28, stdio: ["ignore", "pipe", "pipe"] });
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;
  if (r.status !== 0) throw new Error(`varmap ${args.join(" ")} exited with ${r.status}: ${r.stderr}`);
  const m = /cpu ([\d.]+) ([\d.]+)/.exec(r.stderr ?? "");
  return { wall, cpu: m ? Number(m[1]) + Number(m[2]) : null, stdout: r.stdout };
}

const withTruth = argv.includes("--truth");
const maps = flag("maps", "");

/** The synthetic design (and, with --truth, its true mixtures), generated once per --maps into the bench folder. */
function designData(): { data: string; truth?: string } {
  const given = flag("data", "");
  if (given) return { data: given };
  const tag = maps ? `-maps${maps}` : "";
  const file = join(work, `moana-synth${tag}.parquet`);
  const truth = join(work, `moana-synth${tag}-truth.parquet`);
  if (!existsSync(file) || (withTruth && !existsSync(truth))) {
    process.stderr.write(`generating the synthetic moana design into ${file}\n`);
    varmap(["synth", "--design", "moana", "--seed", "1", ...(maps ? ["--maps", maps] : []), "--out", file, ...(withTruth ? ["--truth", truth] : [])]);
  }
  return withTruth ? { data: file, truth } : { data: file };
}

const workers = flag("workers", "2");
const dists = flag("dists", "quantile,cdf,locscale,normal");
const weights = flag("weights", "delaunay");
const out = join(work, `distcv-${mode}`);
rmSync(out, { recursive: true, force: true });
const common = [
  "--preset",
  "moana",
  "--target",
  "distribution",
  "--dists",
  dists,
  "--weights",
  weights,
  "--workers",
  workers,
  "--out",
  out,
  "--quiet",
  "--json",
];
// Method options passed through to cv as given.
for (const name of ["positions", "feature-weights", "smooth", "method", "levels", "moments"]) if (flag(name, "")) common.push(`--${name}`, flag(name, ""));
if (argv.includes("--per-level")) common.push("--per-level");
const folds = flag("folds", "");
const divisions = (generated: string[]): string[] => (folds ? ["--folds", folds, "--seed", "1"] : generated);
let args: string[];
if (mode === "fread")
  args = ["cv", join(sharedDir(), "data", "moana-cfq-noop-fread.csv"), ...common, ...divisions(["--splits", join(sharedDir(), "golden", "moana-splits.json")])];
else if (mode === "design") {
  const d = designData();
  args = [
    "cv",
    d.data,
    ...common,
    ...divisions(["--p", flag("p", "0.5"), "--reps", flag("reps", "20"), "--seed", "1"]),
    ...(d.truth ? ["--truth", d.truth] : []),
  ];
} else throw new Error(`unknown mode ${mode}: use fread or design`);

const load0 = loadavg();
const r = varmap(args);
const json = JSON.parse(r.stdout) as {
  seconds: number;
  tasks: number;
  summary: { meanKsInside: Record<string, Record<string, number>>; meanKsTrue?: Record<string, Record<string, number>>; maps: number };
};
const md = readFileSync(join(out, "ks.md"), "utf8");
rmSync(out, { recursive: true, force: true });
const result = {
  mode,
  workers: Number(workers),
  dists,
  weights,
  tasks: json.tasks,
  maps: json.summary.maps,
  wallSeconds: r.wall,
  jobSeconds: json.seconds,
  cpuSeconds: r.cpu,
  options: common.slice(common.indexOf("--out") + 2).filter((a) => a !== "--quiet" && a !== "--json"),
  meanKsInside: json.summary.meanKsInside,
  ...(json.summary.meanKsTrue ? { meanKsTrue: json.summary.meanKsTrue } : {}),
  env: {
    cores: cpus().length,
    loadavgBefore: load0,
    loadavgAfter: loadavg(),
    backend: process.env.VARMAP_BACKEND ?? "auto",
    node: process.version,
    when: new Date().toISOString(),
  },
};
process.stderr.write(md + "\n");
process.stdout.write(JSON.stringify(result, null, 2) + "\n");
const save = flag("save", "");
if (save) writeFileSync(save, JSON.stringify(result, null, 2) + "\n");
