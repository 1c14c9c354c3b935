// The plan in the HTML report (issue 43): an output directory holding the files `varmap plan` writes — learning
// curves (`--replay … --out F`: columns strategy, fraction, are) and/or a batch (`--out F`: columns runs, reason,
// expected_gain) — gets a "Campaign plan" section: the curves' figure with the half-budget comparison table, and the
// batch table. Files are recognized by their header, so any name works; only the directory's top level is read.
import { closeSync, existsSync, openSync, readdirSync, readSync, statSync } from "node:fs";
import { join } from "node:path";
import { num, readTable, type Row } from "./table.js";
import { htmlTable } from "./html.js";
import { planSpec } from "./plots/plan.js";
import type { TopLevelSpec } from "./render.js";

export interface PlanFiles {
  curves: string[];
  batches: string[];
}

function header(file: string): string[] {
  const fd = openSync(file, "r");
  try {
    const buf = Buffer.alloc(4096);
    const n = readSync(fd, buf, 0, buf.length, 0);
    const line = buf.subarray(0, n).toString("utf8").split(/\r?\n/)[0];
    return line.split(",").map((c) => c.trim().replace(/^"|"$/g, ""));
  } finally {
    closeSync(fd);
  }
}

/** The plan files (CSV) at the top level of dirs, recognized by their columns. */
export function findPlanFiles(dirs: readonly string[]): PlanFiles {
  const out: PlanFiles = { curves: [], batches: [] };
  for (const dir of dirs) {
    if (!existsSync(dir)) continue;
    for (const f of readdirSync(dir).sort()) {
      const p = join(dir, f);
      if (!/\.csv$/i.test(f) || !statSync(p).isFile()) continue;
      const h = header(p);
      if (["strategy", "fraction", "are"].every((c) => h.includes(c))) out.curves.push(p);
      else if (["runs", "reason", "expected_gain"].every((c) => h.includes(c))) out.batches.push(p);
    }
  }
  return out;
}

/** Interpolated ARE of one strategy's curve at a share of the runs (NaN outside it). */
function at(points: { fraction: number; are: number }[], f: number): number {
  for (let i = 0; i < points.length; i++) {
    if (Math.abs(points[i].fraction - f) < 1e-9) return points[i].are;
    if (i > 0 && points[i - 1].fraction < f && f < points[i].fraction) {
      const w = (f - points[i - 1].fraction) / (points[i].fraction - points[i - 1].fraction);
      return points[i - 1].are + w * (points[i].are - points[i - 1].are);
    }
  }
  return NaN;
}

/** Rows of the half-budget table: random order at B (10–60 %) against the adaptive plan at B/2. */
export function halfBudgetRows(rows: readonly Row[]): { fraction: number; random: number; adaptive: number }[] {
  const of = (s: string) =>
    rows
      .filter((r) => String(r.strategy) === s)
      .map((r) => ({ fraction: num(r.fraction), are: num(r.are) }))
      .filter((p) => Number.isFinite(p.fraction) && Number.isFinite(p.are))
      .sort((a, b) => a.fraction - b.fraction);
  const adaptive = of("adaptive");
  return of("random")
    .filter((p) => p.fraction >= 0.1 - 1e-9 && p.fraction <= 0.6 + 1e-9)
    .map((p) => ({ fraction: p.fraction, random: p.are, adaptive: at(adaptive, p.fraction / 2) }));
}

const pct = (x: number, digits = 2) => (Number.isFinite(x) ? (100 * x).toFixed(digits) : "—");

/**
 * The section's body, or undefined when no plan file is found. `figure` renders a spec (the report's own helper:
 * static SVG plus the live view); `label` names a file in captions.
 */
export async function planSection(
  files: PlanFiles,
  figure: (spec: TopLevelSpec, caption: string) => Promise<string>,
  label: (file: string) => string,
): Promise<string | undefined> {
  const parts: string[] = [];
  for (const f of files.curves) {
    const rows = await readTable(f);
    const fig = await figure(
      planSpec(rows),
      `Replayed campaign (${label(f)}): map ARE on the configurations not yet measured against the runs spent, for the adaptive plan and the baselines (random order with all runs each, space-filling order with fixed runs). \`varmap plot plan\` draws it.`,
    );
    const half = halfBudgetRows(rows);
    const table = half.length
      ? htmlTable(
          ["random budget B (% runs)", "random ARE at B (%)", "adaptive ARE at B/2 (%)", "met"],
          half.map((h) => [pct(h.fraction, 1), pct(h.random), pct(h.adaptive), Number.isNaN(h.adaptive) ? "—" : h.adaptive <= h.random ? "yes" : "no"]),
          { caption: "The adaptive plan at half the runs against the random order (— : the adaptive replay has no point there)" },
        )
      : "";
    parts.push(`<div class="pair">${table}${fig}</div>`);
  }
  for (const f of files.batches) {
    const rows = await readTable(f);
    const cols = Object.keys(rows[0] ?? {});
    const config = cols.slice(0, Math.max(0, cols.indexOf("runs")));
    const shown = rows.slice(0, 50);
    const runs = rows.reduce((a, r) => a + (Number.isFinite(num(r.runs)) ? num(r.runs) : 0), 0);
    parts.push(
      htmlTable(
        [...config, "runs", "runs so far", "reason", "expected gain", "predicted", "uncertainty (%)"],
        shown.map((r) => [
          ...config.map((c) => String(r[c])),
          num(r.runs),
          Number.isFinite(num(r.runs_so_far)) ? num(r.runs_so_far) : "—",
          String(r.reason ?? ""),
          Number.isFinite(num(r.expected_gain)) ? num(r.expected_gain) : "—",
          Number.isFinite(num(r.predicted)) ? num(r.predicted) : "—",
          pct(num(r.uncertainty), 1),
        ]),
        {
          caption: `Next batch (${label(f)}): ${rows.length} configuration(s), ${runs} run(s)${rows.length > shown.length ? `; the first ${shown.length} shown` : ""}`,
        },
      ),
    );
  }
  return parts.length ? parts.join("\n") : undefined;
}
