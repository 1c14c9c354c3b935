// `varmap cv --leave-out COLS [--group-folds K]` (issue 41) on one synthetic MOANA map (810 configurations, six
// (fsize_kb, rsize_kb) pairs): one row per method × group in are.csv, extrapolated corners apart, Kendall's τ and the
// group-aware interval coverage in table2.md; bad input exits 2 with a coded error and writes nothing. Spawns the CLI.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readCsv } from "../helpers/shared.js";
import { cliBuilt, cliIn } from "../helpers/cli.js";

const dir = mkdtempSync(join(tmpdir(), "varmap-cv-leave-out-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const varmap = cliIn(dir);
const runs = join(dir, "runs.csv");

describe.skipIf(!cliBuilt)("cv --leave-out", () => {
  beforeAll(() => {
    const r = varmap("synth", "--design", "moana", "--maps", "1", "--out", runs, "--quiet", "--workers", "1");
    expect(r.code, r.err).toBe(0);
  });

  it("scores every method on every held-out (fsize, rsize) pair, corners marked extrapolated, with intervals", () => {
    const out = join(dir, "go");
    const r = varmap(
      "cv",
      runs,
      "--preset",
      "moana",
      "--leave-out",
      "fsize_kb,rsize_kb",
      "--methods",
      "lr,mars,hybrid",
      "--interval",
      "0.9",
      "--workers",
      "1",
      "--out",
      out,
      "--quiet",
      "--json",
    );
    expect(r.code, r.err).toBe(0);
    const rows = readCsv(join(out, "are.csv"));
    expect(rows).toHaveLength(3 * 6);
    const groups = [...new Set(rows.map((x) => x.group))];
    expect(groups).toEqual([
      "fsize_kb=64;rsize_kb=32",
      "fsize_kb=256;rsize_kb=32",
      "fsize_kb=256;rsize_kb=128",
      "fsize_kb=1024;rsize_kb=32",
      "fsize_kb=1024;rsize_kb=128",
      "fsize_kb=1024;rsize_kb=512",
    ]);
    for (const x of rows) {
      expect(x.test).toBe(135);
      expect(Number.isFinite(x.are as number)).toBe(true);
      expect(x.coverage as number).toBeGreaterThanOrEqual(0);
      expect(x.coverage as number).toBeLessThanOrEqual(1);
      // The two corners lie outside the training range once held out; the other four pairs inside.
      const corner = x.group === "fsize_kb=64;rsize_kb=32" || x.group === "fsize_kb=1024;rsize_kb=512";
      expect(x.extrapolated).toBe(corner ? 1 : 0);
    }
    // hybrid answers novel combinations with mars: the same predictions, so the same ARE.
    for (const g of groups)
      expect(rows.find((x) => x.group === g && x.method === "hybrid")!.are).toBe(rows.find((x) => x.group === g && x.method === "mars")!.are);
    const md = readFileSync(join(out, "table2.md"), "utf8");
    expect(md).toContain("Kendall's τ");
    expect(md).toContain("| fsize_kb=1024;rsize_kb=512 | yes (rsize_kb) |");
    const s = JSON.parse(r.out).summary;
    expect(s.methods.mars.interior.groups).toBe(4);
    expect(s.methods.mars.extrapolated.groups).toBe(2);
    expect(s.methods.mars.tau).toBeGreaterThanOrEqual(-1);
    expect(s.methods.mars.tau).toBeLessThanOrEqual(1);
  });

  it("--group-folds K holds out folds of whole groups, still one row per group", () => {
    const out = join(dir, "folds");
    const r = varmap(
      "cv",
      runs,
      "--preset",
      "moana",
      "--leave-out",
      "fsize_kb,rsize_kb",
      "--group-folds",
      "3",
      "--methods",
      "lr",
      "--workers",
      "1",
      "--out",
      out,
      "--quiet",
    );
    expect(r.code, r.err).toBe(0);
    expect(readCsv(join(out, "are.csv"))).toHaveLength(6);
  });

  it("a factor as the group is the whole map: a counted skip with its reason, no NaN score", () => {
    const out = join(dir, "factor");
    const r = varmap("cv", runs, "--preset", "moana", "--leave-out", "mode", "--methods", "lr", "--workers", "1", "--out", out, "--quiet");
    expect(r.code, r.err).toBe(0);
    const rows = readCsv(join(out, "are.csv"));
    expect(rows).toHaveLength(1);
    expect(rows[0].skipped).toBe(1);
    expect(String(rows[0].reason)).toContain("empty training set");
  });

  it("an unknown column or too many group folds exits 2 with a coded error and writes nothing", () => {
    const bad = join(dir, "bad");
    let r = varmap("cv", runs, "--preset", "moana", "--leave-out", "fsize_kb,nosuch", "--methods", "lr", "--out", bad);
    expect(r.code).toBe(2);
    expect(r.err).toContain("E_LEAVE_OUT");
    expect(r.err).toContain("nosuch");
    r = varmap("cv", runs, "--preset", "moana", "--leave-out", "fsize_kb,rsize_kb", "--group-folds", "7", "--methods", "lr", "--out", bad);
    expect(r.code).toBe(2);
    expect(r.err).toContain("E_GROUP_FOLDS");
    // The distribution target checks the columns the same way.
    r = varmap("cv", runs, "--preset", "moana", "--target", "distribution", "--leave-out", "nosuch", "--out", bad);
    expect(r.code).toBe(2);
    expect(r.err).toContain("E_LEAVE_OUT");
    expect(existsSync(bad)).toBe(false);
  });
});
