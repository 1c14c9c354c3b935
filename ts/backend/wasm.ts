// The WebAssembly backend: one module per kernel file, compiled by wasm/build.mjs into dist/wasm/<module>.wasm.
// Arrays are copied into the module's linear memory: allocate every buffer first, then make views (memory
// growth detaches earlier views), call with raw pointers, copy outputs back, free.
import { readFileSync, existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { packageRoot } from "../package-root.js";
import { VarmapError } from "../errors.js";
import { Status } from "./status.js";
import { checkKernelArgs, type KernelArg, type KernelBackend, type KernelSpec } from "./kernel.js";

interface WasmExports {
  memory: WebAssembly.Memory;
  alloc(bytes: number): number;
  free(ptr: number): void;
  [fn: string]: unknown;
}

/** The most bytes one argument may take in a module's 32-bit linear memory (4 GiB less the module's own pages). */
const MAX_WASM_BYTES = 2 ** 32 - 2 ** 24;

export function wasmModulePath(module: string): string {
  return join(packageRoot(), "dist", "wasm", `${module}.wasm`);
}

/** Every kernel function the built wasm modules export (all but alloc/free): what a self-test must cover. */
export function wasmKernelNames(): string[] {
  const dir = join(packageRoot(), "dist", "wasm");
  if (!existsSync(dir)) return [];
  const names: string[] = [];
  for (const f of readdirSync(dir)
    .filter((f) => f.endsWith(".wasm"))
    .sort()) {
    const exports = WebAssembly.Module.exports(new WebAssembly.Module(readFileSync(join(dir, f))));
    for (const e of exports) if (e.kind === "function" && e.name !== "alloc" && e.name !== "free") names.push(e.name);
  }
  return names;
}

export class WasmBackend implements KernelBackend {
  readonly name = "wasm" as const;
  private readonly instances = new Map<string, WasmExports>();

  /** The module's exports, instantiated on first use (each worker thread gets its own memory). */
  private instance(module: string): WasmExports {
    let inst = this.instances.get(module);
    if (!inst) {
      const path = wasmModulePath(module);
      if (!existsSync(path))
        throw new VarmapError("E_INSTALL", `the wasm module ${path} is missing: varmap is not fully built`, {
          remedy: "run npm run build:wasm (or npm run build) in the varmap directory",
        });
      const compiled = new WebAssembly.Module(readFileSync(path));
      inst = new WebAssembly.Instance(compiled, {}).exports as unknown as WasmExports;
      this.instances.set(module, inst);
    }
    return inst;
  }

  run(spec: KernelSpec, args: readonly KernelArg[]): number {
    if (!checkKernelArgs(spec, args)) return Status.BAD_ARGUMENT;
    const ex = this.instance(spec.module);
    const fn = ex[spec.name];
    if (typeof fn !== "function") return Status.INTERNAL;
    const ptrs: number[] = new Array(args.length).fill(0);
    const callArgs: number[] = new Array(args.length);
    try {
      for (let i = 0; i < args.length; i++) {
        const a = args[i];
        if (typeof a === "number") callArgs[i] = a;
        else {
          // 32-bit linear memory: a larger buffer would wrap alloc's size argument.
          if (a.byteLength > MAX_WASM_BYTES) return Status.NO_MEMORY;
          ptrs[i] = ex.alloc(a.byteLength);
          if (ptrs[i] === 0) return Status.NO_MEMORY;
          callArgs[i] = ptrs[i];
        }
      }
      let buf = ex.memory.buffer;
      for (let i = 0; i < args.length; i++) {
        const s = spec.args[i];
        if ("dir" in s && s.dir !== "out") {
          const a = args[i] as Float64Array | Int32Array | Uint8Array;
          new Uint8Array(buf, ptrs[i], a.byteLength).set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
        }
      }
      const status = (fn as (...x: number[]) => number)(...callArgs);
      buf = ex.memory.buffer;
      for (let i = 0; i < args.length; i++) {
        const s = spec.args[i];
        if ("dir" in s && s.dir !== "in") {
          const a = args[i] as Float64Array | Int32Array | Uint8Array;
          new Uint8Array(a.buffer, a.byteOffset, a.byteLength).set(new Uint8Array(buf, ptrs[i], a.byteLength));
        }
      }
      return status;
    } catch (e) {
      if (e instanceof WebAssembly.RuntimeError) {
        // A trap leaves the module's heap in an unknown state: start the next call on a fresh instance.
        this.instances.delete(spec.module);
        return /memory|out of bounds/i.test((e as Error).message) ? Status.NO_MEMORY : Status.INTERNAL;
      }
      throw e;
    } finally {
      if (this.instances.get(spec.module) === ex) for (const p of ptrs) if (p) ex.free(p);
    }
  }
}
