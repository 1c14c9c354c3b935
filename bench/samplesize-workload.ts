// Speed figures of `varmap samplesize` and `varmap convergence` (issue 18, spec A):
//   A. the 274 IOzone configurations from scratch (30 mixture fits each, BIC choice, Γ_q by quadrature), job mode;
//   B. samplesize of the 22,734-configuration synthetic mixture design from existing fits (--fits);
//   C. convergence on the MOANA fread map (864 configurations × 31 sizes × 200 subsets);
//   D. the same with --predict delaunay --p 0.9 over 20 divisions.
//   node dist/bench/samplesize-workload.js [--workers 2] [--parts ABCD] [--slice 300] [--design design.csv]
// B needs fits of every design configuration. Fitting all 22,734 takes minutes (bench/mixture-workload.ts), so this
// script fits an evenly spaced slice of --slice configurations (`varmap mixture`, not timed) and gives every design
// configuration the fits of one slice configuration (cycling): the per-configuration work of samplesize depends only
// on its fits, so the timing is representative of the design's family and k mix. Wall and CPU times are this
// process's (worker threads included), data loading included.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { runSamplesize } from "../ts/verbs/samplesize.js";
import { runConvergence } from "../ts/verbs/convergence.js";
// The settings below are the CLI's flags, as strings: the CLI's parsers turn them into the verbs' typed options.
import { samplesizeOptionsFromFlags } from "../ts/cli/commands/samplesize.js";
import { convergenceOptionsFromFlags } from "../ts/cli/commands/convergence.js";
import { flag, sharedDir } from "../ts/benchmarks/shared-dir.js";

const workers = String(flag("--workers") ?? 2);
const parts = flag("--parts") ?? "ABCD";
const cli = join(dirname(fileURLToPath(import.meta.url)), "..", "ts", "cli", "main.js");
const work = mkdtempSync(join(tmpdir(), "varmap-samplesize-workload-"));
const shared = sharedDir();

/** The samplesize settings every part of this workload runs with (the CLI's flags, as strings). */
const SETTINGS = {
  families: "all",
  kmax: "5",
  restarts: "5",
  starts: "full",
  model: "best-unfloored",
  q: "0.1,0.9",
  threshold: "0.5,0.1",
  n: "1:900",
  method: "delta",
  reps: "400",
  density: "model",
  information: "expected",
  center: "none",
  stats: "q,mean,sd,var",
  precision: "0.05",
  level: "0.95",
  seed: "1",
};

async function runSamplesizeFlags(file: string, flags: Record<string, unknown>): Promise<void> {
  await runSamplesize(file, samplesizeOptionsFromFlags(flags));
}

async function runConvergenceFlags(file: string, flags: Record<string, unknown>): Promise<void> {
  await runConvergence(file, convergenceOptionsFromFlags(flags));
}

async function timed(label: string, f: () => Promise<void>): Promise<void> {
  const c0 = process.cpuUsage(),
    t0 = performance.now();
  await f();
  const wall = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(c0);
  process.stdout.write(`${label}: wall ${wall.toFixed(2)} s, CPU ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s (workers ${workers})\n`);
}

const quiet = { quiet: true, workers, resume: false };

if (parts.includes("A")) {
  await timed("A. samplesize, 274 IOzone configurations from scratch (30 fits each)", () =>
    runSamplesizeFlags(join(shared, "data", "iozone-2018.csv"), {
      ...quiet,
      preset: "iozone",
      out: join(work, "iozone"),
      curves: "curves.csv",
      ...SETTINGS,
    }),
  );
}

if (parts.includes("B")) {
  const design = flag("--design") ?? join(tmpdir(), "varmap-mixture-design.csv");
  if (!existsSync(design)) {
    process.stderr.write(`generating the mixture design into ${design}\n`);
    const r = spawnSync(process.execPath, [cli, "synth", "--design", "mixture", "--out", design, "--quiet"], { stdio: "inherit" });
    if (r.status !== 0) throw new Error(`varmap synth failed (${r.status})`);
  }
  // Configurations: consecutive rows with the same key (all columns but run and response).
  const lines = readFileSync(design, "utf8").split(/\r?\n/).filter(Boolean);
  const head = lines[0].split(",");
  const keyCols = head.map((c, i) => (c === "run" || c === "throughput_kbps" ? -1 : i)).filter((i) => i >= 0);
  const starts: number[] = [];
  const keys: string[] = [];
  let last = "";
  for (let r = 1; r < lines.length; r++) {
    const c = lines[r].split(",");
    const key = keyCols.map((i) => c[i]).join(",");
    if (key !== last) {
      starts.push(r);
      keys.push(key);
    }
    last = key;
  }
  starts.push(lines.length);
  const total = keys.length;
  const sliceN = Math.min(total, Number(flag("--slice") ?? 300));
  const picked = [lines[0]];
  const pickedIdx: number[] = [];
  for (let i = 0; i < sliceN; i++) {
    const c = Math.floor((i * total) / sliceN);
    pickedIdx.push(c);
    for (let r = starts[c]; r < starts[c + 1]; r++) picked.push(lines[r]);
  }
  const slice = join(work, "slice.csv"),
    sliceFits = join(work, "slice-fits.csv");
  writeFileSync(slice, picked.join("\n") + "\n");
  process.stderr.write(`fitting ${sliceN} slice configurations (not timed)\n`);
  const f = spawnSync(process.execPath, [cli, "mixture", slice, "--preset", "iozone", "--out", sliceFits, "--workers", workers, "--quiet"], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  if (f.status !== 0) throw new Error(`varmap mixture failed (${f.status})`);
  // Every design configuration gets the fits of slice configuration (c mod sliceN), under its own key.
  const fl = readFileSync(sliceFits, "utf8").split(/\r?\n/).filter(Boolean);
  const fitHead = fl[0];
  const nKey = keyCols.length;
  const perSlice: string[][] = Array.from({ length: sliceN }, () => []);
  const bySliceKey = new Map<string, number>();
  pickedIdx.forEach((c, i) => bySliceKey.set(keys[c], i));
  // The fits table's key columns are the preset's factors then inputs: re-key by column name.
  const fitCols = fitHead.split(",");
  const designKeyNames = keyCols.map((i) => head[i]);
  const fitKeyPos = designKeyNames.map((n) => fitCols.indexOf(n));
  for (const l of fl.slice(1)) {
    const cells = l.match(/("([^"]|"")*"|[^,]*)(,|$)/g)!.map((x) => x.replace(/,$/, ""));
    const k = fitKeyPos.map((p) => cells[p]).join(",");
    const s = bySliceKey.get(k);
    if (s !== undefined) perSlice[s].push(cells.slice(nKey).join(","));
  }
  const out = [[...designKeyNames, ...fitCols.slice(nKey)].join(",")];
  for (let c = 0; c < total; c++) for (const rest of perSlice[c % sliceN]) out.push(`${keys[c]},${rest}`);
  const allFits = join(work, "design-fits.csv");
  writeFileSync(allFits, out.join("\n") + "\n");
  await timed(`B. samplesize, ${total} design configurations from existing fits (${out.length - 1} fit rows)`, () =>
    runSamplesizeFlags(design, {
      ...quiet,
      preset: "iozone",
      fits: allFits,
      out: join(work, "design"),
      ...SETTINGS,
    }),
  );
}

const fread = join(shared, "data", "moana-cfq-noop-fread.csv");
const conv = {
  ...quiet,
  preset: "moana",
  ci: "sd",
  level: "0.9",
  from: "10",
  levels: "0.75,0.9",
  subsets: "average",
  repsSubsets: "200",
  p: "0.9",
  reps: "20",
  predictCurve: "per-m",
  precision: "0.05",
  seed: "1",
};
if (parts.includes("C"))
  await timed("C. convergence, fread map (864 × 31 sizes × 200 subsets)", () => runConvergenceFlags(fread, { ...conv, out: join(work, "conv") }));
if (parts.includes("D"))
  await timed("D. convergence --predict delaunay --p 0.9, 20 divisions", () =>
    runConvergenceFlags(fread, { ...conv, predict: "delaunay", out: join(work, "conv-pred") }),
  );
process.stdout.write(`outputs in ${work}\n`);
