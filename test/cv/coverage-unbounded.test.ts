// Issue 44 item 16: with fewer than 9 training points a 90 % conformal interval is [0, ∞); coverage.csv used to
// count it as covering (100 %). Such divisions are now counted apart (`unbounded`) and left out of `coverage`, and
// `median_hi_lo_ratio` gives the width the coverage is bought with.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cliBuilt, cliIn } from "../helpers/cli.js";
import { rng } from "../helpers/backends.js";

const dir = mkdtempSync(join(tmpdir(), "varmap-coverage-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const varmap = cliIn(dir, { VARMAP_QUIET: "1" });

describe.skipIf(!cliBuilt)("cv --interval: unbounded intervals apart, widths beside coverage", () => {
  it("p = 0.2 of 25 configurations (5 training points): unbounded, no coverage; p = 0.5: coverage and a finite ratio", () => {
    const r = rng(9);
    const lines = ["host,freq,threads,run,tput"];
    for (const f of [1, 2, 3, 4, 5])
      for (const t of [1, 2, 4, 8, 16]) for (let k = 0; k < 6; k++) lines.push(`a,${f},${t},${k},${100 * f + 20 * t + (3 + t) * (r() + r() - 1)}`);
    writeFileSync(join(dir, "runs.csv"), lines.join("\n") + "\n");
    const c = varmap(
      "cv",
      "runs.csv",
      "--factors",
      "host",
      "--inputs",
      "freq,threads",
      "--response",
      "tput",
      "--run",
      "run",
      "--methods",
      "lr",
      "--p",
      "0.2,0.5",
      "--reps",
      "5",
      "--interval",
      "0.9",
      "--out",
      "cov",
    );
    expect(c.code, c.err).toBe(0);
    const [head, ...rows] = readFileSync(join(dir, "cov", "coverage.csv"), "utf8")
      .trim()
      .split("\n");
    const cols = head.split(",");
    expect(cols.slice(-4)).toEqual(["divisions", "coverage", "unbounded", "median_hi_lo_ratio"]);
    const at = (row: string, name: string) => row.split(",")[cols.indexOf(name)];
    const [p2, p5] = rows;
    expect([at(p2, "p"), at(p2, "divisions"), at(p2, "unbounded"), at(p2, "median_hi_lo_ratio")]).toEqual(["0.2", "0", "5", ""]);
    expect(at(p2, "coverage")).not.toBe("1");
    expect([at(p5, "p"), at(p5, "divisions"), at(p5, "unbounded")]).toEqual(["0.5", "5", "0"]);
    expect(Number(at(p5, "median_hi_lo_ratio"))).toBeGreaterThan(1);
    expect(Number(at(p5, "coverage"))).toBeGreaterThan(0);
  });
});
