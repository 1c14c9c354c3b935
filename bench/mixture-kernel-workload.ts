// The mixture kernel alone on a slice of the synthetic design (no job engine, one thread): the 30 models (6 families ×
// k = 1..5) of N evenly spaced configurations, one kernel call per family as fitMixtures makes them, timed in process
// CPU time per family. For quick before/after comparisons of a kernel change:
//   node dist/bench/mixture-kernel-workload.js [--configs 200] [--backend native|wasm] [--data design.csv]
//       [--families all|loglogistic,...] [--prior-strength 0] [--save fits.json] [--against fits.json]
// --families and --prior-strength as refit takes them (refit's defaults of issue #17: --families loglogistic
// --prior-strength 4; the papers' setup, on which the goals of issue #25 were set: all six, 0).
// --save writes every fit's log L, iterations and parameters; --against compares with such a file: the share of fits
// within 1e-6·n of it (log L no lower than the saved one minus 1e-6·n), bit-identical log L, the worst loss, and the
// BIC-chosen model changes. The design file is made by `varmap synth --design mixture` (mixture-workload.js does it).
import { readFileSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { getBackend } from "../ts/backend/index.js";
import { FAMILY_CODES, mixtureFit } from "../ts/backend/kernels/mixture.js";
import { FAMILY_NAMES } from "../ts/mixture/families.js";
import { flag } from "../ts/benchmarks/shared-dir.js";

const RESPONSE_COLUMN = "throughput_kbps",
  RUN_COLUMN = "run";
const KMAX = 5;
const data = flag("--data") ?? join(tmpdir(), "varmap-mixture-design.csv");
const wanted = Number(flag("--configs") ?? 200);
const backendName = flag("--backend") ?? "native";
const backend = getBackend(backendName);
const familiesFlag = flag("--families") ?? "all";
const families = familiesFlag === "all" ? [...FAMILY_NAMES] : (familiesFlag.split(",") as (typeof FAMILY_NAMES)[number][]);
for (const f of families) if (!FAMILY_NAMES.includes(f)) throw new Error(`unknown family ${f}`);
const priorStrength = Number(flag("--prior-strength") ?? 0);

// configurations: consecutive blocks of rows with the same values outside the run and response columns
const lines = readFileSync(data, "utf8").split(/\r?\n/).filter(Boolean);
const head = lines[0].split(",");
const yi = head.indexOf(RESPONSE_COLUMN);
const keep = head.map((c, i) => (c === RUN_COLUMN || c === RESPONSE_COLUMN ? -1 : i)).filter((i) => i >= 0);
const blocks: number[][] = [];
let last = "";
for (let r = 1; r < lines.length; r++) {
  const c = lines[r].split(",");
  const key = keep.map((i) => c[i]).join(",");
  if (key !== last) blocks.push([]);
  blocks[blocks.length - 1].push(Number(c[yi]));
  last = key;
}
const total = blocks.length;
const n = Math.min(total, Math.max(1, wanted));
const picked = Array.from({ length: n }, (_, i) => Math.floor((i * total) / n));
const offsets = new Int32Array(n + 1);
picked.forEach((b, i) => {
  offsets[i + 1] = offsets[i] + blocks[b].length;
});
const runs = new Float64Array(offsets[n]);
picked.forEach((b, i) => {
  runs.set(blocks[b], offsets[i]);
});
const configIds = Int32Array.from(picked);

interface Saved {
  configs: number;
  loglik: number[];
  iterations: number[];
  n: number[];
}
const saved: Saved = { configs: n, loglik: [], iterations: [], n: [] };
let cpuTotal = 0;
const perFamily: string[] = [];
for (const fam of families) {
  const models = Array.from({ length: KMAX }, (_, k) => [FAMILY_CODES[fam], k + 1] as const);
  const c0 = process.cpuUsage();
  const r = mixtureFit(backend, { runs, offsets, configIds, models, priorStrength });
  const cu = process.cpuUsage(c0);
  const cpu = (cu.user + cu.system) / 1e6;
  cpuTotal += cpu;
  perFamily.push(`${fam} ${cpu.toFixed(2)} s`);
  for (let c = 0; c < n; c++)
    for (let k = 0; k < KMAX; k++) {
      const i = c * KMAX + k;
      saved.loglik.push(r.loglik[i]);
      saved.iterations.push(r.iterations[i]);
      saved.n.push(offsets[c + 1] - offsets[c]);
    }
}
const iters = saved.iterations.reduce((s, v) => s + v, 0);
console.log(
  `${backendName}: ${n} configurations × ${families.length * KMAX} models (prior strength ${priorStrength}), CPU ${cpuTotal.toFixed(2)} s (${perFamily.join(", ")}); ` +
    `${iters} EM iterations of the kept fits; extrapolated to all ${total}: ${((cpuTotal * total) / n / 60).toFixed(2)} CPU-min (load average ${loadavg()[0].toFixed(1)})`,
);
const save = flag("--save");
if (save) writeFileSync(save, JSON.stringify(saved));
const against = flag("--against");
if (against) {
  const ref = JSON.parse(readFileSync(against, "utf8")) as Saved;
  if (ref.configs !== n) throw new Error(`${against} holds ${ref.configs} configurations, not ${n}`);
  let within = 0,
    same = 0,
    better = 0,
    worst = 0,
    choice = 0,
    refIters = 0;
  const nm = families.length * KMAX;
  for (let i = 0; i < ref.loglik.length; i++) {
    const loss = ref.loglik[i] - saved.loglik[i];
    const tol = 1e-6 * ref.n[i];
    if (loss <= tol) within++;
    if (loss < -tol) better++;
    if (Object.is(ref.loglik[i], saved.loglik[i])) same++;
    if (!(loss <= worst)) worst = Number.isNaN(loss) ? Infinity : loss;
    refIters += ref.iterations[i];
  }
  // BIC choice per configuration (families are stored family-major: index f*n*KMAX + c*KMAX + k)
  for (let c = 0; c < n; c++) {
    let ba = -1,
      bb = -1,
      va = Infinity,
      vb = Infinity;
    for (let m = 0; m < nm; m++) {
      const f = Math.floor(m / KMAX),
        k = m % KMAX;
      const i = f * n * KMAX + c * KMAX + k;
      const pen = (3 * (k + 1) - 1) * Math.log(ref.n[i]);
      const a = -2 * ref.loglik[i] + pen,
        b = -2 * saved.loglik[i] + pen;
      if (a < va) (va = a), (ba = m);
      if (b < vb) (vb = b), (bb = m);
    }
    if (ba !== bb) choice++;
  }
  const m = ref.loglik.length;
  console.log(
    `against ${against}: ${within}/${m} (${((100 * within) / m).toFixed(2)}%) within 1e-6 n, ${better} better by more, ${same} bit-identical log L; ` +
      `worst loss ${worst.toPrecision(3)}; BIC choice changed in ${choice} of ${n} configurations; iterations ${iters} vs ${refIters}`,
  );
}
