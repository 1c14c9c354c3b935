// Vitest global setup: the CLI tests spawn dist/ts/cli/main.js, so a dist/ older than its sources would test old
// code (a changed exit code in ts/ passed against the stale build). Before any test runs, every ts/**/*.ts must
// have its dist/ts/**/*.js at least as new; otherwise this rebuilds (`npm run build:ts`), or with
// VARMAP_TEST_NO_REBUILD=1 refuses to run, naming the first stale file.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";

const root = join(import.meta.dirname, "..", "..");

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? sources(join(dir, d.name)) : d.name.endsWith(".ts") && !d.name.endsWith(".d.ts") ? [join(dir, d.name)] : [],
  );
}

/** The first source whose compiled file is missing or older, or undefined when dist/ is fresh. */
export function staleSource(): string | undefined {
  for (const src of sources(join(root, "ts"))) {
    const out = join(root, "dist", relative(root, src)).replace(/\.ts$/, ".js");
    if (!existsSync(out) || statSync(out).mtimeMs < statSync(src).mtimeMs) return relative(root, src);
  }
  return undefined;
}

export default function setup(): void {
  const stale = staleSource();
  if (stale === undefined) return;
  if (process.env.VARMAP_TEST_NO_REBUILD)
    throw new Error(`dist/ is older than ${stale}: run \`npm run build:ts\` before the tests (the CLI tests spawn dist/ts/cli/main.js)`);
  process.stderr.write(`varmap tests: dist/ is older than ${stale}; rebuilding (npm run build:ts)\n`);
  execFileSync("npm", ["run", "build:ts"], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
  const still = staleSource();
  if (still !== undefined) throw new Error(`dist/ is still older than ${still} after npm run build:ts`);
}
