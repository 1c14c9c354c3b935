// A wasm-only install (no native addon), as a copy of dist/ beside a package.json and no build/ (issue 15, smaller
// items): `VARMAP_BACKEND=native varmap doctor` reports the unusable backend and exits 1 (not the verbs' 2); the
// "using the WebAssembly backend because …" note prints once per process, not once per worker thread.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { packageRoot } from "../../ts/package-root.js";

const root = packageRoot();
const built = existsSync(join(root, "dist", "ts", "cli", "main.js"));
const dir = mkdtempSync(join(tmpdir(), "varmap-wasm-only-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function install(): string {
  const inst = join(dir, "install");
  mkdirSync(join(inst, "native"), { recursive: true }); // packageRoot() looks for package.json beside native/
  cpSync(join(root, "package.json"), join(inst, "package.json"));
  cpSync(join(root, "dist"), join(inst, "dist"), { recursive: true });
  symlinkSync(join(root, "node_modules"), join(inst, "node_modules"), "dir");
  return join(inst, "dist", "ts", "cli", "main.js");
}

describe.skipIf(!built)(`a wasm-only install${built ? "" : " — dist/ts/cli/main.js missing: run npm run build"}`, () => {
  const cli = built ? install() : "";
  const run = (env: Record<string, string>, ...args: string[]) => {
    // The install decides the backend (auto unless the test says): not a VARMAP_BACKEND the suite runs under.
    const e: Record<string, string | undefined> = { ...process.env };
    delete e.VARMAP_QUIET;
    delete e.VARMAP_BACKEND;
    Object.assign(e, env);
    const r = spawnSync(process.execPath, [cli, ...args], { cwd: dir, encoding: "utf8", env: e });
    return { code: r.status, out: r.stdout, err: r.stderr };
  };

  it("VARMAP_BACKEND=native varmap doctor reports the unusable backend and exits 1", () => {
    const r = run({ VARMAP_BACKEND: "native" }, "doctor", "--json");
    expect(r.code, r.err).toBe(1);
    const report = JSON.parse(r.out);
    expect(report.backend).toBeNull();
    expect(report.requested).toBe("native");
    expect(report.backendError.code).toBe("E_BACKEND");
    expect(report.backendError.remedy).toMatch(/VARMAP_BACKEND=wasm/);
    expect(report.tests.filter((t: { backend: string }) => t.backend === "wasm").every((t: { ok: boolean }) => t.ok)).toBe(true);
    const text = run({ VARMAP_BACKEND: "native" }, "doctor");
    expect(text.code).toBe(1);
    expect(text.out).toMatch(/^backend: none: the requested native backend cannot be used/m);
  });

  it("the WebAssembly fallback note prints once with 2 workers, and an unknown backend's remedy names no --backend flag", () => {
    const lines = ["g,x,z,run,y"];
    for (let i = 0; i < 6; i++) for (let j = 0; j < 6; j++) for (let r = 0; r < 3; r++) lines.push(`a,${i},${j},${r},${10 + i + j * j + r * (1 + i)}`);
    writeFileSync(join(dir, "runs.csv"), lines.join("\n") + "\n");
    const r = run(
      {},
      "cv",
      "runs.csv",
      "--factors",
      "g",
      "--inputs",
      "x,z",
      "--response",
      "y",
      "--run",
      "run",
      "--methods",
      "lr",
      "--reps",
      "30",
      "--workers",
      "2",
      "--out",
      "cv",
    );
    expect(r.code, r.err).toBe(0);
    expect(r.err.match(/using the WebAssembly backend because/g)?.length).toBe(1);
    const bad = run(
      { VARMAP_BACKEND: "gpu" },
      "cv",
      "runs.csv",
      "--factors",
      "g",
      "--inputs",
      "x,z",
      "--response",
      "y",
      "--run",
      "run",
      "--methods",
      "lr",
      "--reps",
      "2",
      "--out",
      "cv2",
    );
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/E_BACKEND/);
    expect(bad.err).not.toMatch(/--backend\b/);
  });
});
