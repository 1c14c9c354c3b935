// `varmap doctor`: the backend in use and why, versions, and a self-test of every kernel on both backends.
import type { Command } from "commander";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { backendInfo } from "../../backend/index.js";
import { loadNativeBackend } from "../../backend/native.js";
import { WasmBackend } from "../../backend/wasm.js";
import { packageRoot } from "../../package-root.js";
import { selfTests } from "../../backend/selftest.js";

export function register(program: Command): void {
  program
    .command("doctor")
    .description("backend in use and why, versions, kernel self-test")
    .option("--json", "machine-readable report on stdout")
    .action((opts: { json?: boolean }) => {
      const info = backendInfo();
      const pkg = JSON.parse(readFileSync(join(packageRoot(), "package.json"), "utf8"));
      const native = loadNativeBackend();
      const backends = [...(native.backend ? [native.backend] : []), new WasmBackend()];
      const tests = backends.flatMap((b) => selfTests.map((t) => ({ backend: b.name, ...runTest(t.name, () => t.run(b)) })));
      const report = {
        varmap: pkg.version,
        node: process.version,
        platform: `${process.platform}-${process.arch}`,
        backend: info.backend.name,
        requested: info.requested,
        nativeUnavailable: native.reason ?? null,
        tests,
      };
      if (opts.json) {
        process.stdout.write(JSON.stringify(report, null, 2) + "\n");
      } else {
        const lines = [
          `varmap ${report.varmap} on Node ${report.node} (${report.platform})`,
          `backend: ${report.backend} (requested: ${report.requested})`,
          native.reason ? `native: unavailable: ${native.reason}` : "native: available",
          "self-test:",
          ...tests.map((t) => `  ${t.ok ? "ok  " : "FAIL"} ${t.backend.padEnd(6)} ${t.name.padEnd(24)} ${t.ms.toFixed(1)} ms${t.error ? "  " + t.error : ""}`),
        ];
        process.stdout.write(lines.join("\n") + "\n");
      }
      if (tests.some((t) => !t.ok)) process.exitCode = 1;
    });
}

function runTest(name: string, f: () => void): { name: string; ok: boolean; ms: number; error?: string } {
  const t0 = performance.now();
  try {
    f();
    return { name, ok: true, ms: performance.now() - t0 };
  } catch (e) {
    return { name, ok: false, ms: performance.now() - t0, error: (e as Error).message };
  }
}
