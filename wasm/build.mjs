// Compiles every wasm/*.ts (one module per native/src file, same name) to dist/wasm/<name>.wasm.
// dist/ rather than build/: a failed cmake-js build wipes build/.
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const outDir = join(root, "dist", "wasm");
mkdirSync(outDir, { recursive: true });
const asc = join(root, "node_modules", "assemblyscript", "bin", "asc.js");
const only = process.argv.slice(2);
const modules = readdirSync(join(root, "wasm"))
  .filter((f) => f.endsWith(".ts"))
  .map((f) => f.slice(0, -3))
  .filter((m) => only.length === 0 || only.includes(m));
let failed = 0;
for (const m of modules) {
  const r = spawnSync(
    process.execPath,
    [asc, join("wasm", `${m}.ts`), "-o", join(outDir, `${m}.wasm`), "-O3", "--enable", "simd", "--use", "abort=", "--runtime", "incremental"],
    { cwd: root, stdio: "inherit" },
  );
  if (r.status !== 0) {
    console.error(`varmap: wasm module ${m} failed to compile`);
    failed++;
  }
}
if (failed) process.exit(1);
console.log(`varmap: compiled ${modules.length} wasm module(s) into dist/wasm`);
