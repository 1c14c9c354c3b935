// Spec-level tests of the plot kinds (spec F.3): each spec validates against the Vega-Lite schema, renders to SVG
// without warnings, and draws the expected number of marks; PNG at the requested size; bad tables get coded errors.
import { describe, expect, it } from "vitest";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isVarmapError } from "../../ts/errors.js";
import { renderSvg, svgToPng, pngSize, themed, type TopLevelSpec } from "../../ts/report/render.js";
import { heatmapSpec, resolveFix, defaultAxes } from "../../ts/report/plots/heatmap.js";
import { areRows, areSpec } from "../../ts/report/plots/are.js";
import { pvmSpec, areOf, joinTruth, type PvmPoint } from "../../ts/report/plots/predicted-vs-measured.js";
import { fdBins, histogramSpec } from "../../ts/report/plots/histogram.js";
import { probabilitySpec } from "../../ts/report/plots/probability.js";
import { bestCounts, bestCountsSpec } from "../../ts/report/plots/best-counts.js";
import { gevSpec, gevTitle } from "../../ts/report/plots/gev.js";
import { whatifSpec } from "../../ts/report/plots/whatif.js";
import { interferenceSpec } from "../../ts/report/plots/interference.js";
import { PLOT_KINDS } from "../../ts/report/plots/index.js";
import { readTable, type Row } from "../../ts/report/table.js";
import { Mixture } from "../../ts/mixture/model.js";
import { markCount, schemaErrors, texts } from "./svg.js";

async function check(spec: TopLevelSpec): Promise<string> {
  expect(schemaErrors(themed(spec))).toEqual([]);
  const { svg, warnings } = await renderSvg(spec);
  expect(warnings).toEqual([]);
  return svg;
}

function codeOf(f: () => unknown): string | undefined {
  try {
    f();
  } catch (e) {
    return isVarmapError(e) ? e.code : `not a VarmapError: ${String(e)}`;
  }
  return undefined;
}

// A 4 × 3 grid of (threads, freq) with a third input at two levels and two maps.
const grid: Row[] = [];
for (const map of ["a", "b"])
  for (const t of [1, 2, 4, 8])
    for (const f of [1e6, 2e6, 3e6]) for (const s of [64, 1024]) grid.push({ map, threads: t, freq: f, fsize: s, sd: t * f * (s === 64 ? 1 : 2) });

describe("heatmap (P1)", () => {
  it("one rectangle per (x, y) cell at the fixed level of the other input; a panel per map", async () => {
    const one = grid.filter((r) => r.map === "a");
    const svg = await check(heatmapSpec(one, { x: "threads", y: "freq", value: "sd", others: ["threads", "freq", "fsize"] }));
    expect(markCount(svg, "rect")).toBe(12);
    // Ties on the most common level go to the largest: fsize 1024, named in the subtitle.
    expect(resolveFix(one, ["fsize"])).toEqual({ fsize: 1024 });
    expect(texts(svg)).toContain("fsize=1024");
    const both = await check(heatmapSpec(grid, { x: "threads", y: "freq", value: "sd", others: ["fsize"], fix: { fsize: 64 }, facet: "map", logColor: true }));
    expect(markCount(both, "rect")).toBe(24);
    expect(defaultAxes(one, ["threads", "freq", "fsize"])).toEqual({ y: "threads", x: "freq" });
  });

  it("several configurations in a cell, or a fixed level that does not occur, are coded errors", () => {
    expect(
      codeOf(() =>
        heatmapSpec(
          grid.filter((r) => r.map === "a"),
          { x: "threads", y: "freq", value: "sd" },
        ),
      ),
    ).toBe("E_PLOT_CELLS");
    expect(codeOf(() => heatmapSpec(grid, { x: "threads", y: "freq", value: "sd", others: ["fsize"], fix: { fsize: 7 } }))).toBe("E_PLOT_EMPTY");
  });
});

describe("are (P7)", () => {
  const rows: Row[] = [];
  for (const map of ["x", "y"])
    for (const method of ["lr", "lsp", "mars"])
      for (const p of [0.1, 0.5, 0.9])
        rows.push({ mode: map, method, p, reps: 10, failed: 0, are_mean: (map === "x" ? 0.2 : 0.4) * (1 - p / 2) * (method === "lr" ? 2 : 1), are_sd: 0.01 });

  it("averages are.csv over maps as Table 2 does; a line and 3 points per method", async () => {
    const pts = areRows(rows);
    expect(pts).toHaveLength(9);
    expect(pts.find((p) => p.method === "lsp" && p.p === 0.5)!.are).toBeCloseTo(0.3 * 0.75, 12);
    const svg = await check(areSpec(pts));
    expect(markCount(svg, "line")).toBe(3);
    expect(markCount(svg, "symbol")).toBe(9); // the points (legend symbols are not marks)
  });

  it("a log ARE axis when a baseline is over 20× worse than the best method", async () => {
    const spec = areSpec([
      { method: "lsp", p: 0.5, are: 0.1 },
      { method: "mean", p: 0.5, are: 5 },
    ]) as { encoding: { y: { scale: { type?: string } } } };
    expect(spec.encoding.y.scale.type).toBe("log");
    await check(spec as TopLevelSpec);
    expect((areSpec(areRows(rows)) as { encoding: { y: { scale: { type?: string } } } }).encoding.y.scale.type).toBeUndefined();
  });

  it("reads table2.csv too", () => {
    const t2: Row[] = [
      { p: 0.1, are_lr: 0.5, are_lsp: 0.2 },
      { p: 0.2, are_lr: 0.4, are_lsp: 0.1 },
    ];
    expect(areRows(t2)).toEqual([
      { method: "lr", p: 0.1, are: 0.5 },
      { method: "lsp", p: 0.1, are: 0.2 },
      { method: "lr", p: 0.2, are: 0.4 },
      { method: "lsp", p: 0.2, are: 0.1 },
    ]);
  });

  it("a table without its columns: E_PLOT_COLUMNS naming them and varmap cv", () => {
    try {
      areRows([{ method: "lr", p: 0.5, rmse: 1 }], "wrong.csv");
      expect.unreachable();
    } catch (e) {
      expect(isVarmapError(e) && e.code).toBe("E_PLOT_COLUMNS");
      expect((e as Error).message).toMatch(/'are_mean'/);
      expect((e as Error).message).toMatch(/varmap cv/);
      expect((e as Error).message).toMatch(/wrong\.csv/);
    }
  });
});

describe("predicted-vs-measured (P6)", () => {
  const pts: PvmPoint[] = [];
  for (let i = 1; i <= 10; i++) pts.push({ measured: i, prediction: i * 1.1, method: "lsp" }, { measured: i, prediction: i * 0.5, method: "lr" });

  it("a point per prediction, the y = x line, each method's ARE in the legend", async () => {
    const svg = await check(pvmSpec(pts));
    expect(markCount(svg, "symbol")).toBe(20);
    expect(markCount(svg, "line")).toBe(1);
    expect(areOf(pts.filter((p) => p.method === "lsp"))).toBeCloseTo(0.1, 12);
    expect(texts(svg)).toEqual(expect.arrayContaining(["lsp (ARE 10.00%)", "lr (ARE 50.00%)"]));
    const faceted = await check(pvmSpec(pts.map((p) => ({ ...p, facet: p.method }))));
    expect(markCount(faceted, "line")).toBe(2);
  });

  it("joins predictions with a truth table on their common key columns", () => {
    const joined = joinTruth(
      [{ index: 3, prediction: 2 }],
      [
        { index: 3, u: 0.1, sd: 4 },
        { index: 4, u: 0.2, sd: 5 },
      ],
      "sd",
    );
    expect(joined).toEqual([{ index: 3, prediction: 2, sd: 4 }]);
    expect(codeOf(() => joinTruth([{ index: 9, prediction: 2 }], [{ index: 3, sd: 4 }], "sd"))).toBe("E_PLOT_JOIN");
  });
});

describe("histogram (P9), probability (P10), best-counts", () => {
  const runs = Float64Array.from({ length: 100 }, (_, i) => i + 1);
  const mix = new Mixture("normal", [0.5, 0.5], [30, 70], [10, 10]);

  it("Freedman–Diaconis bins: width 2·IQR·n^(−1/3), at least 10 bins (issue 44 item 5), every run counted once", () => {
    const b = fdBins(runs);
    // FD's width 2·(75.25 − 25.75)/100^(1/3) = 21.3 gives 5 bins: fewer than 10, so 10 bins over the range 99.
    expect(b.counts).toHaveLength(10);
    expect(b.width).toBeCloseTo(99 / 10, 12);
    expect(b.counts.reduce((s, c) => s + c, 0)).toBe(100);
    const wide = Array.from({ length: 8000 }, (_, i) => i + 1);
    const w = fdBins(wide);
    expect(w.width).toBeCloseTo((2 * (6000.25 - 2000.75)) / Math.cbrt(8000), 9);
    expect(w.counts).toHaveLength(Math.ceil(7999 / w.width));
    expect(fdBins([5, 5, 5]).counts).toEqual([3]);
  });

  it("a bar per bin and a density line per panel, 2 × 2 panels", async () => {
    const panels = [0, 1, 2, 3].map((i) => ({ label: `c${i}`, runs: runs.map((x) => x + i), density: { mixture: mix, label: "normal 2" } }));
    const svg = await check(histogramSpec(panels));
    const bins = panels.reduce((s, p) => s + fdBins(p.runs).counts.length, 0);
    expect(markCount(svg, "rect")).toBe(bins);
    expect(markCount(svg, "line")).toBe(4);
  });

  it("ECDF steps and each family's CDF, * on the BIC winner", async () => {
    const panels = [0, 1].map((i) => ({
      label: `c${i}`,
      runs,
      curves: [
        { family: "normal", k: 2, overall: true, mixture: mix },
        { family: "lognormal", k: 1, overall: false, mixture: new Mixture("lognormal", [1], [Math.log(50)], [0.6]) },
      ],
    }));
    const svg = await check(probabilitySpec(panels));
    expect(markCount(svg, "line")).toBe(2 * 3); // per panel: ECDF + 2 CDFs
    expect(texts(svg)).toEqual(expect.arrayContaining(["normal 2*", "lognormal 1"]));
  });

  it("best-counts: counts best rows only, a bar segment per (family, k)", async () => {
    const rows: Row[] = [
      { family: "normal", k: 2, best: "true" },
      { family: "normal", k: 2, best: "true" },
      { family: "gamma", k: 1, best: "true" },
      { family: "gamma", k: 3, best: "false" },
    ];
    const c = bestCounts(rows);
    expect(c).toEqual([
      { family: "normal", k: 2, count: 2 },
      { family: "gamma", k: 1, count: 1 },
    ]);
    const svg = await check(bestCountsSpec(c));
    expect(markCount(svg, "rect")).toBe(2);
  });
});

describe("gev (P12)", () => {
  it("four panels: points of pp, qq and return levels, the diagonals, curve, band, 20 bins and the density", async () => {
    const n = 10,
      rows: Row[] = [];
    for (let i = 1; i <= n; i++) {
      const p = i / (n + 1),
        x = 10 + i / 5;
      rows.push({ kind: "pp", x: p, y: p * 0.98, lo: "", hi: "", outlier: "" });
      rows.push({ kind: "qq", x: x * 1.01, y: x, lo: "", hi: "", outlier: "" });
      rows.push({ kind: "rl_point", x: -1 / Math.log(p), y: x, lo: x - 0.1, hi: x + 0.1, outlier: i === n ? "true" : "false" });
    }
    for (const f of [0.01, 0.1, 0.5, 0.9, 0.99])
      rows.push({ kind: "rl_curve", x: -1 / Math.log(f), y: 10 + f * 2, lo: 9.9 + f * 2, hi: 10.1 + f * 2, outlier: "" });
    for (let j = 0; j <= 20; j++) rows.push({ kind: "density", x: 10 + j / 10, y: Math.exp(-((j - 10) ** 2) / 20), lo: "", hi: "", outlier: "" });
    const fit = {
      loc: 11.177514501984825,
      scale: 0.2048094195491263,
      shape: -0.00057829936676124215,
      se_loc: 0.01138767440234564,
      se_scale: 0.008188106804960045,
      se_shape: 0.03298087772753579,
    };
    const svg = await check(gevSpec(rows, fit));
    expect(markCount(svg, "symbol")).toBe(3 * n);
    expect(markCount(svg, "line")).toBe(4); // 2 diagonals, the return-level curve, the density
    expect(markCount(svg, "area")).toBe(1);
    expect(markCount(svg, "rect")).toBe(20);
    expect(texts(svg)).toContain(gevTitle(fit));
    expect(gevTitle(fit)).toBe("μ = 11.18 ± 0.01139, σ = 0.2048 ± 0.008188, ξ = −0.0005783 ± 0.03298");
    expect(svg).toContain('fill="#d62728"'); // the one outlier in red
  });
});

describe("whatif (P16)", () => {
  it("a point per candidate, the Pareto front connected, the best labelled with their rank", async () => {
    const rows: Row[] = Array.from({ length: 12 }, (_, i) => ({
      pred_mean: 100 + 10 * i,
      pred_cv: 0.05 + ((i * 7) % 5) / 50,
      rank: 12 - i,
      pareto: i >= 9 ? "true" : "false",
    }));
    const svg = await check(whatifSpec(rows, { x: "pred_mean", y: "pred_cv", top: 3 }));
    expect(markCount(svg, "symbol")).toBe(9 + 3 + 3); // other candidates, front, top-3 diamonds
    expect(markCount(svg, "line")).toBe(1);
    expect(texts(svg)).toEqual(expect.arrayContaining(["#1", "#2", "#3"]));
    expect(texts(svg)).not.toContain("#4");
  });
});

describe("interference (P13)", () => {
  it("a bar per (probe, signal, chunk) at the fixed level of the other factors, self-pairs averaged, CI rules", async () => {
    const rows: Row[] = [];
    for (const fs of ["gpfs", "lustre"])
      for (const probe of ["A", "B"])
        for (const signal of ["A", "B"])
          for (const chunk of [1, 16, 256]) {
            const self = probe === signal;
            for (const instance of self ? [1, 2] : [1])
              rows.push({ fs, chunk_mib: chunk, probe, signal, instance, degradation: 10 * instance + chunk / 16, dilation: 5, ci_lo: 1, ci_hi: 30 });
          }
    const spec = interferenceSpec(rows, { value: "degradation", color: "chunk_mib", factors: ["fs", "chunk_mib"], fix: { fs: "gpfs" } });
    const svg = await check(spec);
    expect(markCount(svg, "rect")).toBe(2 * 2 * 3);
    expect(markCount(svg, "rule")).toBe(2 * 3); // intervals only for the 6 non-self pairs (a self-pair's bar is a mean of 2 instances)
    const self = (spec as { data: { values: { probe: string; signal: string; level: string; v: number }[] } }).data.values.find(
      (v) => v.probe === "A" && v.signal === "A" && v.level === "16",
    )!;
    expect(self.v).toBeCloseTo(16, 12); // mean of 11 and 21
  });
});

describe("rendering", () => {
  it("PNG output is non-empty and at the requested size", async () => {
    const { svg } = await renderSvg(
      areSpec([
        { method: "lr", p: 0.1, are: 0.2 },
        { method: "lr", p: 0.5, are: 0.1 },
      ]),
    );
    const w = Number(/width="(\d+(\.\d+)?)"/.exec(svg)![1]),
      h = Number(/height="(\d+(\.\d+)?)"/.exec(svg)![1]);
    const png = svgToPng(svg, { width: 640 });
    expect(png.subarray(1, 4).toString()).toBe("PNG");
    expect(pngSize(png)).toEqual({ width: 640, height: Math.round((640 * h) / w) });
    expect(pngSize(svgToPng(svg)).width).toBe(Math.round(2 * w));
  });

  it("no network at render time: a spec naming a URL is refused, not fetched", async () => {
    const spec = {
      $schema: "https://vega.github.io/schema/vega-lite/v6.json",
      data: { url: "http://192.0.2.1/data.csv" },
      mark: "point",
      encoding: { x: { field: "a", type: "quantitative" } },
    } as TopLevelSpec;
    const { warnings } = await renderSvg(spec);
    expect(warnings.join("\n")).toMatch(/inline data only/);
  });

  it("every registered kind has a unique name and an id", () => {
    const names = PLOT_KINDS.map((k) => k.kind);
    expect(new Set(names).size).toBe(names.length);
    for (const k of PLOT_KINDS) expect(k.id).toMatch(/^(P\d+|T)/);
  });

  it("readTable: CSV numbers as numbers, text as text", async () => {
    const f = join(mkdtempSync(join(tmpdir(), "varmap-report-")), "t.csv");
    writeFileSync(f, "a,b,c\n1,x,1e-3\n2.5,y,NaN\n");
    expect(await readTable(f)).toEqual([
      { a: 1, b: "x", c: 0.001 },
      { a: 2.5, b: "y", c: NaN },
    ]);
  });
});
