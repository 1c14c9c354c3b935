// Vitest global setup: every test file's temporary files go under one directory for the run (TMPDIR is set
// before the test processes start, so os.tmpdir() points there), removed when the run ends.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), "varmap-tests-"));
  const before = process.env.TMPDIR;
  process.env.TMPDIR = root;
  return () => {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    if (!process.env.VARMAP_KEEP_TEST_FILES) rmSync(root, { recursive: true, force: true });
  };
}
