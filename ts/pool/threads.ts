// What every worker-thread user needs: the worker script to start, and typed arrays in shared memory.
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { VarmapError } from "../errors.js";

/**
 * The worker `name` (without extension) in the folder of the module at `moduleUrl` (pass import.meta.url): the
 * compiled .js, or, when running from TypeScript sources (vitest), the .ts loaded through tsx.
 */
export function workerFile(moduleUrl: string, name: string): { filename: string; execArgv: string[] } {
  const here = fileURLToPath(moduleUrl);
  if (here.endsWith(".ts")) return { filename: join(dirname(here), `${name}.ts`), execArgv: ["--import", "tsx"] };
  const js = join(dirname(here), `${name}.js`);
  if (!existsSync(js))
    throw new VarmapError("E_INSTALL", `the worker script ${js} is missing: varmap is not fully built`, {
      remedy: "run npm run build:ts (or npm run build) in the varmap directory",
    });
  return { filename: js, execArgv: [] };
}

/** A copy of a typed array in shared memory (workers read it without copying). */
export function sharedCopy<T extends Float64Array | Int32Array>(a: T): T {
  const C = a.constructor as { new (b: SharedArrayBuffer): T };
  const out = new C(new SharedArrayBuffer(Math.max(8, a.byteLength)));
  (out as Float64Array).set(a as Float64Array);
  return (a.length === out.length ? out : out.subarray(0, a.length)) as T;
}
