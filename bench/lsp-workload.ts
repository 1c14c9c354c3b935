// LSP workload timings against SHEPPACK's anchors (../shared/golden/anchors-fortran-timings.csv):
//   node dist/bench/lsp-workload.js [--backend native|wasm] [--reps 3] [--only moana|synthetic] [--shared DIR]
// 1. The 180-split pass on the real MOANA map, two ways:
//    a. cross-validation's path (ts/cv, ts/pool): the map's neighbour table (lspNeighbors) once, then every
//       split's fit and test-point evaluations in one lspSubsets call — the figure for the target;
//    b. split by split: each split's fit (lspFit kernel) and evaluations (lspEval kernel), as SHEPPACK's
//       LSHEP + LSHEPVAL calls were timed (fits and evaluations separately).
//    Also both whole passes through the predictor API (LinearShepardSubsets, LinearShepard; scaling included).
// 2. The six synthetic problems: fit time and evaluation time per query (1,100 queries).
// Reports the median over --reps of wall time and of this process's CPU time (on a busy machine CPU time is
// the better estimate of single-thread speed), and the speed-up over the anchor's median wall time.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { getBackend } from "../ts/backend/index.js";
import { lspEval, lspFit, lspNeighborTable, lspSubsets } from "../ts/backend/kernels/lsp.js";
import { LinearShepard, LinearShepardSubsets } from "../ts/predict/lsp.js";
import { matrix, takeRows } from "../ts/predict/matrix.js";
import { flag, sharedDir } from "./args.js";

const arg = flag;
const backend = getBackend(arg("--backend"));
const reps = Number(arg("--reps") ?? 3);
const only = arg("--only");
const shared = sharedDir();
const golden = (f: string) => join(shared, "golden", f);

function csv(path: string): Record<string, string>[] {
  const [head, ...lines] = readFileSync(path, "utf8").trim().split(/\r?\n/);
  const cols = head.split(",");
  return lines.map((l) => Object.fromEntries(l.split(",").map((v, i) => [cols[i], v])));
}
const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];

interface Timing {
  wall: number;
  cpu: number;
}
function time(fn: () => void): Timing {
  const c0 = process.cpuUsage(),
    t0 = performance.now();
  fn();
  const t1 = performance.now(),
    c1 = process.cpuUsage(c0);
  return { wall: (t1 - t0) / 1000, cpu: (c1.user + c1.system) / 1e6 };
}
function med(ts: Timing[]): Timing {
  return { wall: median(ts.map((t) => t.wall)), cpu: median(ts.map((t) => t.cpu)) };
}

const anchors = csv(golden("anchors-fortran-timings.csv"));
function anchor(workload: string, method: string, d: number, n?: number): number {
  return median(
    anchors
      .filter((a) => a.workload === workload && a.method === method && Number(a.d) === d && (n === undefined || Number(a.n_train) === n))
      .map((a) => Number(a.call_wall_s)),
  );
}
const fmt = (s: number) => (s >= 1 ? `${s.toFixed(2)} s` : `${(s * 1000).toFixed(1)} ms`);

console.log(
  `LSP workload on ${backend.name}, median of ${reps}; machine load average ${(await import("node:os"))
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(" ")}`,
);

if (only !== "synthetic") {
  const map = csv(golden("moana-map.csv"));
  const cols = ["u_freq", "u_threads", "u_fsize", "u_rsize"];
  const X = Float64Array.from(map.flatMap((r) => cols.map((c) => Number(r[c]))));
  const y = Float64Array.from(map.map((r) => Number(r.sd)));
  const splits: { train: number[] }[] = JSON.parse(readFileSync(golden("moana-splits.json"), "utf8")).splits;
  const all = matrix(X, map.length, 4);
  const prepared = splits.map((s) => {
    const inTrain = new Uint8Array(map.length);
    for (const i of s.train) inTrain[i] = 1;
    const train = Int32Array.from([...s.train].sort((a, b) => a - b));
    const test = Int32Array.from(map.map((_, i) => i).filter((i) => !inTrain[i]));
    return { train, test, Xt: takeRows(all, train).data, yt: Float64Array.from(train, (i) => y[i]), Xq: takeRows(all, test).data };
  });
  const subsets = prepared.map((p) => ({ train: p.train, query: p.test }));
  const fits: Timing[] = [],
    evals: Timing[] = [],
    api: Timing[] = [],
    tables: Timing[] = [],
    shared: Timing[] = [],
    sharedApi: Timing[] = [];
  for (let r = 0; r < reps; r++) {
    let table: ReturnType<typeof lspNeighborTable> | undefined;
    tables.push(time(() => (table = lspNeighborTable(backend, X, 4))));
    shared.push(time(() => lspSubsets(backend, table!, y, subsets)));
    const models = new Array(prepared.length);
    fits.push(time(() => prepared.forEach((p, i) => (models[i] = lspFit(backend, p.Xt, p.yt, 4)))));
    evals.push(time(() => prepared.forEach((p, i) => lspEval(backend, { X: p.Xt, f: p.yt, A: models[i].A, rw: models[i].rw, m: 4 }, p.Xq))));
    sharedApi.push(time(() => new LinearShepardSubsets(all, y, { backend: backend.name, inputs: { kind: "none" } }).predict(prepared)));
    api.push(
      time(() =>
        prepared.forEach((p) =>
          new LinearShepard({ backend: backend.name, inputs: { kind: "none" } }).fit(takeRows(all, p.train), p.yt).predict(takeRows(all, p.test)),
        ),
      ),
    );
  }
  const f = med(fits),
    e = med(evals),
    a = med(api),
    tb = med(tables),
    sh = med(shared),
    sa = med(sharedApi);
  const both = med(tables.map((t, i) => ({ wall: t.wall + shared[i].wall, cpu: t.cpu + shared[i].cpu })));
  const af = anchor("moana-180-splits", "lsp_sheppack_fit", 4),
    ae = anchor("moana-180-splits", "lsp_sheppack_eval", 4);
  const row = (label: string, t: Timing, sheppack?: number, target?: string) =>
    console.log(
      `  ${label.padEnd(44)}${fmt(t.wall).padStart(9)}  ${fmt(t.cpu).padStart(9)}` +
        (sheppack === undefined ? "" : `  ${fmt(sheppack).padStart(9)}`) +
        (target === undefined ? "" : `   ${(sheppack! / t.wall).toFixed(1)}x / ${(sheppack! / t.cpu).toFixed(1)}x${target}`),
    );
  console.log(`\n180-split pass (77,760 evaluations)               wall        cpu      SHEPPACK   speed-up (wall / cpu)`);
  console.log(` cross-validation's path (shared neighbour table):`);
  row("neighbour table of the map (lspNeighbors)", tb);
  row("180 fits + evaluations (lspSubsets)", sh);
  row("fits + evaluations, table included", both, af + ae, "  (target >= 5x)");
  row("whole pass through LinearShepardSubsets", sa);
  console.log(` split by split (lspFit + lspEval per split):`);
  row("fits", f, af);
  row("evaluations", e, ae);
  row("fits + evaluations", { wall: f.wall + e.wall, cpu: f.cpu + e.cpu }, af + ae, "");
  row("whole pass through LinearShepard API", a);
}

if (only !== "moana") {
  console.log(
    `\nsynthetic (1,100 queries)   fit wall / cpu          eval per query wall / cpu   SHEPPACK fit, per query   fit+eval speed-up (wall / cpu; target >= 2x)`,
  );
  for (const d of [4, 8, 20])
    for (const n of [1000, 10000]) {
      const train = csv(golden(`synthetic-d${d}-n${n}-train.csv`));
      const query = csv(golden(`synthetic-d${d}-query.csv`));
      const xc = Array.from({ length: d }, (_, j) => `x${j + 1}`);
      const X = Float64Array.from(train.flatMap((r) => xc.map((c) => Number(r[c]))));
      const f = Float64Array.from(train.map((r) => Number(r.f)));
      const Q = Float64Array.from(query.flatMap((r) => xc.map((c) => Number(r[c]))));
      const fits: Timing[] = [],
        evals: Timing[] = [];
      for (let r = 0; r < reps; r++) {
        let model: ReturnType<typeof lspFit> | undefined;
        fits.push(time(() => (model = lspFit(backend, X, f, d))));
        evals.push(time(() => lspEval(backend, { X, f, A: model!.A, rw: model!.rw, m: d }, Q)));
      }
      const ft = med(fits),
        et = med(evals);
      const af = anchor("synthetic", "lsp_sheppack_fit", d, n),
        ae = anchor("synthetic", "lsp_sheppack_eval", d, n);
      const us = (s: number) => `${((s / query.length) * 1e6).toFixed(1)} us`;
      console.log(
        `  d=${String(d).padEnd(2)} n=${String(n).padEnd(5)}        ${fmt(ft.wall).padStart(9)} / ${fmt(ft.cpu).padStart(9)}   ${us(et.wall).padStart(10)} / ${us(et.cpu).padStart(10)}   ${fmt(af).padStart(9)}, ${us(ae).padStart(9)}   ${((af + ae) / (ft.wall + et.wall)).toFixed(1)}x / ${((af + ae) / (ft.cpu + et.cpu)).toFixed(1)}x`,
      );
    }
}
