// The outputs of `cv --target distribution` (spec E.4): one compact result per split (what a job task returns),
// then ks.csv (one row per split, test configuration and method), ks-summary.csv (per map, method, p and
// inside/extrapolated/all: mean and median KS, rejection %, noise floor, W1, errors of mean, sd, q10, q90) and
// ks.md (the Table 2 layout: mean KS over maps per method and p).
import { closeSync, fsyncSync, openSync, renameSync, rmSync } from "node:fs";
import { writeAll } from "../data/io.js";
import { tempPathFor } from "../data/write.js";
import { csvField, csvRow, roundResult } from "../data/write.js";
import { KS_LEVEL_NAMES, KS_LEVELS, ksNoiseFloor, ksThreshold, type KsTest } from "./ks.js";
import { validateSplit, type DistCvOptions, type DistributionMap } from "./validate.js";

/**
 * One split's validation, JSON-ready and flat (a 117-map job holds about a million of these rows): per test row
 * its id, run count, extrapolated flag, hull distance and observed mean, sd, q10, q90 (obs, 4 per row); per method
 * 6 values per row: ks, w1_rel (null when too few runs), predicted mean, sd, q10, q90.
 */
export interface SplitKs {
  p: number;
  rep: number;
  ids: (number | string)[];
  n: number[];
  ext: number[];
  dist: number[];
  obs: (number | null)[];
  methods: Record<string, (number | null)[]>;
  /** With a truth file: per method, each test row's KS against its true CDF (null without a truth or a prediction). */
  ksTrue?: Record<string, (number | null)[]>;
}

/** The "weights" column: one name for every method, or one per method (per-level quantiles: per-level:<method>). */
export type WeightsLabel = string | Readonly<Record<string, string>>;
export function weightsOf(w: WeightsLabel, method: string): string {
  return typeof w === "string" ? w : (w[method] ?? "");
}

const r = (x: number): number | null => (Number.isFinite(x) ? roundResult(x) : null);

/** Validates one split and packs it (rounded to RESULT_DIGITS so that backends and shards write the same text). */
export function splitKs(
  map: DistributionMap,
  ids: readonly (number | string)[],
  p: number,
  rep: number,
  train: ArrayLike<number>,
  test: ArrayLike<number>,
  opts: DistCvOptions,
): SplitKs {
  const recs = validateSplit(map, train, test, opts);
  const out: SplitKs = { p, rep, ids: [], n: [], ext: [], dist: [], obs: [], methods: Object.fromEntries(opts.dists.map((m) => [m, []])) };
  if (map.truth) out.ksTrue = Object.fromEntries(opts.dists.map((m) => [m, []]));
  let last = -1;
  for (const x of recs) {
    if (x.row !== last) {
      last = x.row;
      out.ids.push(ids[x.row]);
      out.n.push(x.n);
      out.ext.push(x.extrapolated ? 1 : 0);
      out.dist.push(r(x.distance) ?? 0);
      out.obs.push(...x.truth.map(r));
    }
    out.methods[x.method].push(r(x.ks), r(x.w1Rel), ...x.pred.map(r));
    out.ksTrue?.[x.method].push(r(x.ksTrue));
  }
  return out;
}

export interface KsTableMap {
  label: string;
  splits: SplitKs[];
}

/** ks.csv's columns; with a truth file, ks_true after ks. */
export function ksHeader(truth: boolean): string[] {
  return truth ? [...KS_HEADER.slice(0, 8), "ks_true", ...KS_HEADER.slice(8)] : KS_HEADER;
}

export const KS_HEADER = [
  "map",
  "method",
  "weights",
  "p",
  "rep",
  "config",
  "n",
  "ks",
  "w1_rel",
  ...KS_LEVEL_NAMES.map((l) => `reject_${l}`),
  "extrapolated",
  "distance",
  "too_few_runs",
  "mean_pred",
  "mean_obs",
  "sd_pred",
  "sd_obs",
  "q10_pred",
  "q10_obs",
  "q90_pred",
  "q90_obs",
];

/** ks.csv rows, one at a time (the file can have millions). */
export function* ksRows(maps: readonly KsTableMap[], dists: readonly string[], weights: WeightsLabel, ksTest: KsTest): Generator<(string | number)[]> {
  for (const m of maps)
    for (const s of m.splits)
      for (const method of dists) {
        const v = s.methods[method];
        const kt = s.ksTrue?.[method];
        for (let i = 0; i < s.ids.length; i++) {
          const ks = v[6 * i],
            w1 = v[6 * i + 1],
            n = s.n[i];
          const few = ks === null;
          const rej = KS_LEVELS.map((lv) => (few ? "" : ks > ksThreshold(lv, n, ksTest) ? 1 : 0));
          const pairs: (string | number)[] = [];
          for (let j = 0; j < 4; j++) pairs.push(v[6 * i + 2 + j] ?? "", s.obs[4 * i + j] ?? "");
          const lead = [m.label, method, weightsOf(weights, method), s.p, s.rep, s.ids[i], n, few ? "" : ks];
          yield [...lead, ...(kt ? [kt[i] ?? ""] : []), w1 ?? "", ...rej, s.ext[i], s.dist[i], few ? 1 : 0, ...pairs];
        }
      }
}

/** Writes a CSV by lines into a temporary file renamed into place (no partial file; no giant string). */
export function writeCsvStream(path: string, header: readonly string[], rows: Iterable<readonly (string | number)[]>): void {
  const tmp = tempPathFor(path);
  const fd = openSync(tmp, "w");
  try {
    let buf = csvRow(header) + "\n";
    for (const row of rows) {
      // Numbers here are already rounded (splitKs) or exact labels: String() is their shortest form.
      buf += row.map((v) => (typeof v === "number" ? String(v) : csvField(v))).join(",") + "\n";
      if (buf.length > 1 << 20) {
        // writeAll loops over short writes and turns a full disk into E_DISK_FULL naming the file (writeSync of a
        // string may write only part of it and say so only in its return value).
        writeAll(fd, buf, path);
        buf = "";
      }
    }
    writeAll(fd, buf, path);
    fsyncSync(fd);
    closeSync(fd);
    renameSync(tmp, path);
  } catch (e) {
    try {
      closeSync(fd);
    } catch {
      /* already closed */
    }
    rmSync(tmp, { force: true });
    throw e;
  }
}

const POINTS = ["inside", "extrapolated", "all"] as const;

export interface SummaryRow {
  map: string;
  method: string;
  p: number;
  points: (typeof POINTS)[number];
  predictions: number;
  tooFewRuns: number;
  ksMean: number;
  ksMedian: number;
  rejectPct: number[];
  noiseFloor: number;
  w1Mean: number;
  /** Mean relative errors |pred − obs| / |obs| of mean, sd, q10, q90. */
  err: number[];
  /** Mean KS against the true CDFs (with a truth file; else NaN). */
  ksTrueMean: number;
}

function median(v: number[]): number {
  if (!v.length) return NaN;
  const s = [...v].sort((a, b) => a - b),
    h = s.length >> 1;
  return s.length % 2 ? s[h] : 0.5 * (s[h - 1] + s[h]);
}
const mean = (v: readonly number[]) => (v.length ? v.reduce((a, b) => a + b, 0) / v.length : NaN);

/** Per map, method, p (ascending) and point set. */
export function summarize(maps: readonly KsTableMap[], dists: readonly string[], ksTest: KsTest): SummaryRow[] {
  const out: SummaryRow[] = [];
  for (const m of maps) {
    const ps = [...new Set(m.splits.map((s) => s.p))].sort((a, b) => a - b);
    for (const method of dists)
      for (const p of ps)
        for (const points of POINTS) {
          const ks: number[] = [],
            w1: number[] = [],
            floors: number[] = [],
            rej = KS_LEVELS.map(() => 0),
            err: number[][] = [[], [], [], []],
            kts: number[] = [];
          let predictions = 0,
            few = 0;
          for (const s of m.splits) {
            if (s.p !== p) continue;
            const v = s.methods[method];
            const kt = s.ksTrue?.[method];
            for (let i = 0; i < s.ids.length; i++) {
              const ext = s.ext[i] === 1;
              if ((points === "inside" && ext) || (points === "extrapolated" && !ext)) continue;
              predictions++;
              if (kt && kt[i] !== null) kts.push(kt[i]!);
              const k = v[6 * i],
                w = v[6 * i + 1];
              for (let j = 0; j < 4; j++) {
                const o = s.obs[4 * i + j],
                  pv = v[6 * i + 2 + j];
                if (pv !== null && o !== null && o !== 0) err[j].push(Math.abs(pv - o) / Math.abs(o));
              }
              if (k === null) {
                few++;
                continue;
              }
              ks.push(k);
              if (w !== null) w1.push(w);
              floors.push(ksNoiseFloor(s.n[i]));
              KS_LEVELS.forEach((lv, j) => (rej[j] += k > ksThreshold(lv, s.n[i], ksTest) ? 1 : 0));
            }
          }
          if (!predictions) continue;
          out.push({
            map: m.label,
            method,
            p,
            points,
            predictions,
            tooFewRuns: few,
            ksMean: mean(ks),
            ksMedian: median(ks),
            rejectPct: rej.map((c) => (ks.length ? (100 * c) / ks.length : NaN)),
            noiseFloor: median(floors),
            w1Mean: mean(w1),
            err: err.map(mean),
            ksTrueMean: mean(kts),
          });
        }
  }
  return out;
}

export const SUMMARY_HEADER = [
  "map",
  "method",
  "weights",
  "p",
  "points",
  "predictions",
  "too_few_runs",
  "ks_mean",
  "ks_median",
  ...KS_LEVEL_NAMES.map((l) => `reject_pct_${l}`),
  "noise_floor",
  "w1_rel_mean",
  "are_mean",
  "are_sd",
  "are_q10",
  "are_q90",
];

/** ks-summary.csv's columns; with a truth file, ks_true_mean after ks_median. */
export function summaryHeader(truth: boolean): string[] {
  return truth ? [...SUMMARY_HEADER.slice(0, 9), "ks_true_mean", ...SUMMARY_HEADER.slice(9)] : SUMMARY_HEADER;
}

export function summaryRows(rows: readonly SummaryRow[], weights: WeightsLabel, truth = false): (string | number)[][] {
  return rows.map((s) => [
    s.map,
    s.method,
    weightsOf(weights, s.method),
    s.p,
    s.points,
    s.predictions,
    s.tooFewRuns,
    s.ksMean,
    s.ksMedian,
    ...(truth ? [s.ksTrueMean] : []),
    ...s.rejectPct,
    s.noiseFloor,
    s.w1Mean,
    ...s.err,
  ]);
}

/** ks.md: the Table 2 layout over maps (mean over maps of each map's mean KS), inside-hull points, then extrapolated. */
export function ksMarkdown(rows: readonly SummaryRow[], dists: readonly string[], weights: WeightsLabel, ksTest: KsTest, truth = false): string {
  const shared =
    typeof weights === "string" ? weights : weightsOf(weights, dists.find((m) => weightsOf(weights, m) !== weightsOf(weights, "quantile")) ?? dists[0]);
  const label = (m: string) => (weightsOf(weights, m) === shared ? `\`${m}\`` : `\`${m}\` (${weightsOf(weights, m)})`);
  const maps = [...new Set(rows.map((r) => r.map))];
  const ps = [...new Set(rows.map((r) => r.p))].sort((a, b) => b - a);
  const cell = (method: string, p: number, points: string) => {
    const sel = rows.filter((r) => r.method === method && r.p === p && r.points === points && Number.isFinite(r.ksMean));
    if (!sel.length) return "–";
    const ks = mean(sel.map((r) => r.ksMean)),
      r05 = mean(sel.map((r) => r.rejectPct[0])),
      r001 = mean(sel.map((r) => r.rejectPct[2]));
    const n = sel.reduce((a, r) => a + r.predictions - r.tooFewRuns, 0);
    return `${ks.toFixed(3)} (${r05.toFixed(1)}%, ${r001.toFixed(1)}%) [${n}]`;
  };
  const floor = mean(rows.filter((r) => r.points === "all").map((r) => r.noiseFloor));
  const lines = [
    `# Whole-distribution prediction: KS on held-out configurations`,
    ``,
    `Mean KS over ${maps.length} map(s) (each map's mean over its test configurations), weights \`${shared}\`, ${ksTest} rejection`,
    `thresholds; in parentheses the % rejected at p = 0.05 and 0.001, in brackets the number of predictions. Noise floor`,
    `(median null two-sample KS, 0.8276·sqrt(2/n)): ${Number.isFinite(floor) ? floor.toFixed(3) : "–"}.`,
    ``,
  ];
  for (const points of ["inside", "extrapolated"] as const) {
    lines.push(
      points === "inside" ? `## Test configurations inside the training hull` : `## Extrapolated test configurations (outside the hull; reported apart)`,
      ``,
    );
    lines.push(`| method | ${ps.map((p) => `p = ${p}`).join(" | ")} |`, `|---|${ps.map(() => "---").join("|")}|`);
    for (const m of dists) lines.push(`| ${label(m)} | ${ps.map((p) => cell(m, p, points)).join(" | ")} |`);
    lines.push(``);
  }
  if (truth) {
    // The noise-free measure: KS against the true CDFs of the synthetic design, every test configuration.
    lines.push(`## KS against the true CDF (synthetic design, all test configurations)`, ``);
    lines.push(`| method | ${ps.map((p) => `p = ${p}`).join(" | ")} |`, `|---|${ps.map(() => "---").join("|")}|`);
    const cellTrue = (m: string, p: number) => {
      const sel = rows.filter((r) => r.method === m && r.p === p && r.points === "all" && Number.isFinite(r.ksTrueMean));
      return sel.length ? mean(sel.map((r) => r.ksTrueMean)).toFixed(3) : "–";
    };
    for (const m of dists) lines.push(`| ${label(m)} | ${ps.map((p) => cellTrue(m, p)).join(" | ")} |`);
    lines.push(``);
  }
  return lines.join("\n");
}
