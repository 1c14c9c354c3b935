// `varmap doctor` and `varmap bench` end to end (spawns the compiled CLI: build first).
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { selfTests } from "../../ts/backend/selftest.js";
import { nativeBackend, selected } from "../helpers/backends.js";
import { packageRoot } from "../../ts/package-root.js";

const cli = join(packageRoot(), "dist", "ts", "cli", "main.js");
function varmap(...args: string[]) {
  const r = spawnSync(process.execPath, [cli, ...args], { encoding: "utf8", env: { ...process.env, VARMAP_QUIET: "1" } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("varmap doctor", () => {
  it("reports the backend in use and passes every kernel's self-test on every available backend", () => {
    const r = varmap("doctor", "--json");
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.backend).toBe(selected.name);
    const backends = nativeBackend ? ["native", "wasm", "native=wasm"] : ["wasm"];
    for (const b of backends)
      for (const t of selfTests.filter((t) => b !== "native=wasm" || t.parity))
        expect(report.tests).toContainEqual(expect.objectContaining({ backend: b, name: t.name, ok: true }));
    expect(report.tests.every((t: { ok: boolean }) => t.ok)).toBe(true);
    // Kernels no self-test exercised, or that no parity check compared, are listed: every kernel has both.
    expect(report.untested).toEqual([]);
    if (nativeBackend) expect(report.noParity).toEqual([]);
  });
});

describe("varmap bench", () => {
  it("times the selected suite per backend and describes the machine", () => {
    const r = varmap("bench", "--kernels", "knn", "--cases", "LSP", "--backends", "wasm,ts", "--max-time", "0.05", "--json", "--quiet");
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.machine.cores).toBeGreaterThan(0);
    expect(report.machine.node).toBe(process.version);
    expect(new Set(report.results.map((m: { kernel: string }) => m.kernel))).toEqual(new Set(["knn"]));
    expect(new Set(report.results.map((m: { target: string }) => m.target))).toEqual(new Set(["wasm", "ts"]));
    for (const m of report.results) {
      expect(m.medianMs).toBeGreaterThan(0);
      expect(m.cpuMs).toBeGreaterThan(0);
      expect(m.itemsPerSec).toBeCloseTo(m.items / (m.medianMs / 1e3), 0);
    }
  });

  it("rejects unknown kernels and backends with exit code 2", () => {
    const k = varmap("bench", "--kernels", "nope");
    expect(k.code).toBe(2);
    expect(k.stderr).toMatch(/unknown benchmark kernel\(s\) nope.*choose among .*sqdist/);
    expect(varmap("bench", "--backends", "gpu").code).toBe(2);
  });
});
