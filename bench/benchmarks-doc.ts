// Writes docs/benchmarks.md from the workload records in bench/results/ (one JSON per workload, the convention of
// bench/figures.ts) and the reference codes' timings in ../shared/golden/anchors-*.csv:
//   npm run bench:docs                          # the records already saved
//   npm run bench:docs -- --run quick|full      # first runs every workload with --save (full: the issue's sizes)
//   npm run bench:docs -- --check [--doc FILE]  # writes nothing: exits 1 when the page (default docs/benchmarks.md)
//                                               # is not what the tracked records give (the machine line aside)
// A workload script that does not write its record yet is listed as such (its command is still given).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { packageRoot } from "../ts/package-root.js";
import { flag, sharedDir } from "../ts/benchmarks/shared-dir.js";
import { formatFigure, machine, type Figure, type WorkloadRecord } from "./figures.js";

const root = packageRoot();
const resultsDir = join(root, "bench", "results");
const docFile = flag("--doc") ?? join(root, "docs", "benchmarks.md");
const run = flag("--run") as "quick" | "full" | undefined;
const check = process.argv.includes("--check");

interface Workload {
  /** Record file in bench/results/. */
  id: string;
  title: string;
  goal: string;
  /** Arguments after `node`, for the full and the quick run (--save is added). */
  full: string[];
  quick: string[];
  /** Where the figure stood when the goal was set (issue 25). */
  baseline?: string;
  env?: Record<string, string>;
}

const WORKLOADS: Workload[] = [
  {
    id: "table2",
    title: "Table-2 cross-validation (117 synthetic MOANA maps × 9 p × 200 reps × lr, lsp, delaunay, mars)",
    goal: "≤ 3 min wall on 2 cores, identical outputs",
    baseline: "8.8 min wall on 2 cores, 11.4 CPU-min (Delaunay 394 s, MARS 79 s), one command per method",
    full: ["dist/bench/table2-workload.js", "table2", "--together"],
    quick: ["dist/bench/table2-workload.js", "table2", "--together", "--maps", "9", "--reps", "10"],
  },
  {
    id: "mixture",
    title:
      "Mixture design (22,734 configurations, `varmap refit` with issue 17's default mixtures: loglogistic k = 1..5, MAP, guarded; `--setup papers`: all 30 models, below)",
    goal: "≤ 4 min wall on 2 cores",
    baseline: "13.0 CPU-min (about 6.5–8 min wall on 2 free cores)",
    full: ["dist/bench/mixture-workload.js", "--backends", "native,wasm", "--repeats", "1"],
    quick: ["dist/bench/mixture-workload.js", "--configs", "300", "--backends", "native,wasm", "--repeats", "1"],
  },
  {
    id: "lsp",
    title: "LSP fit and evaluation against SHEPPACK (native speed-up, and WebAssembly against native)",
    goal: "≥ 2× SHEPPACK on every synthetic case; WebAssembly ≥ 0.5× native",
    baseline: "d = 8, n = 10,000: 0.93×; d = 20, n = 10,000: 0.68× of LSHEPVAL's evaluation time; wasm d = 20 fit 0.49× native",
    full: ["dist/bench/lsp-workload.js", "--backend", "native"],
    quick: ["dist/bench/lsp-workload.js", "--backend", "native", "--reps", "1", "--only", "synthetic"],
  },
  {
    id: "gp-sklearn",
    title:
      "gp against scikit-learn's GaussianProcessRegressor per fit (Matern ν = 1.5 + WhiteKernel, 4 starts; fread golden splits, one run side by side; issue 46)",
    goal: "gp ≥ 5× faster than scikit-learn per fit at p = 0.9 at equal or better ARE",
    baseline: "varmap 0.10 / 2.80 / 2.55 s, sklearn 0.10 / 1.24 / 4.76 s per fit at p = 0.1 / 0.5 / 0.9 (the issue's own measurement): 1.9× at p = 0.9",
    full: ["dist/bench/gp-sklearn-workload.js", "--reps", "20"],
    quick: ["dist/bench/gp-sklearn-workload.js", "--reps", "2"],
  },
  {
    id: "delaunay-native",
    title: "Delaunay location against DelaunaySparse (native)",
    goal: "(no speed goal of its own: it sets most of the Table-2 time)",
    full: ["dist/bench/delaunay-workload.js", "--backend", "native"],
    quick: ["dist/bench/delaunay-workload.js", "--backend", "native", "--quick", "--repeats", "1"],
  },
  {
    id: "delaunay-wasm",
    title: "Delaunay location (WebAssembly)",
    goal: "≥ 0.5× native",
    baseline: "Delaunay MOANA pass 0.51× native",
    full: ["dist/bench/delaunay-workload.js", "--backend", "wasm"],
    quick: ["dist/bench/delaunay-workload.js", "--backend", "wasm", "--quick", "--repeats", "1"],
  },
  {
    id: "rbf-scipy",
    title:
      "rbf against scipy's RBFInterpolator on the fread golden splits (thin plate, λ by GCV over varmap's grid — scipy's side through one scipy.linalg.eigh — and at a fixed λ; per fit, process CPU, one BLAS thread)",
    goal: "≥ 3× scipy RBFInterpolator with GCV per fit at p = 0.9, same predictions (issue 46)",
    baseline: "varmap 0.007 / 0.18 / 1.25 s per fit at p = 0.1 / 0.5 / 0.9 (one eigendecomposition) against scipy's 0.003 / 0.013 / 0.036 s at a fixed λ",
    full: ["dist/bench/rbf-scipy-workload.js", "--reps", "5", "--repeats", "3"],
    quick: ["dist/bench/rbf-scipy-workload.js", "--reps", "2", "--repeats", "1"],
  },
];

function recordPath(id: string): string {
  return join(resultsDir, `${id}.json`);
}

function runWorkload(w: Workload, mode: "quick" | "full"): void {
  const args = [...(mode === "full" ? w.full : w.quick), "--save", recordPath(w.id)];
  process.stderr.write(`bench:docs: node ${args.join(" ")}\n`);
  const r = spawnSync(process.execPath, args, {
    cwd: root,
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, VARMAP_SHARED: sharedDir(), ...w.env },
  });
  if (r.status !== 0) process.stderr.write(`bench:docs: ${w.id} exited with ${r.status}\n`);
}

function readRecord(id: string): WorkloadRecord | undefined {
  const p = recordPath(id);
  if (!existsSync(p)) return undefined;
  return JSON.parse(readFileSync(p, "utf8")) as WorkloadRecord;
}

function num(x: number, digits = 3): string {
  if (!Number.isFinite(x)) return "—";
  return x >= 100 ? x.toFixed(0) : x.toPrecision(digits);
}

function figureRows(figs: readonly Figure[]): string[] {
  const rows = ["| figure | value | goal | ratio to goal | reference |", "|---|---:|---|---:|---|"];
  for (const f of figs)
    rows.push(
      `| ${f.name} | ${num(f.figure)} ${f.unit} | ${f.goal?.text ?? ""} | ${f.ratio !== undefined ? `${num(f.ratio)} (${f.met ? "met" : "**not met**"})` : ""} | ${f.reference ? `${f.reference.name}: ${num(f.reference.figure)} ${f.reference.unit}` : ""} |`,
    );
  return rows;
}

/** wasm speed as a fraction of native for the figures both records of a workload share (time figures: native / wasm). */
function wasmRatios(native: WorkloadRecord | undefined, wasm: WorkloadRecord | undefined): string[] {
  if (!native || !wasm) return [];
  const key = (n: string): string => n.replace(/\b(native|wasm)\b/g, "").replace(/[ ,]+$/, "");
  const byKey = new Map(native.figures.map((f) => [key(f.name), f]));
  const rows = ["| figure | native | wasm | wasm speed / native (goal ≥ 0.5) |", "|---|---:|---:|---:|"];
  for (const w of wasm.figures) {
    const n = byKey.get(key(w.name));
    if (!n || n.unit !== w.unit) continue;
    const r = n.figure / w.figure;
    rows.push(`| ${key(w.name)} | ${num(n.figure)} ${n.unit} | ${num(w.figure)} ${w.unit} | ${num(r, 2)}${r >= 0.5 ? "" : " (**not met**)"} |`);
  }
  return rows.length > 2 ? rows : [];
}

function csv(file: string): Record<string, string>[] {
  const text = readFileSync(file, "utf8").trim().split("\n");
  const split = (line: string): string[] => {
    const out: string[] = [];
    let cur = "",
      q = false;
    for (const ch of line) {
      if (ch === '"') q = !q;
      else if (ch === "," && !q) out.push(cur), (cur = "");
      else cur += ch;
    }
    out.push(cur);
    return out;
  };
  const head = split(text[0]);
  return text.slice(1).map((l) => Object.fromEntries(split(l).map((v, i) => [head[i], v])));
}

/** 0 when the page on disk is the one the records give, else 1 with the first differing line. The machine line names
 * the machine that regenerates the page, so it is left out of the comparison. */
function checkPage(page: string): number {
  const kept = (text: string): string[] => text.split("\n").filter((l) => !l.startsWith("Written on "));
  const want = kept(page);
  const have = existsSync(docFile) ? kept(readFileSync(docFile, "utf8")) : [];
  const at = want.findIndex((l, i) => l !== have[i]);
  if (at < 0 && have.length === want.length) {
    process.stderr.write(`bench:docs: ${docFile} is up to date with bench/results/\n`);
    return 0;
  }
  const i = at < 0 ? want.length : at;
  process.stderr.write(
    `bench:docs: ${docFile} is not what bench/results/ gives (first difference at line ${i + 1} of the page without its machine line):\n` +
      `  page:    ${have[i] ?? "(end of page)"}\n  records: ${want[i] ?? "(end of page)"}\n` +
      "Regenerate it with `npm run bench:docs` (after `npm run build`), and commit the page with its records.\n",
  );
  return 1;
}

/** The reference codes' timings from ../shared/golden (the anchors measured on a machine like this one). */
function referenceSection(): string[] {
  const golden = join(sharedDir(), "golden");
  const out: string[] = ["## Reference codes", ""];
  if (!existsSync(golden)) return [...out, `(${golden} not found: set VARMAP_SHARED to show the reference timings)`, ""];
  const side = join(golden, "anchors-timings-side-by-side.csv");
  if (existsSync(side)) {
    out.push(
      "Process CPU seconds, minimum of interleaved repeats on an idle machine of this kind, reference and varmap measured in the same run",
      "(`anchors-timings-side-by-side.csv`; SHEPPACK's fair build is the bundled-LAPACK -O3 one). These are the figures of the run that",
      "produced the file; this page's own figures are in the sections above.",
      "",
      "| workload | d | n | reference (build) | reference CPU s | varmap native CPU s | varmap wasm CPU s | native speed-up |",
      "|---|---:|---:|---|---:|---:|---:|---:|",
    );
    for (const r of csv(side)) {
      const ref = Number(r.ref_total_cpu_s),
        nat = Number(r.varmap_native_total_cpu_s),
        wasm = Number(r.varmap_wasm_total_cpu_s);
      out.push(
        `| ${r.workload} | ${r.d} | ${r.n_train || "—"} | ${r.reference} (${r.build}) | ${num(ref)} | ${num(nat)} | ${num(wasm)} | ${num(ref / nat, 2)}× |`,
      );
    }
    out.push("");
  }
  const mix = join(golden, "mixture-anchors.csv");
  if (existsSync(mix)) {
    const tot = new Map<string, { s: number; fits: number }>();
    for (const r of csv(mix)) {
      const k = `${r.package} ${r.family}`;
      const t = tot.get(k) ?? { s: 0, fits: 0 };
      t.s += Number(r.seconds) || 0;
      t.fits++;
      tot.set(k, t);
    }
    out.push("Mixture fits of the anchors (`mixture-anchors.csv`, 274 configurations of the iozone data, k = 1..5; wall seconds as recorded):", "");
    out.push("| package, family | fits | total s | ms per fit |", "|---|---:|---:|---:|");
    for (const [k, t] of [...tot].sort()) out.push(`| ${k} | ${t.fits} | ${num(t.s)} | ${num((1000 * t.s) / t.fits)} |`);
    out.push("");
  }
  const reg = join(golden, "regressors-fit-times.csv");
  if (existsSync(reg)) {
    const tot = new Map<string, number>();
    for (const r of csv(reg)) tot.set(r.model, (tot.get(r.model) ?? 0) + Number(r.wall_min));
    out.push("R's regressors on the 180 golden MOANA splits (`regressors-fit-times.csv`, fit wall time, minimum of repeats, summed):", "");
    out.push("| model | total s over 180 splits |", "|---|---:|");
    for (const [k, v] of tot) out.push(`| ${k} | ${num(v)} |`);
    out.push("");
  }
  return out;
}

if (run) for (const w of WORKLOADS) runWorkload(w, run);

const records = new Map(WORKLOADS.map((w) => [w.id, readRecord(w.id)]));
const extra = existsSync(resultsDir)
  ? readdirSync(resultsDir)
      .sort() // the directory's own order depends on the file system
      .filter((f) => f.endsWith(".json") && !records.has(f.slice(0, -5)))
      .map((f) => JSON.parse(readFileSync(join(resultsDir, f), "utf8")) as Partial<WorkloadRecord>)
      // Only workload records (`npm run bench` keeps its kernel-suite results in the same folder).
      .filter((r): r is WorkloadRecord => typeof r.workload === "string" && Array.isArray(r.figures) && !!r.machine)
  : [];
const here = machine();
const lines: string[] = [
  "# Benchmarks",
  "",
  "<!-- Generated by `npm run bench:docs` (bench/benchmarks-doc.ts) from bench/results/*.json: do not edit by hand. -->",
  "",
  "The speed goals of issue 25 and where varmap stands. Every figure comes from a workload script in `bench/`, run with",
  "the command shown (from the package root, after `npm run build`); `npm run bench:docs -- --run full` reruns them all",
  "and rewrites this page (`--run quick`: smaller slices, extrapolated where a script says so). Times are process CPU",
  "time unless they say wall; the machine may be shared, so each record states its load average.",
  "",
  "## Machine",
  "",
  `Written on ${here.cpu}, ${here.cores} cores, ${here.platform}, Node ${here.node}. Each record below names the machine it ran on.`,
  "",
  "## Goals",
  "",
];
for (const w of WORKLOADS) {
  const r = records.get(w.id);
  lines.push(`### ${w.title}`, "", `Goal: ${w.goal}. Command: \`node ${w.full.join(" ")} --save bench/results/${w.id}.json\``, "");
  if (w.baseline) lines.push(`When the goal was set: ${w.baseline}.`, "");
  if (!r) {
    lines.push("No record yet: run the command above (scripts that do not accept `--save` yet print their figures only).", "");
    continue;
  }
  const m = r.machine;
  lines.push(
    `Measured ${r.when} with \`${r.command}\` on ${m.cpu} (${m.cores} cores, load average ${m.loadavg.join(" / ")}, ${m.backend} backend, Node ${m.node}).`,
    "",
    ...figureRows(r.figures),
    "",
  );
}
const pairs = [wasmRatios(records.get("delaunay-native"), records.get("delaunay-wasm"))];
const wasmRows = pairs.filter((t) => t.length).flatMap((t, i) => (i === 0 ? t : t.slice(2)));
if (wasmRows.length) lines.push("### WebAssembly against native (goal ≥ 0.5× native on every workload)", "", ...wasmRows, "");
for (const r of extra)
  lines.push(`### ${r.workload}`, "", `\`${r.command}\` (${r.when}, load ${r.machine.loadavg.join(" / ")}):`, "", ...figureRows(r.figures), "");
lines.push(...referenceSection());
lines.push(
  "## The record convention",
  "",
  "Every `bench/*-workload` script prints each figure with its ratio to its goal, and with `--save FILE.json` writes one record",
  "(bench/figures.ts: `saveRecord`):",
  "",
  "```json",
  '{ "workload": "table2", "command": "node dist/bench/table2-workload.js table2 --save …", "when": "ISO time",',
  '  "machine": { "cpu": "…", "cores": 2, "loadavg": [1.2, 1.0, 0.9], "node": "v20…", "platform": "linux-x64", "backend": "native" },',
  '  "figures": [ { "name": "…", "figure": 171.3, "unit": "s wall",',
  '                 "goal": { "op": "<=", "value": 180, "unit": "s", "text": "≤ 3 min wall on 2 cores" },',
  '                 "ratio": 1.05, "met": true, "reference": { "name": "SHEPPACK", "figure": 0.52, "unit": "s CPU" } } ] }',
  "```",
  "",
  "`ratio` is how many times better than the goal the figure is (goal / figure for a time ceiling, figure / goal for a",
  "speed-up floor), so ≥ 1 means met. To add a workload: accept `--save`, build figures with `figure(name, value, unit, goal)`,",
  "call `printFigures` and `saveRecord`, and list the script in WORKLOADS in bench/benchmarks-doc.ts (records of scripts not",
  "listed there are shown after the goals).",
  "",
);
if (check) process.exit(checkPage(lines.join("\n")));
mkdirSync(join(root, "docs"), { recursive: true });
writeFileSync(docFile, lines.join("\n"));
process.stderr.write(`bench:docs: wrote ${docFile}\n`);
for (const r of records.values()) if (r) for (const f of r.figures) process.stderr.write(`  ${formatFigure(f)}\n`);
