// How much is left in gp's point prediction on the real fread map (issue 16's p = 0.9 bar)? On a log response gp
// predicts exp(m − s²), the expected-ARE minimizer when log y ~ N(m, s²) with s² the predictive variance of a new
// observation (the test point's noise taken as the training points' average). This probe refits gp on each golden
// split and scores other points of the same family:
//   - exp(m − c·s²) for c in 0 (the median) … 3, the shrinkage chosen on the test points (optimistic);
//   - an oracle that knows each test point's own measured sampling variance (its jackknife variance over its runs,
//     which no prediction of an unmeasured configuration can have) in place of the average;
//   - the latent mean alone, exp(m − σ² v_latent) (no observation noise in s²).
//   node dist/bench/gp-point-probe.js [--p 0.9] [--reps 20] [--shared DIR]
// One gp fit per split (about half a minute for 20 splits).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { splitRows, type Split } from "../ts/cv/splits.js";
import { gatherValues, mapInputScaling } from "../ts/cv/split.js";
import { loadDataset } from "../ts/data/load.js";
import { mapView, packMaps } from "../ts/data/shared-maps.js";
import { Gp } from "../ts/predict/gp.js";
import { matrix, takeRows } from "../ts/predict/matrix.js";
import { flag, sharedDir } from "./args.js";

const p = Number(flag("--p") ?? 0.9);
const reps = Number(flag("--reps") ?? 20);
const SHRINK = [0, 0.5, 1, 1.5, 2, 3];

const shared = sharedDir();
// The setup of issue 16's figures: all four inputs on a log scale (`--log-inputs auto` keeps them so), log response.
const { maps } = await loadDataset(join(shared, "data", "moana-cfq-noop-fread.csv"), {
  preset: "moana",
  logInputs: ["freq_khz", "threads", "fsize_kb", "rsize_kb"],
  logResponse: true,
});
const map = mapView(packMaps(maps), 0);
const yVar = map.yVar;
if (!yVar) throw new Error("the fread map has no measured variances");
const X = matrix(map.X, map.rows, map.cols);
const file = join(shared, "golden", "moana-splits.json");
const splits: Split[] = JSON.parse(readFileSync(file, "utf8")).splits;
const chosen = splits.map((s, index) => ({ s, index })).filter(({ s }) => s.p === p && s.rep < reps);

const sums = { shrink: SHRINK.map(() => 0), oracle: 0, latent: 0, predicted: 0 };
let points = 0;
for (const { s, index } of chosen) {
  const { train, test } = splitRows(s, maps[0].ids, { file, index });
  const gp = new Gp({ inputs: mapInputScaling(map.meta.normalization), response: "log" });
  gp.fit(takeRows(X, train), gatherValues(map.y, train), gatherValues(yVar, train));
  const Xq = takeRows(X, test);
  const { mean, sd } = gp.predictWithSd(Xq);
  const predicted = gp.predict(Xq);
  // σ², the nugget g and τ as the fit stored them (θ = log ℓ_1 … log ℓ_d, log g, log τ); the measured variances are
  // relative to their training mean on the model scale (var(y)/y² on a log response), as gp weighs them.
  const { theta, sigma2 } = gp.toJSON().state;
  const d = map.cols;
  const nugget = Math.exp(theta[d]),
    tau = theta.length > d + 1 ? Math.exp(theta[d + 1]) : 0;
  let meanVariance = 0;
  for (const i of train) meanVariance += yVar[i] / (map.y[i] * map.y[i]);
  meanVariance /= train.length;
  test.forEach((row, k) => {
    const truth = map.y[row];
    const are = (log: number) => Math.abs(Math.exp(log) - truth) / truth;
    const s2 = sd[k] * sd[k];
    const latent = s2 - sigma2 * (nugget + tau); // the predictive variance without a new observation's noise
    const own = yVar[row] / (truth * truth) / meanVariance; // the test point's own relative variance (oracle)
    SHRINK.forEach((c, j) => (sums.shrink[j] += are(mean[k] - c * s2)));
    sums.oracle += are(mean[k] - (latent + sigma2 * (nugget + tau * own)));
    sums.latent += are(mean[k] - latent);
    sums.predicted += Math.abs(predicted[k] - truth) / truth;
    points++;
  });
}
const pct = (x: number) => ((100 * x) / points).toFixed(3);
console.log(`fread map, p = ${p}, ${chosen.length} golden splits, ${points} test points: mean ARE %`);
console.log(`  gp as it predicts (c = 1): ${pct(sums.predicted)}`);
for (const [j, c] of SHRINK.entries()) console.log(`  exp(m - ${c} s²): ${pct(sums.shrink[j])}`);
console.log(`  oracle (each test point's own measured noise in s²): ${pct(sums.oracle)}`);
console.log(`  latent mean only (no observation noise in s²): ${pct(sums.latent)}`);
