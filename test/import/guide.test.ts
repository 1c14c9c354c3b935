// docs/guide/import.md's ```sh examples run as written, from a temporary directory where `test` links to the
// repository's test/ (the guide says: run them from the clone's root), with `varmap` the built CLI.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { packageRoot } from "../../ts/package-root.js";
import { cliBuilt, cliPath } from "../helpers/cli.js";

const root = packageRoot();
const guide = readFileSync(join(root, "docs", "guide", "import.md"), "utf8");
const blocks = [...guide.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]);

describe.skipIf(!cliBuilt)("docs/guide/import.md examples", () => {
  const dir = mkdtempSync(join(tmpdir(), "varmap-guide-import-"));
  symlinkSync(join(root, "test"), join(dir, "test"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  it("has one example per tool", () => {
    for (const tool of ["fio", "hyperfine", "gbench", "pytest-benchmark", "ior", "iozone"]) expect(guide).toMatch(new RegExp(`varmap import ${tool} `));
  });
  blocks.forEach((b, i) => {
    it(`block ${i + 1}: ${b.split("\n")[0]}`, () => {
      const script = `set -e\nvarmap() { "${process.execPath}" "${cliPath}" "$@"; }\n${b}`;
      const r = spawnSync("bash", ["-c", script], { cwd: dir, encoding: "utf8" });
      expect(r.status, r.stderr).toBe(0);
    });
  });
});
