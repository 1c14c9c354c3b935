// Spec-level tests of the plot kinds of issue 45 (lines, box, heatmap --diff, design, mixture-sample) and of the
// figure defects of issue 44 item 5 (labels, Pareto front, "300m" legends, blank PNGs, histogram bins and domain,
// units, samplesize on a large curves file). Each defect's test failed before its fix.
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync, createWriteStream } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isVarmapError } from "../../ts/errors.js";
import { renderSvg, themed, type TopLevelSpec } from "../../ts/report/render.js";
import { diffRows, heatmapSpec } from "../../ts/report/plots/heatmap.js";
import { linesSpec } from "../../ts/report/plots/lines.js";
import { boxOf, boxSpec } from "../../ts/report/plots/box.js";
import { designPoints, designSpec } from "../../ts/report/plots/design.js";
import { chooseFits, samplePanels } from "../../ts/report/plots/mixture-sample.js";
import { fdBins, histogramSpec } from "../../ts/report/plots/histogram.js";
import { whatifSpec, placeLabels } from "../../ts/report/plots/whatif.js";
import { samplesizeSpec, type GammaPoint } from "../../ts/report/plots/samplesize.js";
import { PLOT_KINDS, plotKind } from "../../ts/report/plots/index.js";
import { quantile7 } from "../../ts/data/stats.js";
import { Mixture } from "../../ts/mixture/model.js";
import { mulberry32Open } from "../../ts/util/mulberry32.js";
import { packageRoot } from "../../ts/package-root.js";
import type { Row } from "../../ts/report/table.js";
import { markCount, schemaErrors, texts } from "./svg.js";
import { blankShare } from "./blank.js";

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

// 4 thread counts × 3 frequencies × 2 file sizes, two maps; the statistic grows with each input.
const grid: Row[] = [];
for (const map of ["a", "b"])
  for (const threads of [1, 2, 4, 8])
    for (const freq_khz of [1.2e6, 2e6, 3e6])
      for (const fsize_kb of [64, 1024]) grid.push({ map, threads, freq_khz, fsize_kb, sd: threads * freq_khz * (fsize_kb === 64 ? 1 : 2), n: 40 });

describe("lines", () => {
  it("a line per level of the series at the fixed level of the other input, a panel per map, units on the axes", async () => {
    const svg = await check(
      linesSpec(grid, { x: "threads", series: "freq_khz", value: "sd", others: ["threads", "freq_khz", "fsize_kb"], fix: { fsize_kb: 64 }, facet: "map" }),
    );
    expect(markCount(svg, "line")).toBe(2 * 3);
    expect(markCount(svg, "symbol")).toBe(2 * 3 * 4); // the points
    expect(texts(svg)).toEqual(expect.arrayContaining(["freq_khz (kHz)"]));
    expect(svg.replace(/<[^>]+>/g, " ")).toMatch(/fsize_kb=64/);
  });
  it("two configurations on one point of a line: E_PLOT_CELLS", () => {
    expect(codeOf(() => linesSpec(grid, { x: "threads", series: "freq_khz", value: "sd", others: [], facet: "map" }))).toBe("E_PLOT_CELLS");
  });
});

describe("box", () => {
  it("Tukey's five numbers: type-7 quartiles, whiskers to the furthest value within 1.5 IQR, the rest outliers", () => {
    const v = [1, 2, 3, 4, 5, 6, 7, 8, 9, 40];
    const b = boxOf(v);
    const s = Float64Array.from(v).sort();
    expect(b.q1).toBe(quantile7(s, 0.25));
    expect(b.q3).toBe(quantile7(s, 0.75));
    expect(b.median).toBe(5.5);
    expect(b.lo).toBe(1);
    expect(b.hi).toBe(9);
    expect(b.outliers).toEqual([40]);
  });
  it("a box, whisker and median per level; outliers as points", async () => {
    const boxes = [1, 2, 4].map((t, i) => ({ level: String(t), configs: 1, ...boxOf([1, 2, 3, 4, 5, 6, 7, 8, 9, 40 + i].map((x) => x * t)) }));
    const svg = await check(boxSpec(boxes, { x: "threads", yTitle: "throughput_kbps (KB/s)" }));
    expect(markCount(svg, "rect")).toBe(3 + 3); // boxes and median ticks
    expect(markCount(svg, "rule")).toBe(3);
    expect(markCount(svg, "symbol")).toBe(3);
    expect(texts(svg)).toContain("throughput_kbps (KB/s)");
  });
});

describe("heatmap --diff", () => {
  it("the change from a to b per cell (b − a), on a diverging scale symmetric about 0", async () => {
    const rows = diffRows(
      grid.filter((r) => r.map === "a"),
      { column: "threads", a: "8", b: "1" },
      ["threads", "freq_khz", "fsize_kb"],
      "sd",
    );
    expect(rows).toHaveLength(6);
    for (const r of rows) expect(r.sd).toBeCloseTo(-7 * Number(r.freq_khz) * (r.fsize_kb === 64 ? 1 : 2), 6);
    const spec = heatmapSpec(rows, { x: "fsize_kb", y: "freq_khz", value: "sd", others: ["fsize_kb", "freq_khz"], diverging: true });
    const svg = await check(spec);
    expect((svg.match(/aria-roledescription="rect mark"/g) ?? []).length).toBe(6);
    const domain = (spec as { encoding: { color: { scale: { domain: number[] } } } }).encoding.color.scale.domain;
    expect(domain[0]).toBe(-domain[1]);
    expect(codeOf(() => diffRows(grid, { column: "threads", a: "8", b: "3" }, ["map", "threads", "freq_khz", "fsize_kb"], "sd"))).toBe("E_USAGE");
  });
});

describe("design", () => {
  it("measured and unseen pairs of levels per pair of inputs, queried configurations apart", async () => {
    // fsize × rsize with rsize ≤ fsize only (seed 000 Fig. 6): 6 of 9 pairs measured.
    const configs: number[][] = [];
    for (const t of [1, 2]) for (const f of [64, 256, 1024]) for (const r of [32, 128, 512]) if (r <= f / 2 || (f === 64 && r === 32)) configs.push([t, f, r]);
    const pts = designPoints(configs, ["threads", "fsize_kb", "rsize_kb"], [[4, 64, 128]]);
    const fr = pts.filter((p) => p.cx === "fsize_kb" && p.cy === "rsize_kb");
    expect(fr.filter((p) => p.status === "measured")).toHaveLength(new Set(configs.map((c) => `${c[1]},${c[2]}`)).size);
    expect(fr.filter((p) => p.status === "unseen").map((p) => [p.x, p.y])).toEqual(
      expect.arrayContaining([
        [64, 128],
        [64, 512],
      ]),
    );
    expect(pts.filter((p) => p.status === "queried").length).toBe(3); // (4, 64), (4, 128) and (64, 128): none measured
    const svg = await check(designSpec(pts, ["threads", "fsize_kb", "rsize_kb"], { log: ["fsize_kb", "rsize_kb"] }));
    expect(markCount(svg, "symbol")).toBe(pts.length);
    expect(texts(svg)).toEqual(expect.arrayContaining(["fsize_kb (KB)", "rsize_kb (KB)", "measured", "unseen", "queried"]));
  });
});

describe("mixture-sample", () => {
  const fitRows: Row[] = [1, 2, 3].map((k) => ({
    config: "a",
    n: 50,
    family: "normal",
    k,
    bic: [300, 250, 260][k - 1],
    params: JSON.stringify({ w: Array(k).fill(1 / k), mean: [10, 20, 30].slice(0, k), sd: Array(k).fill(1) }),
  }));
  it("the BIC-best fit by default, the best of each k with --k; seeded samples of n draws", async () => {
    expect(chooseFits(fitRows, {}).map((f) => f.k)).toEqual([2]);
    const fits = chooseFits(fitRows, { ks: [1, 3] });
    expect(fits.map((f) => f.k)).toEqual([1, 3]);
    const a = samplePanels(fits, 500, 2, 7),
      b = samplePanels(fits, 500, 2, 7);
    expect(a).toHaveLength(4);
    expect(Array.from(a[3].runs)).toEqual(Array.from(b[3].runs));
    expect(Array.from(a[2].runs)).not.toEqual(Array.from(a[3].runs));
    // k = 3 with equal weights at 10, 20, 30: the sample mean is near 20, a third of the draws below 15.
    const s = Array.from(a[2].runs);
    expect(Math.abs(s.reduce((t, x) => t + x, 0) / s.length - 20)).toBeLessThan(1.5);
    expect(Math.abs(s.filter((x) => x < 15).length / s.length - 1 / 3)).toBeLessThan(0.07);
    const svg = await check(histogramSpec(a, { title: "samples" }));
    expect(markCount(svg, "line")).toBe(4);
  });
});

describe("issue 44 item 5: figure defects", () => {
  it("colour legends of small values read 0.3, not 300m", async () => {
    const rows = grid.filter((r) => r.map === "a" && r.fsize_kb === 64).map((r) => ({ ...r, cv: 0.1 + Number(r.threads) / 20 }));
    const svg = await check(heatmapSpec(rows, { x: "threads", y: "freq_khz", value: "cv" }));
    const labels = texts(svg);
    expect(labels.some((t) => /^\d+m$/.test(t))).toBe(false);
    expect(labels).toEqual(expect.arrayContaining(["0.5"])); // was "500m"
    expect(labels).toEqual(expect.arrayContaining(["threads", "freq_khz (kHz)"])); // units where known
  });

  it("a samplesize figure with a long configuration label is not mostly blank (was 45 %)", async () => {
    const pts: GammaPoint[] = [];
    for (const [q, g] of [
      [0.1, 2],
      [0.9, 4],
    ])
      for (let n = 1; n <= 300; n++) pts.push({ q, n, gamma: g / Math.sqrt(n) });
    const label = "host_sched=CFQ, vm_sched=CFQ, mode=initial-writers, freq_khz=1200000, threads=256, fsize_kb=1024, rsize_kb=32";
    const { svg } = await renderSvg(samplesizeSpec(pts, { label }));
    expect(blankShare(svg)).toBeLessThan(0.25);
  });

  it("histograms of multimodal runs get at least 10 bins, and the axis stays on the runs", async () => {
    // Five narrow components (spiky density) 40 runs: Freedman–Diaconis alone gives 3 bins.
    const m = new Mixture("normal", [0.2, 0.2, 0.2, 0.2, 0.2], [100, 200, 300, 400, 500], [2, 2, 2, 2, 2]);
    const runs = m.sample(40, mulberry32Open(3));
    const b = fdBins(runs);
    expect(b.counts.length).toBeGreaterThanOrEqual(10);
    const spec = histogramSpec([{ label: "c", runs, density: { mixture: m, label: "normal 5" } }]) as unknown as {
      data: { values: { x?: number; x0?: number; x1?: number }[] };
    };
    const xs = spec.data.values.flatMap((v) => [v.x, v.x0, v.x1].filter((x): x is number => x !== undefined));
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(Math.min(...runs) - 1e-9);
    expect(Math.max(...xs)).toBeLessThanOrEqual(Math.max(...runs) + 1e-9);
  });

  it("whatif: rank labels never overlap; infeasible candidates are drawn apart and named outside the front", async () => {
    // 10 ranked candidates bunched together (labels collided before) and 5 that miss the constraints (no rank).
    const rows: Row[] = [];
    for (let i = 0; i < 10; i++) rows.push({ pred_mean: 100 + i * 0.4, pred_cv: 0.1 + (i % 3) * 0.0005, rank: i + 1, pareto: i < 3 ? "true" : "false" });
    for (let i = 0; i < 5; i++) rows.push({ pred_mean: 150 + i * 10, pred_cv: 0.3, rank: "", pareto: "false", invalid_prediction: "false" });
    const svg = await check(whatifSpec(rows, { x: "pred_mean", y: "pred_cv", top: 10 }));
    const labels = [...svg.matchAll(/<text[^>]*transform="translate\(([-\d.]+),([-\d.]+)\)"[^>]*>(#\d+)<\/text>/g)].map((m) => ({
      x: Number(m[1]),
      y: Number(m[2]),
      w: 7 * m[3].length,
    }));
    expect(labels.length).toBeGreaterThanOrEqual(8);
    for (let i = 0; i < labels.length; i++)
      for (let j = i + 1; j < labels.length; j++) {
        const a = labels[i],
          b = labels[j];
        const apart = a.x + a.w <= b.x + 0.5 || b.x + b.w <= a.x + 0.5 || Math.abs(a.y - b.y) >= 11.5;
        expect(apart, `labels ${i} and ${j} overlap`).toBe(true);
      }
    const words = svg.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
    expect(words).toMatch(/5 candidate\(s\) that miss the constraints/);
    expect(words).toMatch(/Pareto front \(3\) of the feasible candidates/);
    expect(placeLabels([{ px: 10, py: 10, text: "#1" }], { width: 100, height: 100 }).placed).toHaveLength(1);
  });
});

const cli = join(packageRoot(), "dist", "ts", "cli", "main.js");
const timeBin = "/usr/bin/time";
describe.skipIf(!existsSync(cli) || !existsSync(timeBin))("samplesize on a 38 MB curves file (was 80–92 s and 834 MB)", () => {
  it("reads one configuration's rows only: under 400 MB and 15 s of CPU", async () => {
    const dir = mkdtempSync(join(tmpdir(), "varmap-curves-"));
    try {
      const file = join(dir, "curves.csv");
      const out = createWriteStream(file);
      out.write("host_sched,vm_sched,mode,freq_khz,threads,fsize_kb,rsize_kb,q,n,gamma_q\n");
      let rows = 0;
      for (let c = 0; rows < 700_000; c++) {
        const lines: string[] = [];
        for (const q of [0.1, 0.5, 0.9])
          for (let n = 1; n <= 600; n++)
            lines.push(`CFQ,NOOP,fread,${1200000 + 100000 * (Math.floor(c / 9) % 16)},${2 ** (c % 9)},1024,32,${q},${n},${(1 + (c % 3)) / Math.sqrt(n)}`);
        rows += lines.length;
        if (!out.write(lines.join("\n") + "\n")) await new Promise<void>((r) => out.once("drain", () => r()));
      }
      await new Promise<void>((r) => out.end(() => r()));
      const svg = join(dir, "s.svg");
      const r = spawnSync(
        timeBin,
        ["-f", "%U %S %M", process.execPath, cli, "plot", "samplesize", file, "--config", "threads=4,freq_khz=1200000", "--out", svg, "--quiet"],
        {
          encoding: "utf8",
        },
      );
      expect(r.status, r.stderr).toBe(0);
      const [user, sys, kb] = r.stderr.trim().split(/\s+/).slice(-3).map(Number);
      expect(user + sys).toBeLessThan(15);
      expect(kb / 1024).toBeLessThan(400);
      expect(existsSync(svg)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe("registered kinds", () => {
  it("lines, box, design and mixture-sample are plot kinds", () => {
    for (const k of ["lines", "box", "design", "mixture-sample"]) expect(plotKind(k)?.kind).toBe(k);
    const ids = PLOT_KINDS.map((k) => k.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
  it("mixture-sample reads a fits table and refuses a bad --k", async () => {
    const f = join(mkdtempSync(join(tmpdir(), "varmap-ms-")), "fits.csv");
    writeFileSync(f, 'config,n,family,k,bic,params\na,30,normal,1,100,"{""w"":[1],""mean"":[5],""sd"":[1]}"\n');
    const spec = await plotKind("mixture-sample")!.fromFile(f, {});
    expect(JSON.stringify(spec)).toMatch(/normal, k = 1; sample 4 \(n = 30\)/);
    await expect(plotKind("mixture-sample")!.fromFile(f, { k: "0" })).rejects.toMatchObject({ code: "E_USAGE" });
  });
});
