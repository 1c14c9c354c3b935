// Issue 44 item 4: the mixture fits table has unique column names (the guarded selection's criterion used to be a
// second `bic` column), so pandas, R and DuckDB load it by name.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cliBuilt, cliIn } from "../helpers/cli.js";
import { rng } from "../helpers/backends.js";
import { onceReason, secondBackendRun } from "../helpers/once.js";

const dir = mkdtempSync(join(tmpdir(), "varmap-mixture-columns-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const varmap = cliIn(dir, { VARMAP_QUIET: "1" });

describe.skipIf(secondBackendRun || !cliBuilt)("mixture fits table columns", () => {
  it("unique names with the default (guarded) selection and with --criterion icl; selection_<criterion> holds the score", () => {
    const r = rng(4);
    const lines = ["g,x,run,y"];
    for (const x of [1, 2]) for (let i = 0; i < 60; i++) lines.push(`a,${x},${i},${(100 * x + (i % 2) * 30 + r() * 5).toFixed(3)}`);
    writeFileSync(join(dir, "runs.csv"), lines.join("\n") + "\n");
    for (const [extra, col] of [
      [[], "selection_bic"],
      [["--criterion", "icl"], "selection_icl"],
    ] as const) {
      const out = `fits-${col}.csv`;
      const m = varmap("mixture", "runs.csv", "--factors", "g", "--inputs", "x", "--run", "run", "--response", "y", "--kmax", "2", ...extra, "--out", out);
      expect(m.code, m.err).toBe(0);
      const head = readFileSync(join(dir, out), "utf8").split("\n")[0].split(",");
      expect(new Set(head).size, head.join(",")).toBe(head.length);
      expect(head).toContain("bic");
      expect(head).toContain(col);
    }
  });
});

describe.runIf(secondBackendRun)(`this file${onceReason}`, () => {
  it.skip("skipped on the wasm run", () => {});
});
