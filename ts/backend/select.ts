// Backend selection: VARMAP_BACKEND=auto|native|wasm (or the `backend` option), auto preferring native.
import { isMainThread } from "node:worker_threads";
import { VarmapError } from "../errors.js";
import { loadNativeBackend, type NativeLoad } from "./native.js";
import { WasmBackend } from "./wasm.js";
import type { KernelBackend } from "./kernel.js";

export type BackendChoice = "auto" | "native" | "wasm";

export interface BackendInfo {
  backend: KernelBackend;
  requested: BackendChoice;
  /** Why native is not in use, when it is not. */
  nativeUnavailable?: string;
}

export function requestedBackend(choice?: string): BackendChoice {
  const c = (choice ?? process.env.VARMAP_BACKEND ?? "auto").trim().toLowerCase() || "auto";
  if (c !== "auto" && c !== "native" && c !== "wasm")
    throw new VarmapError("E_BACKEND", `unknown backend '${c}'`, {
      remedy: "set the environment variable VARMAP_BACKEND to auto, native or wasm (commands take no backend flag; the API takes a `backend` option)",
    });
  return c;
}

/**
 * Resolves a requested backend with the given native loader: auto prefers native and falls back to wasm with
 * the reason; native throws when the addon is unavailable; wasm never touches the addon.
 */
export function resolveBackend(requested: BackendChoice, loadNative: () => NativeLoad = loadNativeBackend): BackendInfo {
  if (requested === "wasm") return { backend: new WasmBackend(), requested, nativeUnavailable: "VARMAP_BACKEND=wasm was requested" };
  const native = loadNative();
  if (native.backend) return { backend: native.backend, requested };
  if (requested === "native")
    throw new VarmapError("E_BACKEND", `the native backend was requested but ${native.reason}`, {
      remedy: "run `npm run build:native` (needs a C++17 compiler and cmake), or use VARMAP_BACKEND=wasm",
    });
  return { backend: new WasmBackend(), requested, nativeUnavailable: native.reason };
}

/** A cached selector that notes a fallback to wasm once (on stderr by default). */
export function createSelector(loadNative: () => NativeLoad = loadNativeBackend, note: (line: string) => void = (l) => process.stderr.write(l)) {
  const cache = new Map<BackendChoice, BackendInfo>();
  let noted = false;
  return (choice?: string): BackendInfo => {
    const requested = requestedBackend(choice);
    let info = cache.get(requested);
    if (!info) {
      info = resolveBackend(requested, loadNative);
      cache.set(requested, info);
      // Once per process, not per worker thread: the main thread notes it (the pool selects there before starting workers).
      if (requested === "auto" && info.nativeUnavailable && !noted && !process.env.VARMAP_QUIET && isMainThread) {
        noted = true;
        note(`varmap: using the WebAssembly backend because ${info.nativeUnavailable}\n`);
      }
    }
    return info;
  };
}

/** The backend to use, with the reason native is not used when it is not. Cached per choice. */
export const backendInfo: (choice?: string) => BackendInfo = createSelector();

export function getBackend(choice?: string): KernelBackend {
  return backendInfo(choice).backend;
}
