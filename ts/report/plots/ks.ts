// P17 `ks`: whole-distribution validation (Lux et al. 2018/2021): left, a histogram of the KS statistic of every
// held-out prediction, a panel per method, with vertical rules at the rejection thresholds of the four levels
// (p = 0.05, 0.01, 0.001, 1e-6, at the median run count n); right, the % of predictions rejected against the training
// fraction p, a line per method and level. Reads ks.csv of `varmap cv --target distribution`.
import { VarmapError } from "../../errors.js";
import { KS_LEVEL_NAMES, KS_LEVELS, ksThreshold, type KsTest } from "../../distribution/ks.js";
import type { TopLevelSpec } from "../render.js";
import { num, readTable, requireColumns, type Row } from "../table.js";
import { short, type PlotKind } from "./types.js";

export const KS_WRITTEN_BY = "`varmap cv … --target distribution --out DIR` (DIR/ks.csv)";
const REJECT_COLUMNS = KS_LEVEL_NAMES.map((l) => `reject_${l}`);

export interface KsPoint {
  method: string;
  p: number;
  n: number;
  ks: number;
  /** 0/1 per level of KS_LEVELS. */
  reject: number[];
}

/** ks.csv rows with a KS value (rows with too few runs have none and are left out, as the summary does). */
export function ksRows(rows: readonly Row[], file?: string): KsPoint[] {
  requireColumns(rows, ["method", "p", "n", "ks", ...REJECT_COLUMNS], { kind: "ks", file, writtenBy: KS_WRITTEN_BY });
  return rows
    .map((r) => ({ method: String(r.method), p: num(r.p), n: num(r.n), ks: num(r.ks), reject: REJECT_COLUMNS.map((c) => num(r[c])) }))
    .filter((r) => Number.isFinite(r.ks));
}

/** Rejection % per (method, p, level) over the predictions with a KS value. */
export function rejectionRates(points: readonly KsPoint[]): { method: string; p: number; level: string; pct: number; predictions: number }[] {
  const groups = new Map<string, KsPoint[]>();
  for (const x of points) {
    const key = `${x.method}\u0000${x.p}`;
    (groups.get(key) ?? groups.set(key, []).get(key)!).push(x);
  }
  const out: { method: string; p: number; level: string; pct: number; predictions: number }[] = [];
  for (const g of groups.values())
    KS_LEVEL_NAMES.forEach((l, j) =>
      out.push({
        method: g[0].method,
        p: g[0].p,
        level: `p = ${l}`,
        pct: (100 * g.reduce((s, x) => s + (x.reject[j] === 1 ? 1 : 0), 0)) / g.length,
        predictions: g.length,
      }),
    );
  return out.sort((a, b) => a.p - b.p);
}

function median(v: number[]): number {
  const s = [...v].sort((a, b) => a - b),
    h = s.length >> 1;
  return s.length % 2 ? s[h] : 0.5 * (s[h - 1] + s[h]);
}

/** 20 equal-width bins of KS over [0, max], counted per method. */
function ksBins(points: readonly KsPoint[], methods: readonly string[]): { method: string; x0: number; x1: number; count: number }[] {
  const hi = Math.max(...points.map((p) => p.ks)) || 1,
    w = hi / 20;
  return methods.flatMap((method) => {
    const c = new Array<number>(20).fill(0);
    for (const p of points) if (p.method === method) c[Math.min(19, Math.floor(p.ks / w))]++;
    return c.map((count, i) => ({ method, x0: i * w, x1: (i + 1) * w, count }));
  });
}

export function ksSpec(points: readonly KsPoint[], opts: { ksTest?: KsTest; histogramP?: number; title?: string } = {}): TopLevelSpec {
  if (!points.length)
    throw new VarmapError("E_PLOT_EMPTY", "ks.csv has no KS values to plot", {
      remedy: "every prediction had too few runs: check the cv run (its too_few_runs column)",
    });
  const test = opts.ksTest ?? "two-sample";
  const methods = [...new Set(points.map((p) => p.method))];
  const histPts = opts.histogramP === undefined ? points : points.filter((p) => p.p === opts.histogramP);
  if (!histPts.length)
    throw new VarmapError("E_PLOT_EMPTY", `ks.csv has no predictions at p = ${opts.histogramP}`, {
      remedy: `give one of p = ${[...new Set(points.map((p) => p.p))].join(", ")}`,
    });
  const n = median(histPts.map((p) => p.n));
  const crit = KS_LEVELS.map((lv, j) => ({ value: ksThreshold(lv, n, test), label: `p = ${KS_LEVEL_NAMES[j]}` }));
  const rates = rejectionRates(points);
  const levelSort = KS_LEVEL_NAMES.map((l) => `p = ${l}`);
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    title: {
      text: opts.title ?? "Whole-distribution prediction: KS on held-out configurations",
      subtitle: `red rules, left to right: the ${test} KS thresholds for p = ${KS_LEVEL_NAMES.join(", ")} at the median run count n = ${short(n)}${opts.histogramP === undefined ? "" : `; histogram at p = ${opts.histogramP}`}`,
    },
    hconcat: [
      {
        title: { text: "KS statistic per method", fontSize: 12 },
        vconcat: methods.map((method) => ({
          width: 300,
          height: 110,
          title: { text: method, fontSize: 11 },
          layer: [
            {
              data: { values: ksBins(histPts, methods).filter((b) => b.method === method) },
              mark: { type: "rect", color: "#9ecae1", stroke: "#4c78a8", strokeWidth: 0.5 },
              encoding: {
                x: { field: "x0", type: "quantitative", title: "KS distance (0–1)" },
                x2: { field: "x1" },
                y: { field: "count", type: "quantitative", title: "predictions" },
                y2: { datum: 0 },
              },
            },
            {
              data: { values: crit },
              mark: { type: "rule", color: "#d62728", strokeDash: [4, 2] },
              encoding: { x: { field: "value", type: "quantitative" }, tooltip: [{ field: "label" }, { field: "value", format: ".4f" }] },
            },
          ],
        })),
        resolve: { scale: { x: "shared" } },
      },
      {
        // As tall as the histogram column (110 px per method plus its title and axis), so neither side is blank.
        width: 320,
        height: Math.max(140, 165 * methods.length - 55),
        title: { text: "Rejected (%) vs training fraction", fontSize: 12 },
        data: { values: rates },
        encoding: {
          x: { field: "p", type: "quantitative", title: "training fraction p", scale: { zero: false }, axis: { format: "~g" } },
          y: { field: "pct", type: "quantitative", title: "rejected (%)", scale: { domain: [0, 100] } },
          color: { field: "method", type: "nominal", sort: methods, scale: { scheme: "tableau10" } },
          tooltip: [{ field: "method" }, { field: "p" }, { field: "level" }, { field: "pct", format: ".1f" }, { field: "predictions" }],
        },
        layer: [
          { mark: { type: "line", strokeWidth: 1.8 }, encoding: { strokeDash: { field: "level", type: "nominal", sort: levelSort, title: "level" } } },
          { mark: { type: "point", filled: true, size: 30 }, encoding: { detail: { field: "level", type: "nominal" } } },
        ],
      },
    ],
  } as TopLevelSpec;
}

export const plot: PlotKind = {
  kind: "ks",
  id: "P17",
  description: "KS histogram per method with rules at the four critical values, and rejection % vs p (Lux 2018/2021)",
  writtenBy: KS_WRITTEN_BY,
  flags: [
    { flag: "--ks-test <t>", description: "the thresholds the cv run used: two-sample | one-sample", default: "two-sample" },
    { flag: "--at-p <p>", description: "histogram of the predictions at this training fraction only (default: all)" },
    { flag: "--title <text>", description: "figure title" },
  ],
  async fromFile(file, opts) {
    const t = (opts.ksTest ?? "two-sample") as string;
    if (t !== "two-sample" && t !== "one-sample")
      throw new VarmapError("E_USAGE", `--ks-test '${t}' is not two-sample or one-sample`, { remedy: "give the --ks-test the cv run used" });
    const atP = opts.atP === undefined ? undefined : Number(opts.atP);
    if (atP !== undefined && !(atP > 0 && atP < 1))
      throw new VarmapError("E_USAGE", `--at-p '${String(opts.atP)}' is not a fraction in (0, 1)`, { remedy: "e.g. --at-p 0.5" });
    return ksSpec(ksRows(await readTable(file), file), { ksTest: t, histogramP: atP, title: opts.title as string | undefined });
  },
};
