// docs/guide/import.md shows one worked example per tool; test/cli/readme-examples.test.ts runs every example of
// the page (from a directory where `test` links to the repository's test/, as the guide says: the clone's root).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { packageRoot } from "../../ts/package-root.js";

const guide = readFileSync(join(packageRoot(), "docs", "guide", "import.md"), "utf8");

describe("docs/guide/import.md", () => {
  it("has one example per tool", () => {
    for (const tool of ["fio", "hyperfine", "gbench", "pytest-benchmark", "ior", "iozone"]) expect(guide).toMatch(new RegExp(`varmap import ${tool} `));
  });
});
