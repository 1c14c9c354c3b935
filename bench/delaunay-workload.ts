// Workload timings of issue #5 against DelaunaySparse's serial driver (gfortran -O3, figures from the issue):
//   node dist/bench/delaunay-workload.js [--backend native|wasm] [--repeats 3] [--only moana|synthetic] [--quick]
//        [--save record.json]
// Per-query time on the six synthetic problems (1,000 inside + 100 outside queries, one batched call) and the
// 180-split MOANA pass (one fit + predict per split through the Delaunay predictor). Reports the median of the
// repeats in wall and in CPU time of this process (the machine is shared: CPU time is the steadier figure).
import { loadavg } from "node:os";
import { getBackend } from "../ts/backend/index.js";
import { delaunayLocate } from "../ts/backend/kernels/delaunay.js";
import { Delaunay } from "../ts/predict/delaunay.js";
import { matrix } from "../ts/predict/matrix.js";
import { moanaSplits, splitInputs, syntheticProblem } from "../ts/benchmarks/delaunay-data.js";
import { flag } from "../ts/benchmarks/shared-dir.js";
import { figure, machine, printFigures, saveRecord, type Figure } from "./figures.js";

const arg = flag;
const backend = getBackend((arg("--backend") as "native" | "wasm" | undefined) ?? "auto");
const repeats = Number(arg("--repeats") ?? 3);
const only = arg("--only");
const quick = process.argv.includes("--quick");

const ANCHOR_MS: Record<string, number> = { "4,1000": 0.45, "4,10000": 4.1, "8,1000": 3.2, "8,10000": 15.0, "20,1000": 30.8, "20,10000": 157 };
const ANCHOR_CV_S = 10.4;
const figures: Figure[] = [];

function median(x: number[]): number {
  const s = [...x].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

function timed(fn: () => void): { wall: number; cpu: number } {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  fn();
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { wall, cpu: (c.user + c.system) / 1000 };
}

console.log(
  `backend ${backend.name}, repeats ${repeats}, load average at start ${loadavg()
    .map((x) => x.toFixed(2))
    .join(" ")}`,
);
if (only !== "moana")
  for (const [d, n] of [
    [4, 1000],
    [4, 10000],
    [8, 1000],
    [8, 10000],
    [20, 1000],
    [20, 10000],
  ]) {
    if (quick && d * n > 80000) continue;
    const p = syntheticProblem(d, n);
    const nq = p.Q.length / d;
    const runs = Array.from({ length: repeats }, () => timed(() => delaunayLocate(backend, p.X, p.Q, d)));
    const wall = median(runs.map((r) => r.wall)) / nq;
    const cpu = median(runs.map((r) => r.cpu)) / nq;
    const anchor = ANCHOR_MS[`${d},${n}`];
    console.log(
      `synthetic d=${d} n=${n} (${p.source}, ${nq} queries): ${wall.toFixed(3)} ms/query wall, ${cpu.toFixed(3)} ms/query cpu; DelaunaySparse ${anchor} ms -> ${(anchor / cpu).toFixed(2)}x (cpu), ${(anchor / wall).toFixed(2)}x (wall)`,
    );
    figures.push(
      figure(`Delaunay synthetic d=${d} n=${n}, ${backend.name}`, cpu, "ms CPU/query", undefined, {
        reference: { name: "DelaunaySparse (issue 5, wall)", figure: anchor, unit: "ms/query" },
      }),
    );
  }
const m = only === "synthetic" ? undefined : moanaSplits();
if (m) {
  const inputs = m.splits.map((s) => ({ ...splitInputs(m, s.train), y: Float64Array.from(s.train, (t) => m.y[t]), ntrain: s.train.length }));
  const pass = () => {
    for (const s of inputs) {
      const model = new Delaunay({ backend: backend.name, inputs: { kind: "none" } }).fit(matrix(s.Xt, s.ntrain, 4), s.y);
      model.predict(matrix(s.Xq, s.test.length, 4));
    }
  };
  const runs = Array.from({ length: repeats }, () => timed(pass));
  const wall = median(runs.map((r) => r.wall)) / 1000;
  const cpu = median(runs.map((r) => r.cpu)) / 1000;
  console.log(
    `MOANA 180-split pass (fit + predict per split): ${wall.toFixed(3)} s wall, ${cpu.toFixed(3)} s cpu; DelaunaySparse ${ANCHOR_CV_S} s -> ${(ANCHOR_CV_S / cpu).toFixed(1)}x (cpu), ${(ANCHOR_CV_S / wall).toFixed(1)}x (wall); target <= 1.04 s`,
  );
  figures.push(
    figure(`Delaunay MOANA 180-split pass, ${backend.name}`, cpu, "s CPU", undefined, {
      reference: { name: "DelaunaySparse (issue 5, wall)", figure: ANCHOR_CV_S, unit: "s" },
    }),
  );
} else if (only !== "synthetic") console.log("MOANA pass skipped: ../shared/golden not found (set VARMAP_SHARED)");
console.log(
  `load average at end ${loadavg()
    .map((x) => x.toFixed(2))
    .join(" ")}`,
);
printFigures(figures);
saveRecord(arg("--save"), { workload: `delaunay-${backend.name}`, figures, machine: machine(backend.name) });
