// `npx varmap` runs the package's bin file directly, so after install it must be executable and start with a
// shebang (tsc sets neither the mode nor checks the line; the build scripts chmod it).
import { spawnSync } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..", "..");
const bin = join(root, JSON.parse(readFileSync(join(root, "package.json"), "utf8")).bin.varmap as string);

describe("the varmap bin", () => {
  it("is executable, has a node shebang, and runs on its own", () => {
    expect(readFileSync(bin, "utf8").split("\n")[0]).toBe("#!/usr/bin/env node");
    expect(statSync(bin).mode & 0o111, `${bin} is not executable: run npm run build`).not.toBe(0);
    const r = spawnSync(bin, ["--help"], { encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain("demo");
  });
});
