// rbf against scipy's RBFInterpolator on the fread golden splits (issue 46), measured in one run side by side:
//   node dist/bench/rbf-scipy-workload.js [--reps 5] [--repeats 3] [--backend native|wasm] [--save bench/results/rbf-scipy.json]
// Per split (the first --reps golden splits at p = 0.1, 0.5, 0.9): varmap's rbf (thin plate, λ by GCV, the
// default) and scipy's RBFInterpolator (thin_plate_spline, degree 1) with λ chosen by the same rule (GCV over the
// same grid, bench/rbf-scipy.py), both on the inputs and responses varmap's fit sees (normalized inputs, log sd);
// also both at the λ varmap chose, fixed. Per-fit process CPU, the minimum of --repeats fits, median over splits.
// Python: Debian's /usr/bin/python3 with python3-scipy (installed with apt-get here when missing; never a product
// dependency), one BLAS thread (OPENBLAS_NUM_THREADS=1: varmap's fit is single-threaded too).
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { getBackend } from "../ts/backend/index.js";
import { flag } from "../ts/benchmarks/shared-dir.js";
import { packageRoot } from "../ts/package-root.js";
import type { Matrix } from "../ts/predict/matrix.js";
import { matrix } from "../ts/predict/matrix.js";
import { Rbf } from "../ts/predict/rbf.js";
import { figure, printFigures, saveRecord, timed, type Figure } from "./figures.js";
import { freadGolden } from "./fread-golden.js";

const PYTHON = "/usr/bin/python3";
const backend = getBackend((flag("--backend") as "native" | "wasm" | undefined) ?? "auto");
const reps = Number(flag("--reps") ?? 5);
const repeats = Number(flag("--repeats") ?? 3);

/** Rbf that keeps what its fit and prediction see (normalized inputs, model-scale responses). */
class Probe extends Rbf {
  seen: { X?: Matrix; y?: Float64Array; Xq?: Matrix; pred?: Float64Array } = {};
  protected override fitScaled(X: Matrix, y: Float64Array): void {
    this.seen.X = X;
    this.seen.y = Float64Array.from(y);
    super.fitScaled(X, y);
  }
  protected override predictScaled(Xq: Matrix): Float64Array {
    const pred = super.predictScaled(Xq);
    this.seen.Xq = Xq;
    this.seen.pred = Float64Array.from(pred);
    return pred;
  }
}

function ensureScipy(): void {
  if (spawnSync(PYTHON, ["-c", "import scipy"]).status === 0) return;
  console.error("rbf-scipy: python3-scipy is missing; installing it with apt-get (bench setup only)");
  const root = process.getuid?.() === 0;
  const r = spawnSync(root ? "apt-get" : "sudo", [...(root ? [] : ["apt-get"]), "install", "-y", "python3-scipy"], { stdio: "inherit" });
  if (r.status !== 0 || spawnSync(PYTHON, ["-c", "import scipy"]).status !== 0)
    throw new Error("rbf-scipy: could not install python3-scipy (apt-get install python3-scipy)");
}

const median = (xs: number[]) => {
  const s = xs.slice().sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : 0.5 * (s[s.length / 2 - 1] + s[s.length / 2]);
};
const maxRel = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]) / Math.max(Math.abs(a[i]), Math.abs(b[i]), 1e-300));
  return m;
};

ensureScipy();
const golden = await freadGolden();
const { X, y, cols: d } = golden.map;
const rows = (idx: ArrayLike<number>): Matrix =>
  matrix(
    Float64Array.from({ length: idx.length * d }, (_, k) => X[idx[Math.floor(k / d)] * d + (k % d)]),
    idx.length,
    d,
  );

const figures: Figure[] = [];
console.log(`rbf vs scipy RBFInterpolator on the fread golden splits (${backend.name}, ${reps} splits per p, min of ${repeats})`);
for (const p of [0.1, 0.5, 0.9]) {
  const splits = golden.splitsAt(p, reps);
  const jobs: object[] = [];
  const ours: { gcv: number; fixed: number; lambda: number; pred: Float64Array; fixedPred: Float64Array }[] = [];
  for (const s of splits) {
    const Xt = rows(s.train),
      yt = Float64Array.from(s.train, (r) => y[r]),
      Xq = rows(s.test);
    let gcv = Infinity,
      fixed = Infinity,
      model = new Probe({ backend: backend.name, response: "log" });
    for (let r = 0; r < repeats; r++) {
      const t = timed(() => new Probe({ backend: backend.name, response: "log" }).fit(Xt, yt));
      gcv = Math.min(gcv, t.cpu);
      model = t.value;
    }
    const lambda = model.smoothing.lambda;
    model.predict(Xq);
    const seen = model.seen;
    let fixedModel = new Probe({ backend: backend.name, response: "log", smoothing: lambda });
    for (let r = 0; r < repeats; r++) {
      const t = timed(() => new Probe({ backend: backend.name, response: "log", smoothing: lambda }).fit(Xt, yt));
      fixed = Math.min(fixed, t.cpu);
      fixedModel = t.value;
    }
    fixedModel.predict(Xq);
    ours.push({ gcv, fixed, lambda, pred: seen.pred!, fixedPred: fixedModel.seen.pred! });
    jobs.push({ d, X: Array.from(seen.X!.data), y: Array.from(seen.y!), Xq: Array.from(seen.Xq!.data), lambda, repeats });
  }
  const py = spawnSync(PYTHON, [join(packageRoot(), "bench", "rbf-scipy.py")], {
    input: JSON.stringify(jobs),
    encoding: "utf8",
    maxBuffer: 1 << 28,
    env: { ...process.env, OPENBLAS_NUM_THREADS: "1", OMP_NUM_THREADS: "1", MKL_NUM_THREADS: "1" },
  });
  if (py.status !== 0) throw new Error(`rbf-scipy.py failed: ${py.stderr}`);
  const sp: { scipy: string; fits: { fixedCpu: number; gcvCpu: number; gcvLambda: number; fixedPred: number[]; gcvPred: number[] }[] } = JSON.parse(py.stdout);
  const n = splits[0].train.length;
  const vG = median(ours.map((o) => o.gcv)),
    sG = median(sp.fits.map((f) => f.gcvCpu)),
    vF = median(ours.map((o) => o.fixed)),
    sF = median(sp.fits.map((f) => f.fixedCpu));
  const lamDiff = Math.max(...ours.map((o, i) => Math.abs(o.lambda - sp.fits[i].gcvLambda) / o.lambda));
  const predDiff = Math.max(...ours.map((o, i) => maxRel(o.pred, sp.fits[i].gcvPred)));
  const fixedDiff = Math.max(...ours.map((o, i) => maxRel(o.fixedPred, sp.fits[i].fixedPred)));
  const goal = p === 0.9 ? { op: ">=" as const, value: 3, unit: "x", text: "≥ 3× scipy RBFInterpolator with GCV at p = 0.9" } : undefined;
  figures.push(
    figure(`rbf fit, λ by GCV, p = ${p} (n = ${n}): speed-up over scipy`, sG / vG, "x", goal, {
      reference: { name: "scipy RBFInterpolator + GCV CPU", figure: sG, unit: "s" },
      note: `varmap ${(vG * 1000).toFixed(1)} ms, scipy ${(sG * 1000).toFixed(1)} ms per fit (process CPU, median of ${splits.length} splits); same λ to ${lamDiff.toExponential(1)}, predictions to ${predDiff.toExponential(1)} (max relative, log sd); scipy ${sp.scipy}`,
    }),
    figure(`rbf fit, λ fixed (varmap's), p = ${p} (n = ${n}): speed-up over scipy`, sF / vF, "x", undefined, {
      reference: { name: "scipy RBFInterpolator CPU", figure: sF, unit: "s" },
      note: `varmap ${(vF * 1000).toFixed(1)} ms, scipy ${(sF * 1000).toFixed(1)} ms per fit; predictions to ${fixedDiff.toExponential(1)} (max relative)`,
    }),
  );
  printFigures(figures.slice(-2));
  for (const f of figures.slice(-2)) console.log(`  ${f.note}`);
}
saveRecord(flag("--save"), { workload: "rbf-scipy", figures });
