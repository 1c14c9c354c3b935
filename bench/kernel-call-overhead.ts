// What the single argument check costs per kernel call (issue 39 item 5): `node dist/bench/kernel-call-overhead.js
// [--calls N] [--old-addon PATH]`. Times a tiny sqdist (5 rows, 1 query: the call overhead dominates) and a
// typical batch (1,000 × 8 rows, 100 queries) through NativeBackend.run (the addon calls checkKernelArgs back before
// the binding), through the wasm backend, and checkKernelArgs alone. --old-addon PATH: also the same calls straight
// into an addon built before the check (its bindings checked lengths in C++), for the difference.
import { createRequire } from "node:module";
import { checkKernelArgs, type KernelArg, type KernelBackend } from "../ts/backend/kernel.js";
import { SQDIST } from "../ts/backend/kernels/distances.js";
import { loadNativeBackend } from "../ts/backend/native.js";
import { WasmBackend } from "../ts/backend/wasm.js";
import { flag } from "../ts/benchmarks/shared-dir.js";
import { mulberry32Uniform } from "../ts/util/mulberry32.js";

const calls = Number(flag("--calls") ?? "200000");
const oldAddon = flag("--old-addon");

function random(length: number, seed: number): Float64Array {
  const u = mulberry32Uniform(seed);
  return Float64Array.from({ length }, () => u());
}
const tiny: KernelArg[] = [random(10, 1), 5, random(2, 2), 1, 2, new Float64Array(5)];
const batch: KernelArg[] = [random(8000, 3), 1000, random(800, 4), 100, 8, new Float64Array(100_000)];

/** Wall and CPU nanoseconds per call of f, after a warm-up. */
function time(label: string, n: number, f: () => unknown): void {
  for (let i = 0; i < Math.min(n, 20_000); i++) f();
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) f();
  const wall = Number(process.hrtime.bigint() - t0) / n;
  const c = process.cpuUsage(c0);
  const cpu = ((c.user + c.system) * 1000) / n;
  console.log(`${label.padEnd(58)} ${wall.toFixed(0).padStart(8)} ns wall ${cpu.toFixed(0).padStart(8)} ns CPU per call`);
}

const native = loadNativeBackend().backend;
const wasm: KernelBackend = new WasmBackend();
console.log(`kernel call overhead, ${calls} tiny calls and ${calls / 1000} batch calls each (the machine may be shared: compare CPU)`);
time("checkKernelArgs(SQDIST) alone", calls, () => checkKernelArgs(SQDIST, tiny));
if (native) {
  time("native: sqdist 5 rows × 1 query (checked)", calls, () => native.run(SQDIST, tiny));
  time("native: sqdist 1,000 rows × 100 queries, d = 8 (checked)", calls / 1000, () => native.run(SQDIST, batch));
}
if (oldAddon) {
  const old = createRequire(import.meta.url)(oldAddon) as Record<string, (...a: KernelArg[]) => number>;
  time("old addon: sqdist 5 rows × 1 query (C++ length checks)", calls, () => old.sqdist(...tiny));
  time("old addon: sqdist 1,000 rows × 100 queries (C++ checks)", calls / 1000, () => old.sqdist(...batch));
}
time("wasm: sqdist 5 rows × 1 query (checked)", calls, () => wasm.run(SQDIST, tiny));
