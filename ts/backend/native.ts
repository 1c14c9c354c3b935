// The native backend: the C++ addon built by cmake-js into build/Release/varmap.node.
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { packageRoot } from "../package-root.js";
import { Status } from "./status.js";
import type { KernelArg, KernelBackend, KernelSpec } from "./kernel.js";

type AddonFn = (...args: KernelArg[]) => number;

export function nativeAddonPath(): string {
  return join(packageRoot(), "build", "Release", "varmap.node");
}

export interface NativeLoad {
  backend?: KernelBackend;
  /** Why the native backend cannot be used, when it cannot. */
  reason?: string;
}

/** Loads the addon (from `path`, the built one by default), or returns why it cannot be used. */
export function loadNativeBackend(path = nativeAddonPath()): NativeLoad {
  if (!existsSync(path)) {
    let why = "the native addon was not built";
    try {
      const s = JSON.parse(readFileSync(join(packageRoot(), "dist", "native-build.json"), "utf8"));
      if (!s.ok && s.error) why += ` (${s.error})`;
    } catch {
      /* no build record: never attempted */
    }
    return { reason: `${why}: ${path} is missing` };
  }
  try {
    const addon = createRequire(import.meta.url)(path) as Record<string, AddonFn>;
    return { backend: new NativeBackend(addon) };
  } catch (e) {
    return { reason: `the native addon failed to load: ${(e as Error).message}` };
  }
}

class NativeBackend implements KernelBackend {
  readonly name = "native" as const;
  constructor(private readonly addon: Record<string, AddonFn>) {}

  run(spec: KernelSpec, args: readonly KernelArg[]): number {
    const fn = this.addon[spec.name];
    if (typeof fn !== "function") return Status.INTERNAL;
    return fn(...args);
  }
}
