// `report` and `plot`: one self-contained HTML page of a refit, cv or demo output directory (spec F.3), and one
// figure of a table (spec F.2). The CLI (ts/cli/commands/report.ts, plot.ts) parses the flags into these options
// and prints the summaries. The renderer (vega, vega-lite, resvg) loads only when a page or figure is drawn.
import { resolve } from "node:path";
import { VarmapError } from "../errors.js";
import type { LoadOptions } from "../data/load.js";
import { parseInteger } from "../data/option-values.js";
import { plotKind, PLOT_KINDS } from "../report/plots/index.js";

export interface ReportOptions {
  /** The page, .html. */
  out: string;
  /** The runs the directory was computed from (a demo directory's own dataset by default). */
  data?: string;
  /** Column roles of `data` (default: the directory's, or the moana preset for a demo). */
  dataOptions?: LoadOptions;
  /** Maps with a heatmap and predicted-vs-measured figure: "extremes" (default), a count, or "factor=value,…;…". */
  maps?: string;
  /** Configurations in the histogram and probability figures, 1 … 36 (default 4). */
  configs?: number;
  /** Training fraction of the division behind predicted vs measured, in (0, 1) (default 0.5). */
  p?: number;
  /** Seed of that division (default: the cv directory's seed, else 1). */
  seed?: string;
  /** Static SVG figures only: no inlined Vega runtime. */
  static?: boolean;
  /** Notes (what was left out and why) on stderr too. */
  quiet?: boolean;
}

export interface ReportSummary {
  /** The page's absolute path. */
  out: string;
  kind: "demo" | "refit" | "cv";
  figures: number;
  bytes: number;
  seconds: number;
  /** The whole process's CPU time so far, all its threads (DuckDB's too). */
  cpuSeconds: number;
  notes: string[];
  /** Renderer warnings (a correct report has none). */
  warnings: string[];
}

export async function runReport(dir: string, options: ReportOptions): Promise<ReportSummary> {
  const out = options.out;
  if (!/\.html?$/i.test(out)) throw new VarmapError("E_USAGE", `--out '${out}' must end in .html`, { remedy: "e.g. --out report.html" });
  const configs = parseInteger(options.configs, "--configs", { min: 1, max: 36, default: 4, example: 4 });
  const p = options.p ?? 0.5;
  if (!(p > 0 && p < 1)) throw new VarmapError("E_USAGE", `--p '${p}' is not a fraction in (0, 1)`, { remedy: "e.g. --p 0.5" });
  const t0 = Date.now();
  const { writeReport } = await import("../report/report.js"); // loads the renderer only when needed
  const r = await writeReport(dir, out, {
    data: options.data,
    dataOptions: options.dataOptions,
    maps: options.maps ?? "extremes",
    configs,
    p,
    seed: options.seed,
    static: !!options.static,
    note: options.quiet ? undefined : (s) => process.stderr.write(`varmap: note: ${s}\n`),
  });
  const seconds = (Date.now() - t0) / 1000;
  const cpu = process.cpuUsage();
  const cpuSeconds = Number(((cpu.user + cpu.system) / 1e6).toFixed(2));
  return { out: resolve(out), kind: r.kind, figures: r.figures, bytes: Buffer.byteLength(r.html), seconds, cpuSeconds, notes: r.notes, warnings: r.warnings };
}

export interface PlotOptions {
  /** Figure file: .svg, .png, .html, or .vl.json (the Vega-Lite spec). */
  out: string;
  /** PNG width in pixels, 16 … 20000 (default: twice the figure's size). */
  width?: number;
  /** The plot kind's own options (its flags in ts/report/plots/, camelCase keys). */
  options?: Record<string, unknown>;
  /** Column roles, for the kinds that read runs or a map (dataFlags). */
  load?: LoadOptions;
}

export interface PlotSummary {
  out: string;
  kind: string;
  /** Renderer warnings. */
  warnings: string[];
}

/** One figure of kind `kind` (ts/report/plots/index.ts) of the table in `table`. */
export async function runPlot(kind: string, table: string, options: PlotOptions): Promise<PlotSummary> {
  const k = plotKind(kind);
  if (!k) throw new VarmapError("E_USAGE", `unknown plot kind '${kind}'`, { remedy: `use ${PLOT_KINDS.map((x) => x.kind).join(", ")}` });
  const { figureFormat, writeFigure } = await import("../report/output.js");
  const out = options.out;
  const format = figureFormat(out);
  const width = options.width;
  if (width !== undefined && format !== "png")
    throw new VarmapError("E_USAGE", "--width applies to PNG output only", { remedy: "drop --width, or write a .png" });
  if (width !== undefined) parseInteger(width, "--width", { min: 16, max: 20000, example: 1200 });
  const opts = options.options ?? {};
  const spec = await k.fromFile(table, k.dataFlags ? { ...opts, load: options.load } : opts);
  const warnings = await writeFigure(spec, out, { width });
  return { out, kind: k.kind, warnings };
}
