// How low the mean ARE of the fread map's sd can go (issue 16's bars): each test point's sd is itself an estimate
// from its 40 runs, so even an oracle that knew every configuration's population sd scores above zero. Estimated
// by the bootstrap: for each configuration, B resamples of its runs (with replacement); in that world the population
// sd is the runs' own sd with 1/n, and each resample's sd (with 1/(n − 1), as the map computes it) is a test truth.
// Printed per p, weighted as gp-workload weights gp's ARE (mean over each golden split's test points, then over splits):
//   oracle              predicts the population sd
//   oracle, best c      predicts c × the population sd, with the one constant c that scores best (an upper bound
//                       on what any rescaling of a perfect prediction gains)
//   normal approximation  E|e^ε − 1| with ε ~ N(0, v), v the jackknife variance of log sd (what gp's noise model sees)
//   node dist/bench/studies/are-floor.js [--p 0.1,0.5,0.9] [--reps 20] [--boot 1000] [--shared DIR]
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { splitRows, type Split } from "../../ts/cv/splits.js";
import { counterRng } from "../../ts/data/random.js";
import { loadDataset } from "../../ts/data/load.js";
import { flag, sharedDir } from "../../ts/benchmarks/shared-dir.js";

const ps = (flag("--p") ?? "0.1,0.5,0.9").split(",").map(Number);
const reps = Number(flag("--reps") ?? 20);
const B = Number(flag("--boot") ?? 1000);
const shared = sharedDir();
const { table, maps } = await loadDataset(join(shared, "data", "moana-cfq-noop-fread.csv"), {
  preset: "moana",
  logInputs: ["threads", "fsize_kb", "rsize_kb"],
  logResponse: true,
});
const map = maps[0];
const C = [0.96, 0.97, 0.98, 0.99, 1, 1.01, 1.02];

// Per configuration: the population sd of the bootstrap world and B resampled sds (n − 1 denominator).
const population = new Float64Array(table.count);
const resampled = new Float64Array(table.count * B);
for (let c = 0; c < table.count; c++) {
  const runs = table.runs.subarray(table.offsets[c], table.offsets[c + 1]);
  const n = runs.length;
  let mean = 0;
  for (const x of runs) mean += x / n;
  let ss = 0;
  for (const x of runs) ss += (x - mean) ** 2;
  population[c] = Math.sqrt(ss / n);
  const rng = counterRng("are-floor", c);
  for (let b = 0; b < B; b++) {
    let s1 = 0,
      s2 = 0;
    const draw = new Float64Array(n);
    for (let i = 0; i < n; i++) draw[i] = runs[Math.floor(rng.next() * n)];
    for (const x of draw) s1 += x / n;
    for (const x of draw) s2 += (x - s1) ** 2;
    resampled[c * B + b] = Math.sqrt(s2 / (n - 1));
  }
}
/** Expected ARE of predicting k × population[c] against the resampled truths. */
function oracleAre(c: number, k: number): number {
  let sum = 0;
  for (let b = 0; b < B; b++) {
    const t = resampled[c * B + b];
    sum += Math.abs(k * population[c] - t) / t;
  }
  return sum / B;
}
/** E|e^ε − 1|, ε ~ N(0, v), by a fixed normal sample (the same for every configuration). */
const z = (() => {
  const r = counterRng("are-floor", "normal");
  return Float64Array.from({ length: 4000 }, () => r.normal());
})();
function normalAre(v: number): number {
  let sum = 0;
  for (const e of z) sum += Math.abs(Math.exp(e * Math.sqrt(v)) - 1);
  return sum / z.length;
}

const file = join(shared, "golden", "moana-splits.json");
const splits: Split[] = JSON.parse(readFileSync(file, "utf8")).splits;
console.log(`fread map: ${map.rows} configurations, ${B} bootstrap resamples each; mean ARE % over the golden test points`);
for (const p of ps) {
  const tests = splits
    .map((s, index) => ({ s, index }))
    .filter(({ s }) => s.p === p && s.rep < reps)
    .map(({ s, index }) => Array.from(splitRows(s, map.ids, { file, index }).test, (r) => Number(map.ids[r])));
  const splitMean = (f: (c: number) => number) => tests.reduce((a, t) => a + t.reduce((b, c) => b + f(c), 0) / t.length, 0) / tests.length;
  const byC = C.map((k) => splitMean((c) => oracleAre(c, k)));
  const best = byC.indexOf(Math.min(...byC));
  const normal = splitMean((c) => normalAre(map.yVar![map.ids.indexOf(c)] / map.y[map.ids.indexOf(c)] ** 2));
  console.log(
    `p=${p}: oracle ${(100 * byC[C.indexOf(1)]).toFixed(2)} %; oracle, best c (${C[best]}) ${(100 * byC[best]).toFixed(2)} %; ` +
      `normal approximation from the jackknife variances ${(100 * normal).toFixed(2)} %`,
  );
}
