// The GEV kernel over a whole design: 22,734 configurations × 150 runs (seed 001's size), synthetic GEV samples
// drawn deterministically (counterRng keyed by seed and configuration) with shapes ξ in [−0.3, 0.4], through one
// batched kernel call per backend on this thread (one core).
//   node dist/bench/gev-workload.js [--configs 22734] [--runs 150] [--repeats 3] [--backend native|wasm|both]
// Reports the best of the repeats (process CPU time of the call), fits per second and the status counts.
import { loadNativeBackend } from "../ts/backend/native.js";
import { WasmBackend } from "../ts/backend/wasm.js";
import type { KernelBackend } from "../ts/backend/kernel.js";
import { gevFitBatch } from "../ts/backend/kernels/gev.js";
import { counterRng } from "../ts/data/random.js";
import { gevQuantile } from "../ts/evt/gev.js";
import { flag } from "../ts/benchmarks/shared-dir.js";

const configs = Number(flag("--configs") ?? 22734);
const runs = Number(flag("--runs") ?? 150);
const repeats = Number(flag("--repeats") ?? 3);
const which = flag("--backend") ?? "both";

// Configuration c: GEV(μ, σ, ξ) with μ ∈ [5, 500], σ = μ·[0.01, 0.2], ξ ∈ [−0.3, 0.4], all from its own stream.
const x = new Float64Array(configs * runs);
const offsets = new Int32Array(configs + 1);
for (let c = 0; c < configs; c++) {
  const r = counterRng(1, "gev-workload", c);
  const loc = 5 + 495 * r.next(),
    scale = loc * (0.01 + 0.19 * r.next()),
    shape = -0.3 + 0.7 * r.next();
  for (let i = 0; i < runs; i++) x[c * runs + i] = gevQuantile(1 - r.next(), { loc, scale, shape });
  offsets[c + 1] = (c + 1) * runs;
}

function measure(backend: KernelBackend): void {
  let best = Infinity,
    wall = Infinity;
  let result = gevFitBatch(backend, x, offsets);
  for (let k = 0; k < repeats; k++) {
    const c0 = process.cpuUsage(),
      w0 = performance.now();
    result = gevFitBatch(backend, x, offsets);
    const cpu = process.cpuUsage(c0);
    best = Math.min(best, (cpu.user + cpu.system) / 1e6);
    wall = Math.min(wall, (performance.now() - w0) / 1e3);
  }
  const counts: Record<number, number> = {};
  let iters = 0;
  for (let c = 0; c < configs; c++) {
    counts[result.status[c]] = (counts[result.status[c]] ?? 0) + 1;
    iters += result.iterations[c];
  }
  process.stdout.write(
    JSON.stringify({
      backend: backend.name,
      configs,
      runs,
      cpu_seconds: +best.toFixed(3),
      wall_seconds: +wall.toFixed(3),
      fits_per_second: Math.round(configs / best),
      mean_iterations: +(iters / configs).toFixed(2),
      status_counts: counts,
    }) + "\n",
  );
}

const native = loadNativeBackend();
if (which !== "wasm") {
  if (native.backend) measure(native.backend);
  else process.stderr.write(`native backend unavailable: ${native.reason}\n`);
}
if (which !== "native") measure(new WasmBackend());
