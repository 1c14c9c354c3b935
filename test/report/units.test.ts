// Units on the axes of the GEV, sample-size and KS figures (issue 44 item 5: "no figure gives units"). Each
// assertion failed before: the axes read "run value", "return level", "|Γ_q(n)|" and "KS".
import { describe, expect, it } from "vitest";
import { renderSvg } from "../../ts/report/render.js";
import { gevSpec } from "../../ts/report/plots/gev.js";
import { samplesizeSpec, type GammaPoint } from "../../ts/report/plots/samplesize.js";
import { ksRows, ksSpec } from "../../ts/report/plots/ks.js";
import type { Row } from "../../ts/report/table.js";
import { texts } from "./svg.js";

describe("axis units", () => {
  it("gev: the runs' unit (--unit) on quantile, return-level and density axes; return periods in runs", async () => {
    const rows: Row[] = [];
    for (let i = 1; i <= 10; i++) {
      const p = i / 11;
      const x = 10 + i / 5;
      rows.push({ kind: "pp", x: p, y: p, lo: "", hi: "", outlier: "" });
      rows.push({ kind: "qq", x, y: x, lo: "", hi: "", outlier: "" });
      rows.push({ kind: "rl_point", x: -1 / Math.log(p), y: x, lo: x - 0.1, hi: x + 0.1, outlier: "false" });
    }
    for (const f of [0.1, 0.5, 0.9]) rows.push({ kind: "rl_curve", x: -1 / Math.log(f), y: 10 + f, lo: 9.9 + f, hi: 10.1 + f, outlier: "" });
    for (let j = 0; j <= 10; j++) rows.push({ kind: "density", x: 10 + j / 5, y: 0.5, lo: "", hi: "", outlier: "" });
    const t = texts((await renderSvg(gevSpec(rows, undefined, { unit: "KB/s" }))).svg);
    expect(t).toEqual(
      expect.arrayContaining([
        "run value (KB/s)",
        "return level (KB/s)",
        "return period (runs)",
        "empirical quantile (KB/s)",
        "density (per KB/s)",
        "empirical probability",
      ]),
    );
    // without --unit the axes say what they are and no unit is invented
    expect(texts((await renderSvg(gevSpec(rows, undefined))).svg)).toEqual(expect.arrayContaining(["run value", "return period (runs)"]));
  });

  it("samplesize and ks: Γ as a fraction of the quantile, KS as a distance in 0–1", async () => {
    const pts: GammaPoint[] = [];
    for (let n = 1; n <= 50; n++) pts.push({ q: 0.1, n, gamma: 1 / Math.sqrt(n) });
    expect(texts((await renderSvg(samplesizeSpec(pts))).svg)).toEqual(expect.arrayContaining(["runs n", "|Γ_q(n)| (relative SE of x_q, fraction)"]));
    const rows: Row[] = [];
    for (let i = 0; i < 10; i++)
      rows.push({
        map: "m",
        method: "a",
        weights: "idw",
        p: 0.5,
        rep: 1,
        config: i,
        n: 50,
        ks: 0.1 + i / 50,
        w1_rel: 0.1,
        "reject_0.05": 0,
        "reject_0.01": 0,
        "reject_0.001": 0,
        "reject_1e-06": 0,
        extrapolated: 0,
      });
    expect(texts((await renderSvg(ksSpec(ksRows(rows)))).svg)).toEqual(expect.arrayContaining(["KS distance (0–1)", "rejected (%)"]));
  });
});
