// rbf fit cost by training size (issue 16): node dist/bench/rbf-workload.js [--backend native|wasm] [--sizes 100,400,800]
// One fit (GCV, thin plate) on n scattered points in 4 inputs, the symtrid kernel's share (the tridiagonalization
// of an n × n matrix, issue 46), and 1,000 predictions.
// Reports wall and CPU time of this process (the machine is shared: CPU time is the steadier figure).
import { loadavg } from "node:os";
import { getBackend } from "../ts/backend/index.js";
import { symtrid } from "../ts/backend/kernels/symeig.js";
import { Rbf } from "../ts/predict/rbf.js";
import { matrix } from "../ts/predict/matrix.js";
import { flag } from "../ts/benchmarks/shared-dir.js";

const backend = getBackend((flag("--backend") as "native" | "wasm" | undefined) ?? "auto");
const sizes = (flag("--sizes") ?? "100,400,800").split(",").map(Number);

function timed(fn: () => void): { wall: number; cpu: number } {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  fn();
  const c = process.cpuUsage(c0);
  return { wall: performance.now() - t0, cpu: (c.user + c.system) / 1000 };
}

let seed = 1;
const rand = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
const d = 4;
console.log(`rbf workload on ${backend.name}, load average ${loadavg()[0].toFixed(1)}`);
for (const n of sizes) {
  const X = matrix(Float64Array.from({ length: n * d }, rand), n, d);
  const y = Float64Array.from({ length: n }, (_, i) => Math.exp(Math.sin(3 * X.data[i * d]) + X.data[i * d + 1]));
  const Q = matrix(Float64Array.from({ length: 1000 * d }, rand), 1000, d);
  let model = new Rbf({ backend: backend.name, response: "log" });
  const fit = timed(() => (model = new Rbf({ backend: backend.name, response: "log" }).fit(X, y)));
  const A = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) A[i * n + j] = Math.abs(i - j) ** 3;
  const eig = timed(() => symtrid(backend, A, n));
  const pred = timed(() => model.predict(Q));
  console.log(
    `n = ${n}: fit ${fit.wall.toFixed(0)} ms wall / ${fit.cpu.toFixed(0)} ms CPU (symtrid ${eig.cpu.toFixed(0)} ms CPU); 1,000 predictions ${pred.cpu.toFixed(0)} ms CPU`,
  );
}
