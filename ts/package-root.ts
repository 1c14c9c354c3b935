// The package's root folder, found from this file whether it runs from ts/ (vitest, tsx) or dist/ts/.
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

let cached: string | undefined;

export function packageRoot(): string {
  if (cached) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, "package.json")) || !existsSync(join(dir, "native"))) {
    const up = dirname(dir);
    if (up === dir) throw new Error("varmap: cannot find the package root from " + fileURLToPath(import.meta.url));
    dir = up;
  }
  cached = dir;
  return dir;
}
