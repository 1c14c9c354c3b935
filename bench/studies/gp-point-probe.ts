// How much is left in gp's point prediction on the real fread map (issue 16's p = 0.9 bar)? On a log response gp
// predicts exp(m − s²), the expected-ARE minimizer when log y ~ N(m, s²) with s² the predictive variance of a new
// observation (the test point's noise taken as the training points' average). This probe refits gp on each golden
// split and scores other points of the same family:
//   - exp(m − c·s²) for c in 0 (the median) … 3, the shrinkage chosen on the test points (optimistic);
//   - an oracle that knows each test point's own measured sampling variance (its jackknife variance over its runs,
//     which no prediction of an unmeasured configuration can have) in place of the average;
//   - the latent mean alone, exp(m − σ² v_latent) (no observation noise in s²).
//   node dist/bench/studies/gp-point-probe.js [--p 0.9] [--reps 20] [--shared DIR]
// One gp fit per split (about half a minute for 20 splits).
import { gatherValues, mapInputScaling } from "../../ts/cv/split.js";
import { Gp } from "../../ts/predict/gp.js";
import { matrix, takeRows } from "../../ts/predict/matrix.js";
import { flag } from "../../ts/benchmarks/shared-dir.js";
import { freadGolden } from "../fread-golden.js";

const p = Number(flag("--p") ?? 0.9);
const reps = Number(flag("--reps") ?? 20);
const SHRINK = [0, 0.5, 1, 1.5, 2, 3];

// The setup of issue 16's figures: all four inputs on a log scale (`--log-inputs auto` keeps them so), log response.
const fread = await freadGolden();
const map = fread.map;
const yVar = map.yVar;
if (!yVar) throw new Error("the fread map has no measured variances");
const X = matrix(map.X, map.rows, map.cols);
const chosen = fread.splitsAt(p, reps);

const sums = { shrink: SHRINK.map(() => 0), oracle: 0, latent: 0, predicted: 0 };
let points = 0;
for (const { train, test } of chosen) {
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
