// gp's local variant (nearest-neighbour kriging, ts/predict/gp.ts) on the synthetic interpolation sets of
// ../shared/golden (f = Σ sin(3 x_j), x uniform in [0,1]^d; 1,100 queries, 1,000 inside the hull and 100 outside):
//   - the 10,000-point training sets (above GP_MAX_POINTS: the local variant by default): fit and predict time, and
//     the accuracy at the queries;
//   - a set where both run (the first --compare rows, default 2,000): exact against local, time and accuracy, and how
//     far their predictions differ.
// Usage: node dist/bench/gp-local-workload.js [--dims 4,8] [--compare 2000] [--neighbours m] [--backend native|wasm]
// Reports wall and CPU time of this process (the machine is shared: CPU time is the steadier figure).
import { join } from "node:path";
import { loadavg } from "node:os";
import { getBackend } from "../ts/backend/index.js";
import { Gp } from "../ts/predict/gp.js";
import { flag, sharedDir } from "../ts/benchmarks/shared-dir.js";
import { timed } from "./figures.js";
import { accuracy, largestRelativeDifference, seconds, syntheticSet } from "./synthetic-sets.js";

const backend = getBackend((flag("--backend") as "native" | "wasm" | undefined) ?? "auto");
const dims = (flag("--dims") ?? "4,8").split(",").map(Number);
const compare = Number(flag("--compare") ?? 2000);
const neighbours = flag("--neighbours") ? { neighbours: Number(flag("--neighbours")) } : {};
const golden = join(sharedDir(), "golden");

console.log(`gp local workload on ${backend.name}, load average ${loadavg()[0].toFixed(1)}`);
for (const d of dims) {
  const set = syntheticSet(golden, d);
  const Q = set.queries;

  const big = set.data(set.size);
  const fit = timed(() => new Gp({ backend: backend.name, ...neighbours }).fit(big.X, big.y));
  const pred = timed(() => fit.value.predict(Q));
  console.log(`d = ${d}, n = ${set.size} (local): fit ${seconds(fit)}; ${Q.rows} predictions ${seconds(pred)}; ${accuracy(pred.value, set.truth)}`);

  const small = set.data(compare);
  const exact = timed(() => new Gp({ backend: backend.name }).fit(small.X, small.y));
  const exactPred = timed(() => exact.value.predict(Q));
  const local = timed(() => new Gp({ backend: backend.name, local: true, ...neighbours }).fit(small.X, small.y));
  const localPred = timed(() => local.value.predict(Q));
  const diff = largestRelativeDifference(localPred.value, exactPred.value);
  console.log(`d = ${d}, n = ${compare} exact: fit ${seconds(exact)}; predictions ${seconds(exactPred)}; ${accuracy(exactPred.value, set.truth)}`);
  console.log(`d = ${d}, n = ${compare} local: fit ${seconds(local)}; predictions ${seconds(localPred)}; ${accuracy(localPred.value, set.truth)}`);
  console.log(`  largest relative difference local vs exact at the 1,000 inside queries: ${(100 * diff).toFixed(3)} %`);
}
