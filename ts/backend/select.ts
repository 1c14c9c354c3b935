// Backend selection: VARMAP_BACKEND=auto|native|wasm (or the `backend` option), auto preferring native.
import { VarmapError } from "../errors.js";
import { loadNativeBackend } from "./native.js";
import { WasmBackend } from "./wasm.js";
import type { KernelBackend } from "./kernel.js";

export type BackendChoice = "auto" | "native" | "wasm";

export interface BackendInfo {
  backend: KernelBackend;
  requested: BackendChoice;
  /** Why native is not in use, when it is not. */
  nativeUnavailable?: string;
}

const cache = new Map<BackendChoice, BackendInfo>();
let warnedFallback = false;

export function requestedBackend(choice?: string): BackendChoice {
  const c = (choice ?? process.env.VARMAP_BACKEND ?? "auto").trim().toLowerCase() || "auto";
  if (c !== "auto" && c !== "native" && c !== "wasm")
    throw new VarmapError("E_BACKEND", `unknown backend '${c}'`, { remedy: "set VARMAP_BACKEND (or --backend) to auto, native or wasm" });
  return c;
}

/** The backend to use, with the reason native is not used when it is not. Cached per choice. */
export function backendInfo(choice?: string): BackendInfo {
  const requested = requestedBackend(choice);
  const hit = cache.get(requested);
  if (hit) return hit;
  let info: BackendInfo;
  if (requested === "wasm") {
    info = { backend: new WasmBackend(), requested, nativeUnavailable: "VARMAP_BACKEND=wasm was requested" };
  } else {
    const native = loadNativeBackend();
    if (native.backend) info = { backend: native.backend, requested };
    else if (requested === "native")
      throw new VarmapError("E_BACKEND", `the native backend was requested but ${native.reason}`, {
        remedy: "run `npm run build:native` (needs a C++17 compiler and cmake), or use VARMAP_BACKEND=wasm",
      });
    else {
      info = { backend: new WasmBackend(), requested, nativeUnavailable: native.reason };
      if (!warnedFallback && !process.env.VARMAP_QUIET) {
        warnedFallback = true;
        process.stderr.write(`varmap: using the WebAssembly backend because ${native.reason}\n`);
      }
    }
  }
  cache.set(requested, info);
  return info;
}

export function getBackend(choice?: string): KernelBackend {
  return backendInfo(choice).backend;
}
