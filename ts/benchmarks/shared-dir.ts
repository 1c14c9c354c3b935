// Where ../shared is, for the benchmark suites that read real data.
import { join, resolve } from "node:path";
import { packageRoot } from "../package-root.js";

/** The value after `--name` on the command line, if given. */
export function flag(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/** The shared data folder: `--shared DIR`, else VARMAP_SHARED, else ../shared beside the package. */
export function sharedDir(): string {
  return resolve(flag("--shared") ?? process.env.VARMAP_SHARED ?? join(packageRoot(), "..", "shared"));
}
