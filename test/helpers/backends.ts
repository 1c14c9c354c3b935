// The backends a test runs on: the one VARMAP_BACKEND selects, and for parity tests both when native is built.
import { getBackend, type KernelBackend } from "../../ts/backend/index.js";
import { loadNativeBackend } from "../../ts/backend/native.js";
import { WasmBackend } from "../../ts/backend/wasm.js";
import { mulberry32Uniform } from "../../ts/util/mulberry32.js";

export const selected: KernelBackend = getBackend();
const native = loadNativeBackend();
export const nativeBackend: KernelBackend | undefined = native.backend;
export const wasmBackend: KernelBackend = new WasmBackend();
export const nativeSkipReason = `native addon unavailable (${native.reason}): parity test skipped`;

/** Deterministic pseudo-random numbers for test data (mulberry32). */
export function rng(seed: number): () => number {
  return mulberry32Uniform(seed);
}

export function relErr(a: number, b: number): number {
  return Math.abs(a - b) / Math.max(Math.abs(a), Math.abs(b), 1e-300);
}
