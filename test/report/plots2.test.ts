// Spec-level tests of plot kinds P8 (convergence), P11 (samplesize) and P17 (ks), as test/report/plots.test.ts does
// for the others: schema-valid, rendered without warnings, the expected number of marks, and a table without the
// needed columns refused with E_PLOT_COLUMNS naming the verb that writes it.
import { describe, expect, it } from "vitest";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isVarmapError } from "../../ts/errors.js";
import { renderSvg, themed, type TopLevelSpec } from "../../ts/report/render.js";
import { analyticBand, convergenceSpec, type ConvergencePoint } from "../../ts/report/plots/convergence.js";
import { nStar, samplesizeSpec, type GammaPoint } from "../../ts/report/plots/samplesize.js";
import { ksRows, ksSpec, rejectionRates } from "../../ts/report/plots/ks.js";
import { plotKind } from "../../ts/report/plots/index.js";
import { ciFactors } from "../../ts/convergence/convergence.js";
import { ksThreshold } from "../../ts/distribution/ks.js";
import type { Row } from "../../ts/report/table.js";
import { markCount, schemaErrors, texts } from "./svg.js";

async function check(spec: TopLevelSpec): Promise<string> {
  expect(schemaErrors(themed(spec))).toEqual([]);
  const { svg, warnings } = await renderSvg(spec);
  expect(warnings).toEqual([]);
  return svg;
}

/** The coded error a plot kind's fromFile gives for a table written to a temporary CSV. */
async function fileError(kind: string, csv: string, opts: Record<string, unknown> = {}): Promise<{ code?: string; message: string }> {
  const f = join(mkdtempSync(join(tmpdir(), "varmap-plots2-")), "wrong.csv");
  writeFileSync(f, csv);
  try {
    await plotKind(kind)!.fromFile(f, opts);
  } catch (e) {
    return { code: isVarmapError(e) ? e.code : undefined, message: (e as Error).message + " " + String((e as { remedy?: string }).remedy ?? "") };
  }
  return { message: "no error" };
}

// One configuration's sd interval from m = 10..40 runs with s shrinking toward 2 and a predicted width 5% wider.
function convergenceCurve(): ConvergencePoint[] {
  const pts: ConvergencePoint[] = [];
  for (let m = 10; m <= 40; m++) {
    const f = ciFactors("sd", m, 0.9),
      s = 2 + 3 / m;
    pts.push({ m, lower: s * f.lower, upper: s * f.upper, w: s * f.width, c: NaN, w_pred: 1.05 * s * f.width, c_pred: NaN });
  }
  const w0 = pts[0].w,
    wN = pts[pts.length - 1].w;
  for (const p of pts) p.c = p.c_pred = (w0 - p.w) / (w0 - wN);
  return pts;
}

describe("convergence (P8)", () => {
  it("measured and predicted panels: a band, its edges, the dashed analytic edges, rules labelled at m_75 and m_90", async () => {
    const pts = convergenceCurve();
    const svg = await check(convergenceSpec(pts));
    expect(markCount(svg, "area")).toBe(2);
    expect(markCount(svg, "line")).toBe(8); // per panel: band edges 2, analytic edges 2
    expect(markCount(svg, "rule")).toBe(4);
    expect(markCount(svg, "text")).toBe(4);
    const m75 = pts.find((p) => p.c >= 0.75)!.m;
    expect(texts(svg)).toContain(`75% at ${m75}`);
    const measuredOnly = await check(convergenceSpec(pts.map(({ w_pred: _w, c_pred: _c, ...p }) => p)));
    expect(markCount(measuredOnly, "area")).toBe(1);
    expect(markCount(measuredOnly, "rule")).toBe(2);
  });

  it("the analytic band is the interval at N scaled by the CI factors (s fixed)", () => {
    const pts = convergenceCurve(),
      last = pts[pts.length - 1];
    const a = analyticBand(pts, "sd", 0.9);
    expect(a[a.length - 1].lower).toBeCloseTo(last.lower, 12);
    const sN = last.lower / ciFactors("sd", last.m, 0.9).lower;
    expect(a[0].upper).toBeCloseTo(sN * ciFactors("sd", 10, 0.9).upper, 12);
    const mean = analyticBand(
      [
        { m: 5, lower: 0, upper: 0, w: 0, c: 0 },
        { m: 20, lower: 9, upper: 11, w: 2, c: 1 },
      ],
      "mean",
      0.95,
    );
    expect(mean[0].upper - 10).toBeCloseTo(ciFactors("mean", 5, 0.95).upper / ciFactors("mean", 20, 0.95).upper, 12);
  });

  it("a table without its columns: E_PLOT_COLUMNS naming them and varmap convergence", async () => {
    const e = await fileError("convergence", "config,m,width\na,10,1\n");
    expect(e.code).toBe("E_PLOT_COLUMNS");
    expect(e.message).toMatch(/'lower'/);
    expect(e.message).toMatch(/varmap convergence/);
  });
});

describe("samplesize (P11)", () => {
  // Γ_q(n) = g_q/√n for q = 0.1 and 0.9 over n = 1..900, as samplesize --curves writes it.
  const pts: GammaPoint[] = [];
  for (const [q, g] of [
    [0.1, 2],
    [0.9, 4],
  ])
    for (let n = 1; n <= 900; n++) pts.push({ q, n, gamma: g / Math.sqrt(n) });

  it("2 lines × 900 points, a rule per τ and a rule at each n*", async () => {
    const stars = nStar(pts, [0.5, 0.1]);
    // |Γ| ≤ τ ⇔ n ≥ (g/τ)²: 16 and 400 for q = 0.1, 64 and 1600 (beyond the curve: none) for q = 0.9
    expect(stars).toEqual([
      { q: 0.1, tau: 0.5, n: 16 },
      { q: 0.1, tau: 0.1, n: 400 },
      { q: 0.9, tau: 0.5, n: 64 },
    ]);
    const svg = await check(samplesizeSpec(pts, { taus: [0.5, 0.1] }));
    expect(markCount(svg, "line")).toBe(2);
    expect(markCount(svg, "rule")).toBe(2 + 3);
    expect(markCount(svg, "text")).toBe(2); // the τ labels
    expect(texts(svg)).toEqual(expect.arrayContaining(["q = 0.1", "q = 0.9", "τ = 0.1"])); // legend and labels
    const path = /<g class="mark-line role-mark[^"]*"[^>]*>\s*<path[^>]* d="([^"]*)"/.exec(svg)![1];
    expect(path.split(/L/).length).toBe(900);
  });

  it("a table without its columns: E_PLOT_COLUMNS naming them and varmap samplesize", async () => {
    const e = await fileError("samplesize", "config,q,n,se\na,0.1,1,2\n");
    expect(e.code).toBe("E_PLOT_COLUMNS");
    expect(e.message).toMatch(/'gamma_q'/);
    expect(e.message).toMatch(/varmap samplesize/);
  });
});

describe("ks (P17)", () => {
  // Two methods, two training fractions, 20 predictions each with 50 runs; method b twice as far off.
  const rows: Row[] = [];
  for (const method of ["a", "b"])
    for (const p of [0.3, 0.7])
      for (let i = 0; i < 20; i++) {
        const ks = ((method === "a" ? 0.1 : 0.2) + i / 100) * (p === 0.3 ? 1.2 : 1);
        const rej = [0.05, 0.01, 0.001, 1e-6].map((l) => (ks > ksThreshold(l, 50) ? 1 : 0));
        rows.push({
          map: "m",
          method,
          weights: "idw",
          p,
          rep: 1,
          config: i,
          n: 50,
          ks,
          w1_rel: 0.1,
          "reject_0.05": rej[0],
          "reject_0.01": rej[1],
          "reject_0.001": rej[2],
          "reject_1e-06": rej[3],
          extrapolated: 0,
        });
      }
  rows.push({ ...rows[0], ks: "", "reject_0.05": "", "reject_0.01": "", "reject_0.001": "", "reject_1e-06": "", n: 3 }); // too few runs: left out

  it("20 bins per method, 4 critical-value rules per panel; a rejection line per (method, level)", async () => {
    const pts = ksRows(rows);
    expect(pts).toHaveLength(80);
    const rates = rejectionRates(pts);
    const a03 = rates.find((r) => r.method === "a" && r.p === 0.3 && r.level === "p = 0.05")!;
    expect(a03.pct).toBeCloseTo((100 * pts.filter((x) => x.method === "a" && x.p === 0.3 && x.ks > ksThreshold(0.05, 50)).length) / 20, 12);
    const svg = await check(ksSpec(pts));
    expect(markCount(svg, "rect")).toBe(2 * 20);
    expect(markCount(svg, "rule")).toBe(2 * 4);
    expect(markCount(svg, "line")).toBe(2 * 4);
    expect(markCount(svg, "symbol")).toBe(2 * 4 * 2);
    const at = await check(ksSpec(pts, { histogramP: 0.7, ksTest: "one-sample" }));
    expect(at.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ")).toMatch(
      /one-sample KS thresholds for p = 0.05, 0.01, 0.001, 1e-06 at the median run count n = 50; histogram at p = 0.7/,
    );
  });

  it("a table without its columns: E_PLOT_COLUMNS naming them and varmap cv --target distribution", async () => {
    const e = await fileError("ks", "method,p,n,ks\na,0.5,50,0.1\n");
    expect(e.code).toBe("E_PLOT_COLUMNS");
    expect(e.message).toMatch(/'reject_0.05'/);
    expect(e.message).toMatch(/varmap cv … --target distribution/);
  });
});
