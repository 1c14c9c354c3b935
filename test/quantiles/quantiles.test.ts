// `varmap quantiles` (a verb on the engine, issue 39): the distribution-free interval of a quantile has the order
// statistics and exact coverage of the binomial argument, covers at its level on skewed data, and opens a side when
// there are too few runs; the verb's shards merged are byte-identical to one run; bad options exit 2 with nothing written.
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { quantileInterval, runsForQuantileInterval } from "../../ts/data/stats.js";
import { writeSynth } from "../../ts/data/synth.js";
import { runQuantiles } from "../../ts/index.js";
import { mulberry32Open } from "../../ts/util/mulberry32.js";
import { cliBuilt, cliIn } from "../helpers/cli.js";
import { secondBackendRun } from "../helpers/once.js";

const ranks = (n: number) => Float64Array.from({ length: n }, (_, i) => i + 1);

describe("quantileInterval", () => {
  it("the median of 10 runs: order statistics 2 and 9, coverage 1 - 22/1024 (binomial, by hand)", () => {
    const ci = quantileInterval(ranks(10), 0.5, 0.95);
    expect([ci.low, ci.high]).toEqual([2, 9]);
    expect(ci.coverage).toBeCloseTo(1 - 22 / 1024, 12);
  });

  it("covers the true quantile at its level on exponential runs (2,000 samples of 40)", () => {
    const next = mulberry32Open(7);
    for (const p of [0.5, 0.9]) {
      const truth = -Math.log(1 - p);
      let covered = 0;
      let nominal = 0;
      for (let r = 0; r < 2000; r++) {
        const x = Float64Array.from({ length: 40 }, () => -Math.log(1 - next())).sort();
        const ci = quantileInterval(x, p, 0.9);
        nominal += ci.coverage / 2000;
        if (ci.low <= truth && truth <= ci.high) covered++;
      }
      expect(nominal).toBeGreaterThanOrEqual(0.9);
      // Binomial noise of 2,000 draws: 3 standard errors.
      expect(Math.abs(covered / 2000 - nominal)).toBeLessThan(3 * Math.sqrt((nominal * (1 - nominal)) / 2000));
    }
  });

  it("opens a side below the runs that close it, and closes both from there", () => {
    for (const [p, level] of [
      [0.99, 0.95],
      [0.5, 0.95],
      [0.9, 0.8],
      [0.01, 0.9],
    ]) {
      const n = runsForQuantileInterval(p, level);
      const short = quantileInterval(ranks(n - 1), p, level);
      const enough = quantileInterval(ranks(n), p, level);
      expect(Number.isNaN(short.low) || Number.isNaN(short.high), `p ${p} at ${n - 1}`).toBe(true);
      expect(Number.isFinite(enough.low) && Number.isFinite(enough.high), `p ${p} at ${n}`).toBe(true);
      expect(enough.coverage).toBeGreaterThanOrEqual(level);
    }
    expect(runsForQuantileInterval(0.5, 0.95)).toBe(6);
    expect(runsForQuantileInterval(0.99, 0.95)).toBe(368);
  });
});

describe.skipIf(secondBackendRun)("varmap quantiles", () => {
  const dir = mkdtempSync(join(tmpdir(), "varmap-quantiles-"));
  const runs = join(dir, "runs.csv");
  const where = ["--preset", "moana", "--where", "threads <= 2"];
  beforeAll(async () => {
    await writeSynth(runs, { design: "moana", seed: 5, maps: 1 });
  });

  it("from the library: one row per configuration, the columns per probability, the runs each interval needs", async () => {
    const s = await runQuantiles(runs, {
      data: { preset: "moana", where: "threads <= 2" },
      out: join(dir, "lib"),
      probs: [0.5, 0.999],
      chunk: 50,
      run: { workers: 0, quiet: true },
    });
    expect(s.summary?.quantiles).toEqual([
      { p: 0.5, column: "q50", closed: 180, runsNeeded: 6 },
      { p: 0.999, column: "q99_9", closed: 0, runsNeeded: 3688 },
    ]);
    const lines = readFileSync(join(dir, "lib", "quantiles.csv"), "utf8")
      .trim()
      .split("\n");
    expect(lines).toHaveLength(181);
    expect(lines[0]).toBe(
      "host_sched,vm_sched,mode,freq_khz,threads,fsize_kb,rsize_kb,runs,q50,q50_low,q50_high,q50_coverage,q99_9,q99_9_low,q99_9_high,q99_9_coverage",
    );
    // 40 runs: the p99.9 interval is open above (an empty cell).
    expect(lines[1].split(",")[14]).toBe("");
  });

  it.skipIf(!cliBuilt)("shards merged write what one run writes; bad options exit 2 with nothing written", () => {
    const varmap = cliIn(dir);
    const one = varmap("quantiles", runs, ...where, "--chunk", "40", "--workers", "2", "--out", "one", "--quiet");
    expect(one.code, one.err).toBe(0);
    for (const i of [1, 2, 3]) expect(varmap("quantiles", runs, ...where, "--chunk", "40", "--shard", `${i}/3`, "--out", `s${i}`, "--quiet").code).toBe(0);
    const merged = varmap("merge", "s1", "s2", "s3", "--out", "merged");
    expect(merged.code, merged.err).toBe(0);
    expect(readFileSync(join(dir, "merged", "quantiles.csv"), "utf8")).toBe(readFileSync(join(dir, "one", "quantiles.csv"), "utf8"));
    // A table file --out: the same table, computed in this thread.
    const file = varmap("quantiles", runs, ...where, "--out", "q.csv", "--quiet");
    expect(file.code, file.err).toBe(0);
    expect(readFileSync(join(dir, "q.csv"), "utf8")).toBe(readFileSync(join(dir, "one", "quantiles.csv"), "utf8"));
    for (const [args, msg] of [
      [["--probs", "0.5,1.5"], /E_USAGE.*--probs/],
      [["--level", "95"], /E_USAGE.*--level/],
      [["--out", "bad.csv", "--workers", "2"], /E_USAGE.*--workers need a job directory/],
    ] as [string[], RegExp][]) {
      const r = varmap("quantiles", runs, ...where, "--out", "bad", ...args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.err).toMatch(msg);
      expect(existsSync(join(dir, "bad")) || existsSync(join(dir, "bad.csv"))).toBe(false);
    }
  });
});
