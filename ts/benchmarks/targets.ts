// The backends the benchmarks time: apart from the runner so `varmap` starts without loading benchmark.js.
export type Target = "native" | "wasm" | "ts";
export const TARGETS: readonly Target[] = ["native", "wasm", "ts"];
