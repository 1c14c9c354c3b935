// Backend selection and the fallback to wasm, proven without deleting the built addon: the native loader is
// pointed at a missing or broken file, or replaced by one that reports a reason.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { sqdist } from "../../ts/backend/kernels/distances.js";
import { loadNativeBackend } from "../../ts/backend/native.js";
import { createSelector, requestedBackend, resolveBackend } from "../../ts/backend/select.js";
import { isVarmapError } from "../../ts/errors.js";

const dir = mkdtempSync(join(tmpdir(), "varmap-select-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const missing = () => loadNativeBackend(join(dir, "build", "Release", "varmap.node"));

describe("native loader", () => {
  it("says why when the addon file is missing", () => {
    const r = missing();
    expect(r.backend).toBeUndefined();
    expect(r.reason).toMatch(/not built.*varmap\.node is missing/);
  });

  it("says why when the addon file does not load", () => {
    const bogus = join(dir, "bogus.node");
    writeFileSync(bogus, "not a shared library");
    const r = loadNativeBackend(bogus);
    expect(r.backend).toBeUndefined();
    expect(r.reason).toMatch(/failed to load/);
  });
});

describe("backend selection", () => {
  it("auto falls back to a working wasm backend, with the reason", () => {
    const info = resolveBackend("auto", missing);
    expect(info.backend.name).toBe("wasm");
    expect(info.nativeUnavailable).toMatch(/is missing/);
    expect(Array.from(sqdist(info.backend, Float64Array.from([0, 3]), Float64Array.from([1]), 1))).toEqual([1, 4]);
  });

  it("native, when unavailable, is an E_BACKEND error naming the reason and the remedy", () => {
    let err: unknown;
    try {
      resolveBackend("native", missing);
    } catch (e) {
      err = e;
    }
    expect(isVarmapError(err) && err.code).toBe("E_BACKEND");
    expect((err as Error).message).toMatch(/is missing.*npm run build:native/);
  });

  it("wasm never loads the addon", () => {
    const info = resolveBackend("wasm", () => {
      throw new Error("the native loader must not run");
    });
    expect(info.backend.name).toBe("wasm");
  });

  it("notes the fallback once on stderr, whatever the number of calls", () => {
    const notes: string[] = [];
    const select = createSelector(missing, (l) => notes.push(l));
    const quiet = process.env.VARMAP_QUIET;
    delete process.env.VARMAP_QUIET;
    try {
      expect(select("auto").backend.name).toBe("wasm");
      expect(select("auto").backend.name).toBe("wasm");
      expect(select("wasm").backend.name).toBe("wasm");
    } finally {
      if (quiet !== undefined) process.env.VARMAP_QUIET = quiet;
    }
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(/^varmap: using the WebAssembly backend because .*is missing/);
  });

  it("rejects unknown backend names", () => {
    expect(() => requestedBackend("gpu")).toThrow(/unknown backend 'gpu'/);
    expect(requestedBackend(" Native ")).toBe("native");
  });
});
