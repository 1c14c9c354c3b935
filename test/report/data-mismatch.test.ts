// Issue 44 item 19f: `report --data` refuses runs that are not the job's (exit 2, E_REPORT_DATA_MISMATCH, nothing written).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packageRoot } from "../../ts/package-root.js";
import { secondBackendRun } from "../helpers/once.js";

const cli = join(packageRoot(), "dist", "ts", "cli", "main.js");
const built = existsSync(cli);
const varmap = (...args: string[]) => spawnSync(process.execPath, [cli, ...args], { encoding: "utf8" });
const root = mkdtempSync(join(tmpdir(), "varmap-report-data-"));
const one = join(root, "one.csv");
const two = join(root, "two.csv");
const job = join(root, "refit");

beforeAll(() => {
  if (!built) return;
  for (const s of [
    ["synth", "--design", "moana", "--maps", "1", "--out", one, "--quiet"],
    ["synth", "--design", "moana", "--maps", "2", "--out", two, "--quiet"],
    ["refit", one, "--preset", "moana", "--methods", "lr", "--no-mixtures", "--out", job, "--quiet"],
  ]) {
    const r = varmap(...s);
    if (r.status !== 0) throw new Error(`varmap ${s[0]} failed: ${r.stderr}`);
  }
}, 120_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe.skipIf(secondBackendRun || !built)("report --data against the job's data", () => {
  it("accepts the job's own data", () => {
    const r = varmap("report", job, "--data", one, "--preset", "moana", "--out", join(root, "ok.html"), "--quiet");
    expect(r.status, r.stderr).toBe(0);
  });

  it.each([
    ["another file (a map the job did not fit)", [two], /did not fit/],
    ["the job's file under another --where", [one, "--where", "threads > 1"], /configurations here, 810 in the job/],
  ])("refuses %s", (_what, args, message) => {
    const out = join(root, "bad.html");
    const r = varmap("report", job, "--data", ...args, "--preset", "moana", "--out", out, "--quiet");
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/E_REPORT_DATA_MISMATCH/);
    expect(r.stderr).toMatch(message);
    expect(existsSync(out)).toBe(false);
  });
});
