// The native backend: the C++ addon built by cmake-js into build/Release/varmap.node.
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { packageRoot } from "../package-root.js";
import { Status } from "./status.js";
import { checkKernelArgs, type KernelArg, type KernelBackend, type KernelSpec } from "./kernel.js";

type AddonFn = (...args: KernelArg[]) => number;
interface Addon {
  /** Installs the argument check every binding calls back before running (native/binding/registry.h). */
  setArgumentCheck?(check: (name: string, spec: unknown, ...args: unknown[]) => boolean): void;
  [name: string]: unknown;
}

/** The check the addon calls: `spec` is the `this` of the call, a KernelSpec when it comes from NativeBackend.run. */
function argumentCheck(name: string, spec: unknown, ...args: unknown[]): boolean {
  const s = spec as KernelSpec | undefined;
  return typeof s === "object" && s !== null && s.name === name && Array.isArray(s.args) && checkKernelArgs(s, args);
}

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
    const addon = createRequire(import.meta.url)(path) as Addon;
    if (typeof addon.setArgumentCheck !== "function") return { reason: `the native addon ${path} is out of date (no argument check): rebuild it` };
    addon.setArgumentCheck(argumentCheck);
    return { backend: new NativeBackend(addon) };
  } catch (e) {
    return { reason: `the native addon failed to load: ${(e as Error).message}` };
  }
}

class NativeBackend implements KernelBackend {
  readonly name = "native" as const;
  constructor(private readonly addon: Addon) {}

  run(spec: KernelSpec, args: readonly KernelArg[]): number {
    const fn = this.addon[spec.name];
    if (typeof fn !== "function" || spec.name === "setArgumentCheck") return Status.INTERNAL;
    // The binding calls checkKernelArgs(spec, args) back (argumentCheck above) before the kernel runs.
    return (fn as AddonFn).apply(spec, args as KernelArg[]);
  }
}
