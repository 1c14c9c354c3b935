// Builds the native addon with cmake-js. A failed build is not fatal: varmap then runs on the
// WebAssembly backend and says so once at start-up (see ts/backend/select.ts).
import { spawnSync } from "node:child_process";
import { writeFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const statusFile = join(root, "dist", "native-build.json");
const cmakeJs = join(root, "node_modules", "cmake-js", "bin", "cmake-js");
const args = [cmakeJs, "compile", "--config", "Release"];
if (process.env.VARMAP_NATIVE_JOBS) args.push("--parallel", process.env.VARMAP_NATIVE_JOBS);
const result = spawnSync(process.execPath, args, { cwd: root, stdio: "inherit" });
const ok = result.status === 0;
mkdirSync(dirname(statusFile), { recursive: true });
writeFileSync(
  statusFile,
  JSON.stringify({ ok, at: new Date().toISOString(), error: ok ? null : `cmake-js exited with ${result.status ?? result.error?.message}` }, null, 2),
);
if (!ok) {
  console.warn("varmap: the native (C++) addon did not build; varmap will run on its WebAssembly backend.");
  console.warn("varmap: to get the faster native backend install a C++17 compiler and cmake, then run `npm run build:native`.");
}
