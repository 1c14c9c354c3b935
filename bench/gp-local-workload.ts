// gp's local variant (nearest-neighbour kriging, ts/predict/gp.ts) on the synthetic interpolation sets of
// ../shared/golden (f = Σ sin(3 x_j), x uniform in [0,1]^d; 1,100 queries, 1,000 inside the hull and 100 outside):
//   - the 10,000-point training sets (above GP_MAX_POINTS: the local variant by default): fit and predict time, and
//     the accuracy at the queries;
//   - a set where both run (the first --compare rows, default 2,000): exact against local, time and accuracy, and how
//     far their predictions differ.
// Usage: node dist/bench/gp-local-workload.js [--dims 4,8] [--compare 2000] [--neighbours m] [--backend native|wasm]
// Reports wall and CPU time of this process (the machine is shared: CPU time is the steadier figure).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { loadavg } from "node:os";
import { getBackend } from "../ts/backend/index.js";
import { Gp } from "../ts/predict/gp.js";
import { matrix, type Matrix } from "../ts/predict/matrix.js";
import { flag, sharedDir } from "./args.js";
import { timed } from "./figures.js";

const backend = getBackend((flag("--backend") as "native" | "wasm" | undefined) ?? "auto");
const dims = (flag("--dims") ?? "4,8").split(",").map(Number);
const compare = Number(flag("--compare") ?? 2000);
const neighbours = flag("--neighbours") ? { neighbours: Number(flag("--neighbours")) } : {};
const golden = join(sharedDir(), "golden");

function readRows(path: string): number[][] {
  const [, ...lines] = readFileSync(path, "utf8").trim().split("\n");
  return lines.map((l) => l.split(",").map(Number));
}

/** RMSE and mean relative error at the queries inside the hull (the first 1,000). */
function accuracy(pred: Float64Array, truth: number[], rows = 1000): string {
  let se = 0,
    re = 0;
  for (let i = 0; i < rows; i++) {
    se += (pred[i] - truth[i]) ** 2;
    re += Math.abs(pred[i] - truth[i]) / Math.abs(truth[i]);
  }
  return `RMSE ${Math.sqrt(se / rows).toExponential(3)}, mean rel. error ${((100 * re) / rows).toFixed(3)} %`;
}

const secs = (t: { wall: number; cpu: number }) => `${t.wall.toFixed(2)} s wall / ${t.cpu.toFixed(2)} s CPU`;

console.log(`gp local workload on ${backend.name}, load average ${loadavg()[0].toFixed(1)}`);
for (const d of dims) {
  const train = readRows(join(golden, `synthetic-d${d}-n10000-train.csv`));
  const query = readRows(join(golden, `synthetic-d${d}-query.csv`));
  const Q: Matrix = matrix(Float64Array.from(query.flatMap((r) => r.slice(1, d + 1))), query.length, d);
  const truth = query.map((r) => r[d + 2]);
  const data = (n: number) => ({
    X: matrix(Float64Array.from(train.slice(0, n).flatMap((r) => r.slice(1, d + 1))), n, d),
    y: Float64Array.from(train.slice(0, n), (r) => r[d + 1]),
  });

  const big = data(train.length);
  const fit = timed(() => new Gp({ backend: backend.name, ...neighbours }).fit(big.X, big.y));
  const pred = timed(() => fit.value.predict(Q));
  console.log(`d = ${d}, n = ${train.length} (local): fit ${secs(fit)}; ${query.length} predictions ${secs(pred)}; ${accuracy(pred.value, truth)}`);

  const small = data(compare);
  const exact = timed(() => new Gp({ backend: backend.name }).fit(small.X, small.y));
  const exactPred = timed(() => exact.value.predict(Q));
  const local = timed(() => new Gp({ backend: backend.name, local: true, ...neighbours }).fit(small.X, small.y));
  const localPred = timed(() => local.value.predict(Q));
  let diff = 0;
  for (let i = 0; i < 1000; i++) diff = Math.max(diff, Math.abs(localPred.value[i] - exactPred.value[i]) / Math.abs(exactPred.value[i]));
  console.log(`d = ${d}, n = ${compare} exact: fit ${secs(exact)}; predictions ${secs(exactPred)}; ${accuracy(exactPred.value, truth)}`);
  console.log(`d = ${d}, n = ${compare} local: fit ${secs(local)}; predictions ${secs(localPred)}; ${accuracy(localPred.value, truth)}`);
  console.log(`  largest relative difference local vs exact at the 1,000 inside queries: ${(100 * diff).toFixed(3)} %`);
}
