// The analysis the tools' end-to-end tests run on an imported table with nothing but --preset <tool>:
// summarize, fit --method auto, mixture, refit + report.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import type { CliResult } from "../helpers/cli.js";

export function analyse(varmap: (...args: string[]) => CliResult, dir: string, table: string, preset: string, configurations: number, runsEach: number): void {
  const ok = (r: CliResult) => expect(r.code, r.err).toBe(0);
  const s = varmap("summarize", table, "--preset", preset, "--json", "--quiet", "--out", join(dir, "summary.csv"));
  ok(s);
  expect(JSON.parse(s.out)).toMatchObject({ configurations, runs: configurations * runsEach, dropped: 0 });
  const n = readFileSync(join(dir, "summary.csv"), "utf8").trim().split("\n").slice(1);
  expect(n).toHaveLength(configurations);

  const fit = varmap("fit", table, "--preset", preset, "--method", "auto", "--out", join(dir, "model.json"), "--quiet");
  ok(fit);
  expect(JSON.parse(readFileSync(join(dir, "model.json"), "utf8"))).toBeTruthy();

  const mix = varmap("mixture", table, "--preset", preset, "--out", join(dir, "mixture.csv"), "--quiet");
  ok(mix);
  const best = readFileSync(join(dir, "mixture.csv"), "utf8")
    .trim()
    .split("\n")
    .filter((l) => l.endsWith(",true"));
  expect(best).toHaveLength(configurations); // one chosen mixture per configuration

  ok(varmap("refit", table, "--preset", preset, "--out", join(dir, "refit"), "--workers", "1", "--quiet"));
  const report = join(dir, "report.html");
  ok(varmap("report", join(dir, "refit"), "--data", table, "--preset", preset, "--out", report, "--quiet"));
  expect(existsSync(report)).toBe(true);
  expect(readFileSync(report, "utf8")).toMatch(/<svg/);
}
