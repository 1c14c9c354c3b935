// GEV extras of issue 45: parametric-bootstrap KS/AD p-values, two-condition comparison, covariates in location
// and log-scale — against R evd (fgev, and optim on dgev) on data committed in test/fixtures/gev-r/.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { getBackend } from "../../ts/backend/index.js";
import { counterRng } from "../../ts/data/random.js";
import { compareGev } from "../../ts/evt/compare.js";
import { DEFAULT_GEV_OPTIONS, fitGevConfigs } from "../../ts/evt/configs.js";
import { chi2Sf, fitGevCovariates } from "../../ts/evt/covariates.js";
import { gevQuantile } from "../../ts/evt/gev.js";

const FIX = join(process.cwd(), "test/fixtures/gev-r");
const CLI = join(process.cwd(), "dist/ts/cli/main.js");
const ref: Record<string, number[]> = Object.fromEntries(
  readFileSync(join(FIX, "reference.txt"), "utf8")
    .trim()
    .split("\n")
    .map((l) => {
      const [k, ...v] = l.trim().split(/\s+/);
      return [k, v.map(Number)];
    }),
);
const csv = (name: string) =>
  readFileSync(join(FIX, name), "utf8")
    .trim()
    .split("\n")
    .slice(1)
    .map((l) => l.split(","));
const rel = (a: number, b: number) => Math.abs(a - b) / Math.max(1e-12, Math.abs(b));

describe("GEV with covariates against R evd", () => {
  const rows = csv("cov-data.csv");
  const y = Float64Array.from(rows, (r) => Number(r[0]));
  const M = Float64Array.from(rows, (r) => Number(r[1]));
  it("location linear in log m equals fgev(nsloc =) (estimates to 1e-4, nllh to 1e-8, SEs to 1e-3)", () => {
    const f = fitGevCovariates(getBackend(), y, M, 1, new Float64Array(0), 0);
    expect(f).not.toBeNull();
    if (!f) return;
    const [b0, b1, sc, xi, se0, se1, seS, seXi, nllh] = ref.fgev_nsloc;
    expect(rel(f.loc[0], b0)).toBeLessThan(1e-4);
    expect(rel(f.loc[1], b1)).toBeLessThan(1e-4);
    expect(rel(Math.exp(f.logScale[0]), sc)).toBeLessThan(1e-4);
    expect(rel(f.shape, xi)).toBeLessThan(1e-3);
    // Ours is the optimum: at most R's nllh (R's optim stops a little short).
    expect(f.nllh).toBeLessThanOrEqual(nllh + 1e-8);
    expect(rel(f.nllh, nllh)).toBeLessThan(1e-8);
    expect(rel(f.se[0], se0)).toBeLessThan(1e-3);
    expect(rel(f.se[1], se1)).toBeLessThan(1e-3);
    expect(rel(Math.exp(f.logScale[0]) * f.se[2], seS)).toBeLessThan(1e-3);
    expect(rel(f.se[3], seXi)).toBeLessThan(1e-3);
    expect(rel(f.stationaryNllh, ref.fgev_stationary[3])).toBeLessThan(1e-8);
    expect(f.lrP).toBeLessThan(1e-100);
  });
  it("location and log-scale linear in log m equal R's optim on dgev (as ismev gev.fit(mul, sigl, siglink = exp))", () => {
    const f = fitGevCovariates(getBackend(), y, M, 1, M, 1);
    expect(f).not.toBeNull();
    if (!f) return;
    const r = ref.optim_locscale;
    const est = [...f.loc, ...f.logScale, f.shape];
    for (let j = 0; j < 5; j++) expect(Math.abs(est[j] - r[j]), `parameter ${j}`).toBeLessThan(2e-6);
    for (let j = 0; j < 5; j++) expect(rel(f.se[j], r[5 + j]), `se ${j}`).toBeLessThan(1e-4);
    expect(rel(f.nllh, r[10])).toBeLessThan(1e-9);
    expect(f.df).toBe(2);
  });
  it("χ² upper tail", () => {
    // pchisq(5.99146454710798, 2, lower.tail = FALSE) = 0.05; pchisq(3.84145882069412, 1, FALSE) = 0.05
    expect(chi2Sf(5.99146454710798, 2)).toBeCloseTo(0.05, 12);
    expect(chi2Sf(3.84145882069412, 1)).toBeCloseTo(0.05, 10);
    expect(chi2Sf(30, 4)).toBeCloseTo(4.89443e-6, 10);
  });
});

describe("two conditions against R evd", () => {
  const rows = csv("cmp-data.csv");
  const xa = Float64Array.from(
    rows.filter((r) => r[1] === "a"),
    (r) => Number(r[0]),
  );
  const xb = Float64Array.from(
    rows.filter((r) => r[1] === "b"),
    (r) => Number(r[0]),
  );
  it("separate fits as fgev, common-shape fit and LR test as R's optim", () => {
    const c = compareGev(getBackend(), xa, xb, { level: 0.95, boot: 0, seed: 1, key: [] });
    expect("invalid" in c).toBe(false);
    if ("invalid" in c) return;
    expect(rel(c.a.params.loc, ref.fgev_a[0])).toBeLessThan(1e-5);
    expect(rel(c.b.params.scale, ref.fgev_b[1])).toBeLessThan(1e-5);
    expect(rel(c.a.nllh, ref.fgev_a[6])).toBeLessThan(1e-9);
    const cs = ref.common_shape;
    expect(Math.abs(c.commonShape - cs[4])).toBeLessThan(1e-6);
    expect(Math.abs(c.lrShape - cs[6])).toBeLessThan(1e-6);
    expect(Math.abs(c.lrShapeP - cs[7])).toBeLessThan(1e-7);
    expect(c.loc.ratio).toBeCloseTo(c.b.params.loc / c.a.params.loc, 12);
    // The true ratios (2 and 2) inside the 95 % intervals.
    expect(c.loc.lo).toBeLessThan(2);
    expect(c.loc.hi).toBeGreaterThan(2);
    expect(c.scale.lo).toBeLessThan(2);
    expect(c.scale.hi).toBeGreaterThan(2);
  });
  it("bootstrap percentile intervals bracket the estimate and resemble the delta-method ones", () => {
    const c = compareGev(getBackend(), xa, xb, { level: 0.9, boot: 200, seed: 3, key: ["t"] });
    if ("invalid" in c) throw new Error("no fit");
    expect(c.boot).toBeGreaterThan(190);
    expect(c.loc.bootLo).toBeLessThan(c.loc.ratio);
    expect(c.loc.bootHi).toBeGreaterThan(c.loc.ratio);
    expect(Math.abs(c.loc.bootHi - c.loc.bootLo - (c.loc.hi - c.loc.lo))).toBeLessThan(0.5 * (c.loc.hi - c.loc.lo));
  });
});

describe("--gof-boot", () => {
  it("GEV samples get unremarkable p-values, a two-regime sample tiny ones", () => {
    const r = counterRng(9, "gof");
    const gev = Float64Array.from({ length: 150 }, () => gevQuantile(r.next(), { loc: 10, scale: 1, shape: 0.1 }));
    const two = Float64Array.from({ length: 150 }, (_, i) => (i % 3 ? 10 : 14) + 0.3 * r.normal());
    const runs = new Float64Array([...gev, ...two]);
    const res = fitGevConfigs(getBackend(), runs, Int32Array.from([0, 150, 300]), 0, 2, { ...DEFAULT_GEV_OPTIONS, gofBoot: 99, seed: "1" });
    expect(res[0].cells.gof_boot).toBeGreaterThan(90);
    expect(res[0].cells.ks_p as number).toBeGreaterThan(0.05);
    expect(res[0].cells.ad_p as number).toBeGreaterThan(0.05);
    expect(res[1].cells.ks_p as number).toBeLessThan(0.02);
    expect(res[1].cells.ad_p as number).toBeLessThan(0.02);
    // Keyed by configuration: the same p-values whatever the chunking (job tasks, shards).
    const o = { ...DEFAULT_GEV_OPTIONS, gofBoot: 99, seed: "1" };
    const second = fitGevConfigs(getBackend(), runs, Int32Array.from([0, 150, 300]), 1, 2, o)[0];
    expect(second.cells.ks_p).toBe(res[1].cells.ks_p);
    expect(second.cells.ad_p).toBe(res[1].cells.ad_p);
  });
});

describe("varmap gev --compare / --loc-covariates", () => {
  const dir = mkdtempSync(join(tmpdir(), "varmap-gevx-"));
  const rows = csv("cmp-data.csv");
  const data = join(dir, "cmp.csv");
  writeFileSync(data, `y,cond,x,run\n${rows.map((r, i) => `${r[0]},${r[1]},1,${i}`).join("\n")}\n`);
  it("writes one comparison row; a bad COL=a,b exits 2", () => {
    const out = join(dir, "out.csv");
    const ok = spawnSync(
      "node",
      [CLI, "gev", data, "--factors", "cond", "--inputs", "x", "--response", "y", "--run", "run", "--compare", "cond=a,b", "--out", out, "--quiet"],
      {
        encoding: "utf8",
      },
    );
    expect(ok.status, ok.stderr).toBe(0);
    const lines = readFileSync(out, "utf8").trim().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain("loc_ratio,loc_ratio_se,loc_ratio_lo,loc_ratio_hi");
    const bad = spawnSync(
      "node",
      [CLI, "gev", data, "--factors", "cond", "--inputs", "x", "--response", "y", "--compare", "cond=a", "--out", join(dir, "bad.csv")],
      {
        encoding: "utf8",
      },
    );
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("COL=a,b");
  });
});
