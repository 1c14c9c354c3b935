// ANOVA properties on constructed data, and `varmap effects` end to end (ANOVA, importance, partial dependence,
// the effects figure) on a small synthetic map.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { counterRng } from "../../ts/data/random.js";
import { anova, covariateOf, factorOf, fUpperTail } from "../../ts/effects/anova.js";
import { effectsSpec } from "../../ts/report/plots/effects.js";
import { readTable } from "../../ts/report/table.js";
import { renderSvg, themed, type TopLevelSpec } from "../../ts/report/render.js";
import { schemaErrors } from "../report/svg.js";

const CLI = join(process.cwd(), "dist/ts/cli/main.js");

describe("anova", () => {
  // An unbalanced 3 × 4 design with a covariate: y = a-effect + 0.5 x + noise, b irrelevant.
  const r = counterRng(5, "anova");
  const n = 90;
  const a = Array.from({ length: n }, (_, i) => (i < 50 ? 0 : i < 75 ? 1 : 2));
  const b = Array.from({ length: n }, () => r.int(4));
  const x = Array.from({ length: n }, () => r.next() * 10);
  const y = Float64Array.from({ length: n }, (_, i) => [0, 2, 5][a[i]] + 0.5 * x[i] + 0.3 * r.normal());
  const t = anova(y, [factorOf("a", a), factorOf("b", b), covariateOf("x", x)], { interactions: true });

  it("degrees of freedom, sums of squares adding up, relevant terms significant, irrelevant not", () => {
    const row = (name: string) => t.rows.find((q) => q.term === name)!;
    expect(row("a").df).toBe(2);
    expect(row("b").df).toBe(3);
    expect(row("x").df).toBe(1);
    expect(row("a:b").df).toBe(6);
    expect(row("a:x").df).toBe(2);
    expect(t.residual.df).toBe(n - 1 - 2 - 3 - 1 - 6 - 2 - 3);
    // Type I sums of squares and the residual add up to the total.
    const ss1 = t.rows.reduce((s, q) => s + q.ssType1, 0) + t.residual.ss;
    expect(ss1).toBeCloseTo(t.totalSs, 8);
    expect(row("a").pType2).toBeLessThan(1e-10);
    expect(row("x").pType2).toBeLessThan(1e-10);
    expect(row("b").pType2).toBeGreaterThan(0.001);
    expect(row("a").partialEta2).toBeGreaterThan(0.9);
  });
  it("type II of the last term equals its type I; unbalanced main effects differ between types", () => {
    const last = t.rows[t.rows.length - 1];
    expect(last.ssType2).toBeCloseTo(last.ssType1, 9);
    const b = t.rows.find((q) => q.term === "b")!;
    expect(Math.abs(b.ssType1 - b.ssType2)).toBeGreaterThan(1e-6);
  });
  it("F upper tail matches pf(lower.tail = FALSE) / scipy f.sf", () => {
    // scipy.stats.f.sf(2.5, 3, 40) = 0.07325435201794983; f.sf(1, 1, 1e6) = 0.3173107498335783
    expect(fUpperTail(2.5, 3, 40)).toBeCloseTo(0.07325435201794983, 12);
    expect(fUpperTail(1, 1, 1e6)).toBeCloseTo(0.3173107498335783, 9);
  });
});

describe("varmap effects", () => {
  const dir = mkdtempSync(join(tmpdir(), "varmap-effects-"));
  const data = join(dir, "runs.csv");
  const models = join(dir, "mars.json");
  it("writes the ANOVA, importance and partial-dependence tables, and each draws as the effects figure", async () => {
    execFileSync("node", [CLI, "synth", "--design", "moana", "--maps", "1", "--out", data, "--quiet"]);
    execFileSync("node", [CLI, "fit", data, "--preset", "moana", "--method", "mars", "--out", models, "--quiet"]);
    const out = join(dir, "anova.csv");
    const imp = join(dir, "imp.csv");
    const pd = join(dir, "pd.csv");
    const res = spawnSync(
      "node",
      [
        CLI,
        "effects",
        data,
        "--preset",
        "moana",
        "--combine",
        "fsize_kb+rsize_kb",
        "--models",
        models,
        "--importance-out",
        imp,
        "--pd-out",
        pd,
        "--out",
        out,
        "--json",
      ],
      { encoding: "utf8" },
    );
    expect(res.status, res.stderr).toBe(0);
    const s = JSON.parse(res.stdout);
    expect(s.maps).toHaveLength(1);
    const terms = s.maps[0].anova.map((r: { term: string }) => r.term);
    expect(terms).toEqual(["freq_khz", "threads", "fsize_kb+rsize_kb", "freq_khz:threads", "freq_khz:fsize_kb+rsize_kb", "threads:fsize_kb+rsize_kb"]);
    // Threads dominate the synthetic design's sd, as in the real fread data.
    const top = [...s.maps[0].anova].sort((p: { partialEta2: number }, q: { partialEta2: number }) => q.partialEta2 - p.partialEta2)[0];
    expect(top.term).toBe("threads");
    const importance = s.maps[0].importance as { input: string; importance: number; marsTerms: number }[];
    expect(importance.map((i) => i.input).sort()).toEqual(["freq_khz", "fsize_kb", "rsize_kb", "threads"]);
    const most = importance.reduce((p, q) => (q.importance > p.importance ? q : p));
    expect(most.input).toBe("threads");
    expect(importance.every((i) => Number.isInteger(i.marsTerms))).toBe(true);
    for (const f of [out, imp, pd]) {
      const spec = effectsSpec(await readTable(f), { file: f });
      expect((spec as { data: { values: unknown[] } }).data.values.length).toBeGreaterThan(0);
      expect(schemaErrors(themed(spec as TopLevelSpec))).toEqual([]);
      const { svg, warnings } = await renderSvg(spec as TopLevelSpec);
      expect(warnings).toEqual([]);
      expect(svg).toContain("<svg");
    }
    const anovaLines = readFileSync(out, "utf8").trim().split("\n");
    expect(anovaLines[0]).toBe("host_sched,vm_sched,mode,term,df,ss_type1,f_type1,p_type1,ss_type2,f_type2,p_type2,partial_eta2");
    expect(anovaLines.at(-1)).toContain("Residuals");
  }, 60_000);
  it("--importance-out without --models: exit 2, nothing written", () => {
    const out = join(dir, "x.csv");
    const res = spawnSync("node", [CLI, "effects", data, "--preset", "moana", "--importance-out", join(dir, "i.csv"), "--out", out], { encoding: "utf8" });
    expect(res.status).toBe(2);
    expect(res.stderr).toContain("--models");
    expect(existsSync(out)).toBe(false);
  });
});
