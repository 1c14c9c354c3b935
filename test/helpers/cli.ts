// The built CLI spawned as a user runs it (node dist/ts/cli/main.js, never npx): shared by the end-to-end tests.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { packageRoot } from "../../ts/package-root.js";

export const cliPath = join(packageRoot(), "dist", "ts", "cli", "main.js");
/** False before `npm run build`: the end-to-end suites skip and say so. */
export const cliBuilt = existsSync(cliPath);

export interface CliResult {
  code: number | null;
  out: string;
  err: string;
}

/**
 * A `varmap(...args)` that runs the CLI in `cwd` and returns its exit code, stdout and stderr; `env` is added to the
 * test's own environment (e.g. VARMAP_QUIET).
 */
export function cliIn(cwd: string, env: Record<string, string> = {}): (...args: string[]) => CliResult {
  return (...args) => {
    const r = spawnSync(process.execPath, [cliPath, ...args], { cwd, encoding: "utf8", env: { ...process.env, ...env } });
    return { code: r.status, out: r.stdout, err: r.stderr };
  };
}
