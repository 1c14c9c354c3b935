// Does gp leave a shared component in the residuals of "sibling" configurations of the real fread map (the same
// frequency, file size and record size, other thread counts)? Issue 16's p = 0.9 bar: a random effect per sibling
// group was the one model idea with a measured gain (a NumPy prototype). This probe measures the most that idea
// could give without building it: on each golden split, the training points' out-of-fold log residuals (K inner
// folds, each fitted by gp), then every test prediction times exp(λ · its training siblings' mean residual), the
// mean ARE over a grid of λ (λ = 0 is gp itself; the best λ is chosen on the test points, so it is optimistic).
//   node dist/bench/studies/sibling-residuals.js [--p 0.9] [--reps 20] [--folds 10] [--shared DIR]
// About 11 gp fits per split (4-5 min for 20 splits on 2 cores).
import { scoreSplits } from "../../ts/cv/scoring.js";
import type { RowSplit } from "../../ts/predict/lsp.js";
import { flag } from "../../ts/benchmarks/shared-dir.js";
import { freadGolden } from "../fread-golden.js";

const p = Number(flag("--p") ?? 0.9);
const reps = Number(flag("--reps") ?? 20);
const folds = Number(flag("--folds") ?? 10);
const LAMBDAS = [0, 0.25, 0.5, 0.75, 1];

// The setup of issue 16's figures: all four inputs on a log scale (`--log-inputs auto` keeps them so), log response.
const fread = await freadGolden();
const map = fread.map;
const names = map.meta.inputNames;
const threads = names.indexOf("threads");
if (threads < 0) throw new Error(`no threads input among ${names.join(", ")}`);
const siblingKey = (row: number): string => names.map((_, k) => (k === threads ? "*" : String(map.X[row * map.cols + k]))).join("|");
const keys = Array.from({ length: map.rows }, (_, row) => siblingKey(row));
const chosen = fread.splitsAt(p, reps);

function predictions(divisions: RowSplit[]): Float64Array[] {
  return scoreSplits(map, divisions, "gp", "log", {}).map((r) => {
    if (!("pred" in r)) throw new Error(`gp failed: ${JSON.stringify(r)}`);
    return r.pred;
  });
}

const totals = LAMBDAS.map(() => 0);
for (const [i, split] of chosen.entries()) {
  const [pred] = predictions([split]);
  // Out-of-fold residuals of the training points, grouped by sibling key.
  const train = Array.from(split.train);
  const inner: RowSplit[] = Array.from({ length: folds }, (_, f) => ({
    train: Int32Array.from(train.filter((_, j) => j % folds !== f)),
    test: Int32Array.from(train.filter((_, j) => j % folds === f)),
  }));
  const groups = new Map<string, number[]>();
  predictions(inner).forEach((pr, f) =>
    inner[f].test.forEach((row, t) => {
      const g = groups.get(keys[row]) ?? [];
      g.push(Math.log(map.y[row]) - Math.log(pr[t]));
      groups.set(keys[row], g);
    }),
  );
  const are = LAMBDAS.map((lambda) => {
    let sum = 0;
    split.test.forEach((row, t) => {
      const g = groups.get(keys[row]) ?? [];
      const shift = g.length ? g.reduce((a, b) => a + b, 0) / g.length : 0;
      sum += Math.abs(pred[t] * Math.exp(lambda * shift) - map.y[row]) / map.y[row];
    });
    return sum / split.test.length;
  });
  are.forEach((a, k) => (totals[k] += a));
  console.log(`split ${i}: ${are.map((a) => (100 * a).toFixed(3)).join(" / ")} %`);
}
const means = totals.map((t) => (100 * t) / chosen.length);
console.log(`p = ${p}, ${chosen.length} splits, mean ARE at λ = ${LAMBDAS.join(" / ")}: ${means.map((m) => m.toFixed(3)).join(" / ")} %`);
console.log(`gp alone (λ = 0): ${means[0].toFixed(3)} %; best λ (chosen on the test points): ${Math.min(...means).toFixed(3)} %`);
