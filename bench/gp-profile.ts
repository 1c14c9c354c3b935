// Where a gp fit's time goes (issue 46): one fit on a fread golden split (default p = 0.9, ≈ 778 training points,
// 4 inputs), with the search as it was before issue 46 (every start on a 400-point search set) and as it is (the
// default screening), printing starts, likelihood evaluations and BFGS iterations per stage and CPU; then one
// likelihood evaluation at n = 100, 300 and 400 without and with its gradient (the gradient's share: L⁻¹, the
// inverse's Gram product and the derivative sums).
//   node dist/bench/gp-profile.js [--p 0.9] [--split 0] [--repeats 20]
import { gpNll } from "../ts/backend/kernels/gp.js";
import { getBackend } from "../ts/backend/index.js";
import { mapInputScaling } from "../ts/cv/split.js";
import { flag } from "../ts/benchmarks/shared-dir.js";
import { Gp } from "../ts/predict/gp.js";
import { matrix, takeRows } from "../ts/predict/matrix.js";
import { InputScaler } from "../ts/predict/scaling.js";
import { freadGolden } from "./fread-golden.js";

const p = Number(flag("--p") ?? 0.9);
const split = Number(flag("--split") ?? 0);
const repeats = Number(flag("--repeats") ?? 20);
const fread = await freadGolden(["threads", "fsize_kb", "rsize_kb"]);
const map = fread.map;
const rows = fread.splitsAt(p, split + 1)[split];
const X = matrix(map.X, map.rows, map.cols);
const Xt = takeRows(X, rows.train);
const yt = Float64Array.from(rows.train, (r) => map.y[r]);
const vt = map.yVar ? Float64Array.from(rows.train, (r) => map.yVar![r]) : undefined;
const inputs = mapInputScaling(map.meta.normalization);
const cpu = (fn: () => void): number => {
  const c0 = process.cpuUsage();
  fn();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1e6;
};
console.log(`p = ${p}, split ${split}: ${rows.train.length} training points, ${map.cols} inputs`);
for (const [label, extra] of [
  ["every start on a 400-point search set (before issue 46)", { screenPoints: 100000, hyperPoints: 400 }],
  ["screened (now)", {}],
] as const) {
  const gp = new Gp({ inputs, response: "log", ...extra });
  const t = cpu(() => gp.fit(Xt, yt, vt));
  const h = gp.hyperparametersFitted;
  console.log(
    `${label}: ${t.toFixed(3)} s CPU; nll ${h.nll.toFixed(3)}; ℓ ${h.lengthScales.map((x) => x.toPrecision(3)).join(", ")}; g ${h.nugget.toPrecision(3)}`,
  );
  for (const s of gp.lastSearch!.stages)
    console.log(`  stage: ${s.points} points, ${s.starts} starts, ${s.evaluations} likelihood evaluations, ${s.iterations} BFGS iterations`);
}
// One evaluation at the screening, search and old search sizes, without and with the gradient.
const backend = getBackend();
const d = map.cols;
const Z = InputScaler.fit(Xt, inputs).transform(Xt);
for (const n of [100, 300, 400]) {
  const Xs = Z.data.slice(0, n * d);
  const ys = Float64Array.from(yt.slice(0, n), Math.log);
  const H = new Float64Array(n * (d + 1));
  for (let i = 0; i < n; i++) {
    H[i * (d + 1)] = 1;
    for (let k = 0; k < d; k++) H[i * (d + 1) + 1 + k] = Xs[i * d + k];
  }
  const theta = Float64Array.from([...Array(d).fill(Math.log(0.3)), Math.log(0.01)]);
  const f = cpu(() => {
    for (let r = 0; r < repeats; r++) gpNll(backend, Xs, ys, H, n, d, d + 1, "matern32", theta, false);
  });
  const fg = cpu(() => {
    for (let r = 0; r < repeats; r++) gpNll(backend, Xs, ys, H, n, d, d + 1, "matern32", theta, true);
  });
  console.log(
    `one likelihood evaluation at n = ${n}: ${((1000 * f) / repeats).toFixed(2)} ms without the gradient (matrix, Cholesky, solves), ${((1000 * fg) / repeats).toFixed(2)} ms with it: the gradient is ${((100 * (fg - f)) / fg).toFixed(0)} %`,
  );
}
