// Installation faults are coded errors (E_INSTALL, exit 2), not "internal error (a bug in varmap)" with exit 1.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { isVarmapError } from "../../ts/errors.js";
import { workerFile } from "../../ts/pool/threads.js";
import { reportError } from "../../ts/cli/program.js";

describe("installation faults", () => {
  it("a missing worker script is E_INSTALL, exit 2", () => {
    const dir = mkdtempSync(join(tmpdir(), "varmap-install-"));
    let err: unknown;
    try {
      workerFile(pathToFileURL(join(dir, "pool.js")).href, "worker");
    } catch (e) {
      err = e;
    }
    expect(isVarmapError(err) && err.code).toBe("E_INSTALL");
    expect((err as Error).message).toContain(join(dir, "worker.js"));
    const write = process.stderr.write;
    process.stderr.write = () => true;
    try {
      expect(reportError(err)).toBe(2);
    } finally {
      process.stderr.write = write;
    }
  });
});
