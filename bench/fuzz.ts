// A long fuzz run: `node dist/bench/fuzz.js [--minutes N] [--cases C] [--seed S] [--backends native,wasm]` (stops
// at N minutes or after C predictor cases, whichever comes first). Runs predictor and
// mixture cases (bench/fuzz-cases.ts) in batches until the time is up and prints the case counts and the failures
// by target and class; the first few failures of each class with the case index that reproduces them.
import { FUZZ_METHODS, fuzzMixtures, fuzzPredictors, type FuzzFailure } from "../test/fixtures/fuzz-cases.js";
import { loadNativeBackend } from "../ts/backend/native.js";
import { WasmBackend } from "../ts/backend/wasm.js";
import type { KernelBackend } from "../ts/backend/kernel.js";
import { flag } from "../ts/benchmarks/shared-dir.js";

const minutes = Number(flag("--minutes") ?? "1");
const maxCases = Number(flag("--cases") ?? "Infinity");
const seed = Number(flag("--seed") ?? "1");
const wanted = (flag("--backends") ?? "native,wasm").split(",");
const backends: KernelBackend[] = [];
const native = loadNativeBackend();
if (wanted.includes("native") && native.backend) backends.push(native.backend);
if (wanted.includes("wasm")) backends.push(new WasmBackend());

const end = Date.now() + minutes * 60_000;
let predictCases = 0;
let mixtureCases = 0;
const failures: FuzzFailure[] = [];
while (Date.now() < end && predictCases < maxCases) {
  failures.push(...fuzzPredictors(seed, predictCases, predictCases + 200, backends));
  predictCases += 200;
  failures.push(...fuzzMixtures(seed, mixtureCases, mixtureCases + 20, backends));
  mixtureCases += 20;
}
const counts = new Map<string, number>();
for (const f of failures)
  counts.set(
    `${f.target} ${f.kind}${f.response === "log" ? " (log response)" : ""}`,
    (counts.get(`${f.target} ${f.kind}${f.response === "log" ? " (log response)" : ""}`) ?? 0) + 1,
  );
console.log(
  `fuzz, seed ${seed}, backends ${backends.map((b) => b.name).join("+")}, ${minutes} min: ${predictCases} predictor cases (× ${FUZZ_METHODS.length} methods × ${backends.length} backends), ${mixtureCases} mixture cases`,
);
console.log(`crashes: 0 (the process is alive); failures: ${failures.length}`);
for (const [k, n] of [...counts].sort()) console.log(`  ${k}: ${n}`);
const shown = new Set<string>();
for (const f of failures) {
  const k = `${f.target} ${f.kind}`;
  if (shown.has(k)) continue;
  shown.add(k);
  console.log(`  e.g. case ${f.index}: ${f.target} ${f.kind}: ${f.problem}`);
}
