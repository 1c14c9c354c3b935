// The screening statistics on data with a known answer, and the verb end to end on a small synthetic design.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { counterRng } from "../../ts/data/random.js";
import { dipPValue, dipStatistic } from "../../ts/screen/dip.js";
import { DIP_TABLE_N, DIP_TABLE_P, DIP_TABLE_Q } from "../../ts/screen/dip-table.js";
import { bhAdjust, lag1, runsTest, shape } from "../../ts/screen/moments.js";
import { shapiroWilk } from "../../ts/screen/shapiro.js";

const CLI = join(process.cwd(), "dist/ts/cli/main.js");
const sorted = (x: number[]) => Float64Array.from(x).sort();

describe("Shapiro–Wilk", () => {
  it("matches R's shapiro.test on small samples (n = 3 exact branch, n ≤ 11 and n ≥ 12 branches)", () => {
    // scipy 1.17 stats.shapiro (the same AS R94 code as R's shapiro.test) on c(1, 2, 4) and 1:20.
    const a = shapiroWilk(sorted([1, 2, 4]));
    expect(a.w).toBeCloseTo(0.9642857142857142, 12);
    expect(a.p).toBeCloseTo(0.6368868450289689, 8);
    const b = shapiroWilk(sorted(Array.from({ length: 20 }, (_, i) => i + 1)));
    expect(b.w).toBeCloseTo(0.9603751832429884, 9);
    expect(b.p).toBeCloseTo(0.5513717457916771, 8);
  });
  it("rejects a bimodal sample and not a normal one; NaN outside 3…5000 or with zero range", () => {
    const r = counterRng(7, "sw");
    const normal = sorted(Array.from({ length: 200 }, () => r.normal()));
    const bimodal = sorted(Array.from({ length: 200 }, (_, i) => (i % 2 ? 5 : 0) + r.normal()));
    expect(shapiroWilk(normal).p).toBeGreaterThan(0.01);
    expect(shapiroWilk(bimodal).p).toBeLessThan(1e-4);
    expect(shapiroWilk(sorted([1, 2])).w).toBeNaN();
    expect(shapiroWilk(sorted([3, 3, 3, 3])).p).toBeNaN();
    expect(shapiroWilk(new Float64Array(5001).map((_, i) => i)).w).toBeNaN();
  });
});

describe("dip test", () => {
  it("the table is sorted and made from a simulation large enough for 0.01 p-values", () => {
    for (const row of DIP_TABLE_Q) for (let k = 1; k < row.length; k++) expect(row[k]).toBeGreaterThanOrEqual(row[k - 1]);
    expect(DIP_TABLE_P[0]).toBe(0);
    expect(DIP_TABLE_P[DIP_TABLE_P.length - 1]).toBe(1);
    expect(DIP_TABLE_N).toContain(30);
    expect(DIP_TABLE_N).toContain(50);
  });
  it("unimodal samples have large p, two separated modes tiny p; the dip is at least 1/(2n) and at most 1/4", () => {
    const r = counterRng(11, "dip");
    const uni = sorted(Array.from({ length: 100 }, () => r.normal()));
    const bi = sorted(Array.from({ length: 100 }, (_, i) => (i % 2 ? 6 : 0) + r.normal()));
    const du = dipStatistic(uni);
    const db = dipStatistic(bi);
    expect(du).toBeGreaterThanOrEqual(1 / 200);
    expect(db).toBeLessThanOrEqual(0.25);
    expect(dipPValue(du, 100)).toBeGreaterThan(0.05);
    expect(dipPValue(db, 100)).toBeLessThan(0.001);
    // Two point masses of equal weight: the largest dip there is, 1/4.
    expect(dipStatistic(sorted([0, 0, 0, 0, 1, 1, 1, 1]))).toBeCloseTo(0.25, 12);
    expect(dipPValue(0.1, 3)).toBe(1);
  });
  it("simulated p-values of uniform samples are about uniform (the table is calibrated)", () => {
    const r = counterRng(3, "dip-calibration");
    const n = 40;
    let below = 0;
    const M = 2000;
    for (let i = 0; i < M; i++) {
      const x = sorted(Array.from({ length: n }, () => r.next()));
      if (dipPValue(dipStatistic(x), n) < 0.1) below++;
    }
    // Binomial(2000, 0.1): sd 13.4; 5 sd either side.
    expect(below).toBeGreaterThan(200 - 67);
    expect(below).toBeLessThan(200 + 67);
  });
});

describe("moments, lag-1, runs test, BH", () => {
  it("skewness/kurtosis and SEs as e1071 type 2 and SPSS", () => {
    const x = [2, 3, 5, 8, 13, 21];
    const m = x.reduce((a, b) => a + b) / x.length;
    const s = shape(x, m);
    // scipy: skew(x, bias=False) = 1.13497184157035, kurtosis(x, bias=False) = 0.5859375; SES(6), SEK(6) by formula.
    expect(s.skewness).toBeCloseTo(1.13497184157035, 12);
    expect(s.kurtosis).toBeCloseTo(0.5859375, 12);
    expect(s.skewnessSe).toBeCloseTo(0.8451542547285166, 12);
    expect(s.kurtosisSe).toBeCloseTo(1.7407765595569784, 12);
  });
  it("a drifting series has lag-1 near 1 and few runs; alternation many runs", () => {
    const drift = Array.from({ length: 40 }, (_, i) => i + Math.sin(i));
    const mean = drift.reduce((a, b) => a + b) / 40;
    expect(lag1(drift, mean)).toBeGreaterThan(0.8);
    const t = runsTest(
      drift,
      [...drift].sort((a, b) => a - b).reduce((a, _, i, s) => (i === 19 ? (s[19] + s[20]) / 2 : a), 0),
    );
    expect(t.runs).toBe(2);
    expect(t.p).toBeLessThan(1e-6);
    const alt = Array.from({ length: 40 }, (_, i) => i % 2);
    expect(runsTest(alt, 0.5).z).toBeGreaterThan(5);
  });
  it("BH equals R's p.adjust(method = 'BH'), NaN left out", () => {
    // p.adjust(c(0.01, 0.04, 0.03, 0.2, NA), "BH") = 0.04 0.05333 0.05333 0.20 NA
    const q = bhAdjust([0.01, 0.04, 0.03, 0.2, Number.NaN]);
    [0.04, 0.16 / 3, 0.16 / 3, 0.2].forEach((v, i) => expect(q[i]).toBeCloseTo(v, 15));
    expect(q[4]).toBeNaN();
  });
});

describe("varmap screen", () => {
  const dir = mkdtempSync(join(tmpdir(), "varmap-screen-"));
  const data = join(dir, "runs.csv");
  it("screens a synthetic design and prints the headline", () => {
    execFileSync("node", [CLI, "synth", "--design", "moana", "--maps", "2", "--out", data, "--quiet"]);
    const out = join(dir, "screen.csv");
    const maps = join(dir, "maps.csv");
    const res = spawnSync("node", [CLI, "screen", data, "--preset", "moana", "--out", out, "--maps-out", maps, "--json"], {
      encoding: "utf8",
    });
    expect(res.status, res.stderr).toBe(0);
    const s = JSON.parse(res.stdout);
    expect(s.headline).toMatch(/% of configurations are not normal, .*% multimodal, .*% drift/);
    const lines = readFileSync(out, "utf8").trim().split("\n");
    expect(lines[0]).toContain("sw_w,sw_p,sw_q,dip,dip_p,dip_q,skewness,skewness_se,kurtosis,kurtosis_se,lag1,runs,runs_z,runs_p,runs_q");
    expect(lines.length - 1).toBe(s.configurations);
    expect(s.maps.length).toBe(2);
    expect(readFileSync(maps, "utf8").trim().split("\n").length).toBe(3);
  });
  it("bad input: exit 2, nothing written", () => {
    const out = join(dir, "bad.csv");
    const res = spawnSync("node", [CLI, "screen", data, "--preset", "moana", "--out", out, "--alpha", "2"], { encoding: "utf8" });
    expect(res.status).toBe(2);
    expect(res.stderr).toContain("--alpha");
    expect(existsSync(out)).toBe(false);
  });
});
