// Issue 44 item 7: `whatif --holdout` uses the defaults of fit and cv (gp among the methods, --log-inputs auto
// --log-response auto) and says which methods it compares; it used to leave gp out and work on a linear scale.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cliBuilt, cliIn } from "../helpers/cli.js";
import { rng } from "../helpers/backends.js";
import { onceReason, secondBackendRun } from "../helpers/once.js";

const dir = mkdtempSync(join(tmpdir(), "varmap-whatif-defaults-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const varmap = cliIn(dir);

describe.skipIf(secondBackendRun || !cliBuilt)("whatif --holdout defaults", () => {
  it("compares cv's default methods (hybrid: gp where measured) on the auto log scales, and says so", () => {
    const r = rng(9);
    const lines = ["host,freq,threads,run,tput"];
    for (const f of [1, 2, 3, 4, 5])
      for (const t of [1, 2, 4, 8, 16]) for (let k = 0; k < 5; k++) lines.push(`a,${f},${t},${k},${100 * f + 20 * t + (3 + t) * (r() + r() - 1)}`);
    writeFileSync(join(dir, "runs.csv"), lines.join("\n") + "\n");
    mkdirSync(join(dir, "w"));
    const w = varmap(
      "whatif",
      "runs.csv",
      "--factors",
      "host",
      "--inputs",
      "freq,threads",
      "--response",
      "tput",
      "--run",
      "run",
      "--holdout",
      "0.5",
      "--seed",
      "1",
      "--out",
      "w/whatif.csv",
    );
    expect(w.code, w.err).toBe(0);
    expect(w.err).toMatch(/--holdout compares lr, lsp, delaunay, mars, rbf, hybrid/);
    expect(w.err).toMatch(/the mean and the spread are modelled on a log scale/);
    expect(readFileSync(join(dir, "w", "whatif-validation.csv"), "utf8")).toMatch(/\nhybrid,|,hybrid,/);
  });
});

describe.runIf(secondBackendRun)(`this file${onceReason}`, () => {
  it.skip("skipped on the wasm run", () => {});
});
