// `varmap doctor`: the backend in use and why, versions, and a self-test of every kernel on both backends.
import type { Command } from "commander";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { backendInfo } from "../../backend/index.js";
import { loadNativeBackend } from "../../backend/native.js";
import { WasmBackend, wasmKernelNames } from "../../backend/wasm.js";
import { packageRoot } from "../../package-root.js";
import { selfTests } from "../../backend/selftest.js";
import type { KernelBackend } from "../../backend/kernel.js";

export function register(program: Command): void {
  program
    .command("doctor")
    .description("backend in use and why, versions, kernel self-test")
    .option("--json", "machine-readable report on stdout")
    .action((opts: { json?: boolean }) => {
      const info = backendInfo();
      const pkg = JSON.parse(readFileSync(join(packageRoot(), "package.json"), "utf8"));
      const native = loadNativeBackend();
      const exercised = new Set<string>();
      const tests = runSelfTests(native.backend && recording(native.backend, exercised), recording(new WasmBackend(), exercised));
      // Kernels no self-test called (each kernel should add one to ts/backend/selftest.ts).
      const untested = tests.some((t) => t.skipped) ? [] : wasmKernelNames().filter((k) => !exercised.has(k));
      const report = {
        varmap: pkg.version,
        node: process.version,
        platform: `${process.platform}-${process.arch}`,
        versions: { v8: process.versions.v8, napi: process.versions.napi ?? null, assemblyscript: dependencyVersion("assemblyscript") },
        backend: info.backend.name,
        requested: info.requested,
        nativeUnavailable: native.reason ?? null,
        tests,
        untested,
      };
      if (opts.json) {
        process.stdout.write(JSON.stringify(report, null, 2) + "\n");
      } else {
        const lines = [
          `varmap ${report.varmap} on Node ${report.node} (${report.platform}; V8 ${report.versions.v8}, N-API ${report.versions.napi ?? "?"}, AssemblyScript ${report.versions.assemblyscript ?? "?"})`,
          `backend: ${report.backend} (requested: ${report.requested})`,
          native.reason ? `native: unavailable: ${native.reason}` : "native: available",
          "self-test:",
          ...tests.map(
            (t) =>
              `  ${t.skipped ? "skip" : t.ok ? "ok  " : "FAIL"} ${t.backend.padEnd(11)} ${t.name.padEnd(24)} ${t.ms.toFixed(1)} ms${t.error ? "  " + t.error : ""}`,
          ),
          ...(untested.length ? [`  no self-test yet for kernel(s): ${untested.join(", ")}`] : []),
        ];
        process.stdout.write(lines.join("\n") + "\n");
      }
      if (tests.some((t) => !t.ok)) process.exitCode = 1;
    });
}

/** The installed version of a dependency, or null when it cannot be found. */
function dependencyVersion(name: string): string | null {
  // Walk Node's node_modules search path: some packages (assemblyscript) export no resolvable entry for require.
  for (const dir of createRequire(join(packageRoot(), "package.json")).resolve.paths(name) ?? []) {
    const file = join(dir, name, "package.json");
    if (existsSync(file)) {
      try {
        return JSON.parse(readFileSync(file, "utf8")).version ?? null;
      } catch {
        return null;
      }
    }
  }
  return null;
}

/** Passes calls through, noting which kernels ran. */
function recording(backend: KernelBackend, seen: Set<string>): KernelBackend {
  return {
    name: backend.name,
    run(spec, args) {
      seen.add(spec.name);
      return backend.run(spec, args);
    },
  };
}

interface TestResult {
  backend: string;
  name: string;
  ok: boolean;
  skipped?: boolean;
  ms: number;
  error?: string;
}

/** About one second for the whole self-test: checks that would start after it are reported as skipped. */
const BUDGET_MS = 1000;

/** Every kernel's known-answer test on each backend, then native-vs-wasm parity on a random batch. */
function runSelfTests(native: KernelBackend | undefined, wasm: KernelBackend): TestResult[] {
  const checks: [string, string, () => void][] = [];
  for (const b of native ? [native, wasm] : [wasm]) for (const t of selfTests) checks.push([b.name, t.name, () => t.run(b)]);
  if (native) for (const t of selfTests) if (t.parity) checks.push(["native=wasm", t.name, () => t.parity!(native, wasm)]);
  const start = performance.now();
  return checks.map(([backend, name, f]) => {
    if (performance.now() - start > BUDGET_MS) return { backend, name, ok: true, skipped: true, ms: 0, error: "not run: 1 s budget spent" };
    const t0 = performance.now();
    try {
      f();
      return { backend, name, ok: true, ms: performance.now() - t0 };
    } catch (e) {
      return { backend, name, ok: false, ms: performance.now() - t0, error: (e as Error).message };
    }
  });
}
