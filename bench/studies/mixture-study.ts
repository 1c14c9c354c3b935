// Mixture study: speed on the 274 IOzone configurations (all 30 models), best-k counts beside mclust's, and the
// synthetic recovery / BIC study at n = 100,000 with default iterations.
//   node dist/bench/studies/mixture-study.js [--backend native|wasm] [--reps 3] [--workers N] [--only real|synthetic] [--shared DIR]
// Reports wall and CPU time (median over --reps); on a busy machine CPU time is the better single-thread figure.
// --workers N also times the same fits on N worker threads through fitMixturesParallel (wall time from starting
// the threads to the last result) and checks every log L equals the single-thread one.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { getBackend } from "../../ts/backend/index.js";
import { fitMixtures } from "../../ts/mixture/fit.js";
import { fitMixturesParallel } from "../../ts/jobs/mixture.js";
import { Mixture } from "../../ts/mixture/model.js";
import { summarizeFits, formatTables } from "../../ts/mixture/tables.js";
import { ONE_COMPONENT_CASES, RECOVERY_CASES, THREE_COMPONENT_CASES } from "../../test/fixtures/mixture-cases.js";
import { flag, sharedDir } from "../../ts/benchmarks/shared-dir.js";
import { timed } from "../figures.js";

const arg = flag;
const backend = getBackend(arg("--backend"));
const reps = Number(arg("--reps") ?? 3);
const only = arg("--only");
const shared = sharedDir();
const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];

function readIozone(): { runs: Float64Array; offsets: Int32Array } {
  const lines = readFileSync(join(shared, "data", "iozone-2018.csv"), "utf8")
    .trim()
    .split(/\r?\n/)
    .slice(1);
  const groups = new Map<string, number[]>();
  for (const l of lines) {
    const c = l.split(",");
    const key = c.slice(0, 7).join(",");
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key)!.push(Number(c[8]));
  }
  const offsets = [0];
  const all: number[] = [];
  for (const g of groups.values()) {
    all.push(...g);
    offsets.push(all.length);
  }
  return { runs: Float64Array.from(all), offsets: Int32Array.from(offsets) };
}

/** All 30 models of every configuration on `workers` threads (varmap mixture's path); wall seconds and the log L per row. */
async function fitOnWorkers(runs: Float64Array, offsets: Int32Array, workers: number): Promise<{ wall: number; loglik: Float64Array }> {
  process.env.VARMAP_BACKEND = backend.name; // the workers select their backend from it
  const t0 = performance.now();
  const fit = await fitMixturesParallel(runs, offsets, { workers });
  return { wall: (performance.now() - t0) / 1000, loglik: Float64Array.from(fit.rows, (r) => r.loglik) };
}

if (only !== "synthetic") {
  const { runs, offsets } = readIozone();
  const nconf = offsets.length - 1;
  const walls: number[] = [],
    cpus: number[] = [];
  let last: ReturnType<typeof fitMixtures> | undefined;
  for (let r = 0; r < reps; r++) {
    const t = timed(() => fitMixtures(runs, offsets, { backend }));
    walls.push(t.wall);
    cpus.push(t.cpu);
    last = t.value;
  }
  console.log(
    `[${backend.name}] all 30 models × ${nconf} IOzone configurations: median wall ${median(walls).toFixed(2)} s, CPU ${median(cpus).toFixed(2)} s (single thread); reps ${reps}`,
  );
  const workers = Number(arg("--workers") ?? 0);
  if (workers > 0) {
    const pw: number[] = [],
      pc: number[] = [];
    let same = true;
    for (let r = 0; r < reps; r++) {
      const c0 = process.cpuUsage();
      const p = await fitOnWorkers(runs, offsets, workers);
      const c = process.cpuUsage(c0);
      pw.push(p.wall);
      pc.push((c.user + c.system) / 1e6);
      last!.rows.forEach((row, i) => {
        if (!Object.is(row.loglik, p.loglik[i])) same = false;
      });
    }
    console.log(
      `[${backend.name}] the same on ${workers} worker threads: median wall ${median(pw).toFixed(2)} s, CPU ${median(pc).toFixed(2)} s (fitMixturesParallel, as varmap mixture --workers; threads started inside the timing); log L ${same ? "identical to" : "DIFFERENT from"} the single-thread fits`,
    );
  }
  const s = summarizeFits(last!, ["normal", "gamma", "weibull", "lognormal", "loglogistic", "frechet"], 5);
  console.log(formatTables(s));
  console.log(`best k within normal (k=1..5): varmap ${s.bestKWithinFamily.normal.join("/")}  vs mclust 76/75/51/33/39`);
  // (the synthetic 22,734 × 150 design is timed through the bulk engine by bench/mixture-workload.ts)
}

if (only !== "real") {
  // The same cases as the test (bench/mixture-cases.ts), at n = 100,000 with default EM settings.
  const all = [...RECOVERY_CASES, ...THREE_COMPONENT_CASES, ...ONE_COMPONENT_CASES];
  let right = 0;
  let seed = 77;
  for (const c of all) {
    let s = seed++ >>> 0;
    const next = () => {
      s = (s + 0x6d2b79f5) >>> 0;
      let t = Math.imul(s ^ (s >>> 15), s | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return (((t ^ (t >>> 14)) >>> 0) + 0.5) / 4294967296;
    };
    const N = 100_000;
    const x = new Mixture(c.family, c.w, c.a, c.b).sample(N, next);
    const t = timed(() => fitMixtures(x, Int32Array.from([0, N]), { families: [c.family], kmax: c.w.length + 1, backend, starts: "partitions", restarts: 2 }));
    const best = t.value.rows.find((r) => r.best)!;
    if (best.k === c.w.length) right++;
    const fitTrue = t.value.rows.find((r) => r.k === c.w.length)!;
    console.log(
      `${c.family} true k=${c.w.length}: BIC k=${best.k}; fit of true k ${JSON.stringify(fitTrue.params, (_, v) => (typeof v === "number" ? Number(v.toPrecision(5)) : v))} (${t.cpu.toFixed(1)} CPU-s)`,
    );
  }
  console.log(`synthetic n = 100,000: BIC chose the true k in ${right}/${all.length} cases`);
}
