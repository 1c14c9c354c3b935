// `doctor`: the backend in use and why, versions, and a self-test of every kernel on both backends. The CLI
// (ts/cli/commands/doctor.ts) prints the summary (its text, or the report as JSON) and exits 1 when not ok.
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { backendInfo } from "../backend/index.js";
import { loadNativeBackend } from "../backend/native.js";
import { WasmBackend, wasmKernelNames } from "../backend/wasm.js";
import { packageRoot } from "../package-root.js";
import { selfTests } from "../backend/selftest.js";
import type { KernelBackend } from "../backend/kernel.js";
import { isVarmapError } from "../errors.js";

export interface DoctorReport {
  varmap: string;
  node: string;
  platform: string;
  versions: { v8: string; napi: string | null; assemblyscript: string | null };
  /** The backend in use (null when the requested one cannot be used). */
  backend: string | null;
  requested: string;
  backendError?: { code: string; message: string; remedy?: string };
  nativeUnavailable: string | null;
  tests: TestResult[];
  /** Kernels no self-test called. */
  untested: string[];
  /** Kernels the native-vs-wasm comparison does not cover. */
  noParity: string[];
}

export interface DoctorSummary extends DoctorReport {
  /** Every self-test passed and the requested backend can be used. */
  ok: boolean;
  /** The report as `varmap doctor` prints it. */
  text: string;
}

/** Takes no options: what it reports is the process's environment (VARMAP_BACKEND). */
export async function runDoctor(): Promise<DoctorSummary> {
  // A requested backend that cannot be used (VARMAP_BACKEND=native on a wasm-only install) is what doctor is for:
  // report it (ok false, the CLI exits 1 as for a failing self-test) instead of stopping with the verbs' exit code 2.
  let info: ReturnType<typeof backendInfo> | undefined;
  let backendError: { code: string; message: string; remedy?: string } | undefined;
  try {
    info = backendInfo();
  } catch (e) {
    if (!isVarmapError(e)) throw e;
    backendError = { code: e.code, message: e.detail ?? e.message, remedy: e.remedy };
  }
  const pkg = JSON.parse(readFileSync(join(packageRoot(), "package.json"), "utf8"));
  const native = loadNativeBackend();
  const exercised = new Set<string>();
  const compared = new Set<string>();
  const wasm = new WasmBackend();
  const tests = runSelfTests(
    native.backend && recording(native.backend, exercised),
    recording(wasm, exercised),
    native.backend && [recording(native.backend, compared), recording(wasm, compared)],
  );
  // Kernels no self-test called (each kernel should add one to ts/backend/selftest.ts).
  const untested = tests.some((t) => t.skipped) ? [] : wasmKernelNames().filter((k) => !exercised.has(k));
  // Kernels the native-vs-wasm comparison does not cover (none when every kernel's self-test has a parity check).
  const noParity = native.backend ? wasmKernelNames().filter((k) => !compared.has(k)) : [];
  const report: DoctorReport = {
    varmap: pkg.version,
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    versions: { v8: process.versions.v8, napi: process.versions.napi ?? null, assemblyscript: dependencyVersion("assemblyscript") },
    backend: info?.backend.name ?? null,
    requested: info?.requested ?? (process.env.VARMAP_BACKEND ?? "auto").trim().toLowerCase(),
    ...(backendError ? { backendError } : {}),
    nativeUnavailable: native.reason ?? null,
    tests,
    untested,
    noParity,
  };
  const lines = [
    `varmap ${report.varmap} on Node ${report.node} (${report.platform}; V8 ${report.versions.v8}, N-API ${report.versions.napi ?? "?"}, AssemblyScript ${report.versions.assemblyscript ?? "?"})`,
    backendError
      ? `backend: none: the requested ${report.requested} backend cannot be used: ${backendError.message}${backendError.remedy ? ` (${backendError.remedy})` : ""}`
      : `backend: ${report.backend} (requested: ${report.requested})`,
    native.reason ? `native: unavailable: ${native.reason}` : "native: available",
    "self-test:",
    ...tests.map(
      (t) =>
        `  ${t.skipped ? "skip" : t.ok ? "ok  " : "FAIL"} ${t.backend.padEnd(11)} ${t.name.padEnd(24)} ${t.ms.toFixed(1)} ms${t.error ? "  " + t.error : ""}`,
    ),
    ...(untested.length ? [`  no self-test yet for kernel(s): ${untested.join(", ")}`] : []),
    ...(noParity.length ? [`  native=wasm not compared for kernel(s): ${noParity.join(", ")}`] : []),
  ];
  return { ...report, ok: !(tests.some((t) => !t.ok) || backendError), text: lines.join("\n") + "\n" };
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

export interface TestResult {
  backend: string;
  name: string;
  ok: boolean;
  skipped?: boolean;
  ms: number;
  error?: string;
}

/** A few seconds at most for the whole self-test (about one on an idle machine): checks that would start after it are reported as skipped. */
const BUDGET_MS = 3000;

/** Every kernel's known-answer test on each backend, then native-vs-wasm parity on a random batch. */
function runSelfTests(native: KernelBackend | undefined, wasm: KernelBackend, parity?: [KernelBackend, KernelBackend]): TestResult[] {
  const checks: [string, string, () => void][] = [];
  for (const b of native ? [native, wasm] : [wasm]) for (const t of selfTests) checks.push([b.name, t.name, () => t.run(b)]);
  if (parity) for (const t of selfTests) if (t.parity) checks.push(["native=wasm", t.name, () => t.parity!(parity[0], parity[1])]);
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
