// The Delaunay kernel on cross-validation splits of one synthetic moana map (the Table-2 workload's inner loop):
// CPU time of delaunayLocate over `--reps` divisions per p = 0.1…0.9, and a checksum of every simplex and weight
// (bit patterns), so a faster kernel can be shown to give the same answers.
//   node dist/bench/delaunay-splits.js [--backend native|wasm] [--reps 10] [--repeats 3] [--data file]
import { createHash } from "node:crypto";
import { loadavg } from "node:os";
import { getBackend } from "../ts/backend/index.js";
import { delaunayLocate } from "../ts/backend/kernels/delaunay.js";
import { divisionStream, randomDivision } from "../ts/cv/divisions.js";
import { mapInputScaling } from "../ts/cv/split.js";
import { loadDataset } from "../ts/data/load.js";
import { matrix, takeRows } from "../ts/predict/matrix.js";
import { InputScaler } from "../ts/predict/scaling.js";
import { flag } from "../ts/benchmarks/shared-dir.js";
import { table2Dataset } from "./table2-data.js";

const backend = getBackend((flag("--backend") as "native" | "wasm" | undefined) ?? "auto");
const reps = Number(flag("--reps") ?? 10);
const repeats = Number(flag("--repeats") ?? 3);
const ds = await loadDataset(flag("--data") ?? table2Dataset(), { preset: "moana", stat: "sd" });
const m = ds.maps[0];
const X = matrix(m.X, m.rows, m.inputNames.length);
const scaler = InputScaler.fit(X, mapInputScaling(m.normalization));
const splits: { A: Float64Array; B: Float64Array }[] = [];
for (const p of [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9])
  for (let rep = 0; rep < reps; rep++) {
    const { train, test } = randomDivision(m.rows, p, divisionStream("1", "bench", p, rep));
    splits.push({ A: scaler.transform(takeRows(X, train)).data, B: scaler.transform(takeRows(X, test)).data });
  }
const times: number[] = [];
let sum = "";
for (let r = 0; r < repeats; r++) {
  const h = createHash("sha256");
  const c0 = process.cpuUsage();
  for (const s of splits) {
    const loc = delaunayLocate(backend, s.A, s.B, X.cols);
    h.update(new Uint8Array(loc.simplices.buffer));
    h.update(new Uint8Array(loc.weights.buffer));
    h.update(new Uint8Array(loc.status.buffer));
    h.update(new Uint8Array(loc.rnorm.buffer));
  }
  const c = process.cpuUsage(c0);
  times.push((c.user + c.system) / 1e6);
  sum = h.digest("hex").slice(0, 16);
}
const best = Math.min(...times);
process.stdout.write(
  JSON.stringify({
    backend: backend.name,
    splits: splits.length,
    cpuSeconds: best,
    msPerSplit: (1000 * best) / splits.length,
    checksum: sum,
    loadavg: loadavg(),
  }) + "\n",
);
