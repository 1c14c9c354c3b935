// Golden tests of Γ_q(n) against shared/golden/samplesize-anchor*.{csv,txt} (spec A.5 items 1–4).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { Mixture } from "../../ts/mixture/model.js";
import { deltaQuantileSE, fisherExpected, gammaQ, quantileGradient, quantileRunsNeeded } from "../../ts/mixture/samplesize.js";
import { goldenPath, hasShared, readCsv, sharedSkipReason } from "../helpers/shared.js";

const W = [0.03977, 0.96023],
  A = [1.6023, -0.06634];
const READINGS: Record<string, number[]> = { sd: [2.3462, 0.8376], var: [Math.sqrt(2.3462), Math.sqrt(0.8376)] };
const table7 = (reading: string) => new Mixture("normal", W, A, READINGS[reading]);
const QS = [0.05, 0.1, 0.9, 0.95];

const rel = (a: number, b: number) => Math.abs(a - b) / Math.abs(b);

/** The numbers under one reading's header in the detail file: the Fisher matrix, gradients and se1 per q. */
function detail(reading: string): { I: number[][]; g: Record<string, number[]>; se1: Record<string, number> } {
  const text = readFileSync(goldenPath("samplesize-anchor-detail.txt"), "utf8");
  const block = text.split(`=== reading "${reading}"`)[1].split("=== reading")[0];
  const lines = block.split("\n");
  const at = lines.findIndex((l) => l.includes("Fisher information I (quad)"));
  const I = lines.slice(at + 1, at + 6).map((l) => l.trim().split(/\s+/).map(Number));
  const g: Record<string, number[]> = {},
    se1: Record<string, number> = {};
  for (const m of block.matchAll(/q=([0-9.]+): x_q=[^\n]*\n\s*g = dx_q\/dtheta = \[([^\]]*)\]; sqrt\(g'I\^-1 g\) = ([0-9.e+-]+)/g)) {
    g[m[1]] = m[2].trim().split(/\s+/).map(Number);
    se1[m[1]] = Number(m[3]);
  }
  return { I, g, se1 };
}

describe.skipIf(!hasShared)("samplesize golden (Table 7 of seed 001)", () => {
  if (!hasShared) console.warn(sharedSkipReason);
  it("samplesize-anchor.csv: all 48 rows, x_q within 1e-12 and Γ within 1e-9 relative", () => {
    const rows = readCsv(goldenPath("samplesize-anchor.csv"));
    expect(rows.length).toBe(48);
    const cache = new Map<string, ReturnType<typeof deltaQuantileSE>>();
    for (const row of rows) {
      const reading = String(row.reading);
      if (!cache.has(reading)) cache.set(reading, deltaQuantileSE(table7(reading), QS, { center: "none" }));
      const r = cache.get(reading)!.quantiles.find((x) => x.q === row.q)!;
      expect(rel(r.xq, Number(row.x_q))).toBeLessThan(1e-12);
      expect(rel(gammaQ(r.se1, r.xq, 0, Number(row.n)), Number(row.gamma_q))).toBeLessThan(1e-9);
    }
  });

  it("samplesize-anchor-detail.txt: Fisher matrix, gradients and se1 of the sd reading within 1e-9", () => {
    const d = detail("sd");
    expect(Object.keys(d.g).length).toBe(4);
    expect(d.I.flat().length).toBe(25);
    const m = table7("sd");
    const info = fisherExpected(m);
    for (let i = 0; i < 5; i++) for (let j = 0; j < 5; j++) expect(rel(info.I[i * 5 + j], d.I[i][j])).toBeLessThan(1e-9);
    // ∫ s f = 0 (A.5 item 7)
    for (const v of info.meanScore) expect(Math.abs(v)).toBeLessThan(1e-12);
    const r = deltaQuantileSE(m, QS);
    for (const q of QS) {
      const gq = quantileGradient(m, q).g;
      const ref = d.g[String(q)];
      // the detail file prints g to 10 decimals (≈1e-10 absolute)
      for (let i = 0; i < 5; i++) expect(Math.abs(gq[i] - ref[i])).toBeLessThan(1e-9 * Math.max(1, Math.abs(ref[i])));
      expect(rel(r.quantiles.find((x) => x.q === q)!.se1, d.se1[String(q)])).toBeLessThan(1e-9);
    }
    expect(r.rcond).toBeGreaterThan(1e-13);
  });

  it("the var reading's Fisher matrix in variance parameters and its se1 within 1e-9", () => {
    const d = detail("var");
    const m = table7("var");
    const info = fisherExpected(m, "variance");
    for (let i = 0; i < 5; i++) for (let j = 0; j < 5; j++) expect(rel(info.I[i * 5 + j], d.I[i][j])).toBeLessThan(1e-9);
    const r = deltaQuantileSE(m, QS, { bScale: "variance" });
    for (const q of QS) expect(rel(r.quantiles.find((x) => x.q === q)!.se1, d.se1[String(q)])).toBeLessThan(1e-9);
  });

  it("runs needed for Table 7 (A.5 item 3)", () => {
    const expected: Record<string, number[]> = { sd: [7, 159, 635, 188], var: [6, 150, 599, 171] };
    for (const reading of ["sd", "var"]) {
      const r = deltaQuantileSE(table7(reading), QS);
      const need = (qs: number[], tau: number) => Math.max(...r.quantiles.filter((x) => qs.includes(x.q)).map((x) => quantileRunsNeeded(x.se1, x.xq, 0, tau)));
      expect([need([0.1, 0.9], 0.5), need([0.1, 0.9], 0.1), need([0.1, 0.9], 0.05), need([0.05, 0.95], 0.1)]).toEqual(expected[reading]);
    }
    const sd = deltaQuantileSE(table7("sd"), [0.9]).quantiles[0];
    expect(gammaQ(sd.se1, sd.xq, 0, 250)).toBeCloseTo(0.0797, 4);
  });

  it("the paper's 1/√n claims (A.5 item 4): 6.3246% at n = 250 and 15.8114% at n = 40, to 1e-12", () => {
    for (const reading of ["sd", "var"]) {
      const r = deltaQuantileSE(table7(reading), [0.1, 0.9]).quantiles;
      const sum = (n: number) => r.reduce((s, x) => s + Math.abs(gammaQ(x.se1, x.xq, 0, n)), 0);
      expect(Math.abs(sum(250) / sum(1) - 1 / Math.sqrt(250))).toBeLessThan(1e-12);
      expect(Math.abs(sum(40) / sum(1) - 1 / Math.sqrt(40))).toBeLessThan(1e-12);
      expect(sum(250) / sum(1)).toBeCloseTo(0.063246, 6);
      expect(sum(40) / sum(1)).toBeCloseTo(0.158114, 6);
    }
  });
});
