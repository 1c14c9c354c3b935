// `varmap report`: one self-contained HTML page for a refit, cv or demo output directory — the Table-2 summary
// with its ARE plot, a heatmap of a few maps (default: the most and the least variable), predicted vs measured
// per method on those maps, the best-family and best-k counts, and histograms with fitted densities for a few
// configurations. Figures are inline SVG; the page makes no request of any kind.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { writeFileAll } from "../data/io.js";
import { writeAtomic } from "../data/write.js";
import { basename, join, resolve } from "node:path";
import { VarmapError, isVarmapError } from "../errors.js";
import { loadDataset, resolveRolesFor, type Dataset, type LoadOptions } from "../data/load.js";
import { mapsWhere, rankMapsSql, type MapRank } from "./rank.js";
import type { VariabilityMap } from "../data/types.js";
import { matrix } from "../predict/matrix.js";
import { mapInputScaling, predictSplit } from "../cv/split.js";
import { divisionStream, randomDivision } from "../cv/divisions.js";
import { mapLabel } from "../data/shared-maps.js";
import { configRows, configKey, configLabel, mapValues } from "./configs.js";
import { renderSvg, type TopLevelSpec } from "./render.js";
import { escapeHtml, fmt, htmlTable } from "./html.js";
import { num, readTable } from "./table.js";
import { heatmapSpec, defaultAxes } from "./plots/heatmap.js";
import { areRows, areSpec } from "./plots/are.js";
import { pvmSpec, areOf, type PvmPoint } from "./plots/predicted-vs-measured.js";
import { bestCounts, bestCountsSpec } from "./plots/best-counts.js";
import { histogramSpec } from "./plots/histogram.js";
import { probabilitySpec } from "./plots/probability.js";
import { bestPerFamily, fitsByConfig, type FitEntry } from "./fits.js";
import { vegaJson, vegaRuntime, withClickHistogram, BOOT_JS, LIVE_CSS } from "./interactive.js";
import { linesSpec } from "./plots/lines.js";
import { boxSpec, boxesOf } from "./plots/box.js";
import { designPoints, designSpec } from "./plots/design.js";
import { diffRows } from "./plots/heatmap.js";
import { samplePanels } from "./plots/mixture-sample.js";
import { findPlanFiles, planSection } from "./plan-section.js";
import { effectsSpec } from "./plots/effects.js";
import { anova } from "../effects/anova.js";
import { mapFactors } from "../effects/map-factors.js";
import { statTitle, titleOf } from "./units.js";

export interface ReportOptions {
  /** The runs file; default: the demo directory's dataset. */
  data?: string;
  /** Column roles and selection for `data` (default for a demo directory: the moana preset). */
  dataOptions?: LoadOptions;
  /** Which maps get a heatmap and a predicted-vs-measured figure: "extremes" (default), a count, or selectors "a=x,b=y;…". */
  maps?: string;
  /** Configurations in the histogram and probability figures. */
  configs?: number;
  /** Training fraction and seed of the division behind predicted vs measured. */
  p?: number;
  seed?: string;
  /** Notes (what was left out and why) go here as well as into the page. */
  note?: (msg: string) => void;
  /** Static SVG figures only: no inlined Vega runtime, no script (a smaller page, no interaction). */
  static?: boolean;
}

export interface ReportResult {
  html: string;
  kind: "demo" | "refit" | "cv";
  figures: number;
  /** Renderer warnings (a correct report has none). */
  warnings: string[];
  notes: string[];
}

interface Manifest {
  verb: string;
  factors: string[];
  maps: { values: string[]; rows: number; inputs: string[] }[];
  methods: string[];
  methodOptions?: Record<string, Record<string, unknown>>;
  response: "linear" | "log";
  mixtures?: { columns: string[]; families: string[]; kmax: number };
  generated?: { seed: string };
}

interface Layout {
  kind: "demo" | "refit" | "cv";
  refit?: { dir: string; manifest: Manifest };
  cv?: { dir: string; manifest: Manifest };
  data?: string;
}

/**
 * The runs the report draws must be the job's: every map of the job found in them has the configuration count the job
 * recorded, at least one is found, and every other map has one configuration (jobs skip those). Runs of
 * the same grid drawn again are not told apart: the plan keeps a fingerprint of the whole data, not of each map.
 */
function checkDataMatchesJob(manifest: Manifest, ranks: MapRank[], dataFile: string): void {
  if (!manifest.maps?.length || !ranks.length) return;
  const keyOf = (values: string[]) => JSON.stringify(values);
  const inData = new Map(ranks.map((r) => [keyOf(manifest.factors.map((f) => String(r.key[f]))), r.configs]));
  const fail = (what: string) => {
    throw new VarmapError("E_REPORT_DATA_MISMATCH", what, {
      location: { file: dataFile },
      remedy: "pass the runs file the job read, with the same column flags and --where (or leave --data out for a demo directory)",
    });
  };
  const name = (values: string[]) => manifest.factors.map((f, i) => `${f}=${values[i]}`).join(", ") || "all";
  let found = 0;
  for (const m of manifest.maps) {
    const configs = inData.get(keyOf(m.values));
    if (configs === undefined) continue;
    found++;
    if (configs !== m.rows) fail(`the map ${name(m.values)} has ${configs} configurations here, ${m.rows} in the job's runs`);
  }
  if (!found) fail(`none of the job's ${manifest.maps.length} map(s) is in this file (the job's factors: ${manifest.factors.join(", ") || "none"})`);
  const inJob = new Set(manifest.maps.map((m) => keyOf(m.values)));
  for (const [key, configs] of inData)
    if (configs >= 2 && !inJob.has(key)) fail(`the data holds the map ${name(JSON.parse(key) as string[])}, which the job did not fit`);
}

function readManifest(dir: string): Manifest | undefined {
  const f = join(dir, "manifest.json");
  if (!existsSync(f)) return undefined;
  try {
    return JSON.parse(readFileSync(f, "utf8")) as Manifest;
  } catch (e) {
    throw new VarmapError("E_REPORT_DIR", `manifest.json is not JSON: ${(e as Error).message}`, {
      location: { file: f },
      remedy: "rerun the verb that wrote the directory",
    });
  }
}

/** What kind of output directory `dir` is, and where its parts are. */
export function locate(dir: string): Layout {
  if (!existsSync(dir) || !statSync(dir).isDirectory())
    throw new VarmapError("E_REPORT_DIR", "no such directory", { location: { file: dir }, remedy: "give the --out directory of varmap refit, cv or demo" });
  const own = readManifest(dir);
  if (own?.verb === "refit" || own?.verb === "cv") return { kind: own.verb, [own.verb]: { dir, manifest: own } };
  const refit = readManifest(join(dir, "refit")),
    cv = readManifest(join(dir, "cv"));
  if (refit || cv) {
    const data = readdirSync(dir)
      .filter((f) => /\.(parquet|csv)$/i.test(f))
      .sort();
    return {
      kind: "demo",
      ...(refit ? { refit: { dir: join(dir, "refit"), manifest: refit } } : {}),
      ...(cv ? { cv: { dir: join(dir, "cv"), manifest: cv } } : {}),
      ...(data.length === 1 ? { data: join(dir, data[0]) } : {}),
    };
  }
  throw new VarmapError("E_REPORT_DIR", "not a refit, cv or demo output directory (no manifest.json, nor refit/ or cv/ with one)", {
    location: { file: dir },
    remedy: "give the --out directory of varmap refit, cv or demo (a shard's directory: merge the shards first)",
  });
}

interface Figure {
  id: string;
  svg: string;
  caption: string;
}

/** Table positions of each map's configurations (maps' ids are the --id values for map tables, not positions). */
function mapPositions(ds: Dataset): number[][] {
  const t = ds.table;
  const index = new Map(ds.maps.map((m, i) => [t.roles.factors.map((f) => m.key[f]).join("\u0000"), i]));
  const out: number[][] = ds.maps.map(() => []);
  for (let c = 0; c < t.count; c++) {
    const i = index.get(t.factorValues.map((f) => f[c]).join("\u0000"));
    if (i !== undefined) out[i].push(c);
  }
  return out;
}

function median(v: number[]): number {
  const s = v.filter(Number.isFinite).sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : NaN;
}

/**
 * How variable a map is: the median over its configurations of sd / mean of the runs (independent of the map's
 * scale); for a map table (one value per configuration), the median of that value.
 */
function variability(ds: Dataset, positions: readonly number[], mapTable: boolean): number {
  return median(positions.map((c) => (mapTable ? ds.stats.mean[c] : ds.stats.sd[c] / Math.abs(ds.stats.mean[c]))));
}

/** The maps the report shows, most variable first. */
export function chooseMaps(maps: readonly { key: Record<string, string> }[], scores: readonly number[], how = "extremes"): number[] {
  const ranked = maps.map((_, i) => i).sort((a, b) => (scores[b] || 0) - (scores[a] || 0) || a - b);
  const spec = how.trim();
  if (spec === "extremes" || /^\d+$/.test(spec)) {
    const n = spec === "extremes" ? 2 : Number(spec);
    if (n < 1) throw new VarmapError("E_USAGE", `--maps ${how} selects no map`, { remedy: "give a positive count, extremes, or selectors" });
    const most = Math.ceil(n / 2),
      least = n - most;
    const pick = [...ranked.slice(0, most), ...ranked.slice(Math.max(most, ranked.length - least))];
    return [...new Set(pick)];
  }
  const chosen: number[] = [];
  for (const sel of spec
    .split(";")
    .map((s) => s.trim())
    .filter(Boolean)) {
    const pairs = sel.split(",").map((p) => p.split("=").map((x) => x.trim()));
    if (pairs.some((p) => p.length !== 2 || !p[0]))
      throw new VarmapError("E_USAGE", `--maps selector '${sel}' is not a list of factor=value`, {
        remedy: 'e.g. --maps "mode=fread;mode=fwrite", a count, or extremes',
      });
    const hit = ranked.filter((i) => pairs.every(([f, v]) => maps[i].key[f] === v));
    if (!hit.length)
      throw new VarmapError("E_USAGE", `--maps selector '${sel}' matches no map`, {
        remedy: `map keys look like ${Object.entries(maps[0].key)
          .map(([f, v]) => `${f}=${v}`)
          .join(",")}`,
      });
    chosen.push(...hit.filter((i) => !chosen.includes(i)));
  }
  return chosen;
}

function keyText(factors: readonly string[], key: Record<string, string>): string {
  return factors.map((f) => key[f]).join("\u0000");
}

function describe(m: VariabilityMap): string {
  const parts = Object.entries(m.key).map(([f, v]) => `${f}=${v}`);
  return parts.length ? parts.join(", ") : "all configurations";
}

/** Held-out predictions of every method on one division of the map (seeded like cv's divisions of that p). */
function heldOut(
  m: VariabilityMap,
  methods: readonly string[],
  manifest: Manifest,
  p: number,
  seed: string,
  notes: string[],
  label?: (row: number) => string,
): PvmPoint[] {
  const { train, test } = randomDivision(m.rows, p, divisionStream(seed, mapLabel(m.key), p, 0));
  const X = matrix(m.X, m.rows, m.inputNames.length);
  const points: PvmPoint[] = [];
  for (const method of methods) {
    try {
      const pred = predictSplit(X, m.y, train, test, method, {
        ...(manifest.methodOptions?.[method] ?? {}),
        inputs: mapInputScaling(m.normalization),
        response: manifest.response,
      });
      test.forEach((row, i) => points.push({ measured: m.y[row], prediction: pred[i], method, ...(label ? { config: label(row) } : {}) }));
    } catch (e) {
      if (!isVarmapError(e)) throw e;
      notes.push(`${method} could not be fitted on ${describe(m)}: ${e.code}`);
    }
  }
  return points;
}

const pct = (x: number) => (Number.isFinite(x) ? (100 * x).toFixed(2) : "—");

export async function buildReport(dirArg: string, opts: ReportOptions = {}): Promise<ReportResult> {
  const dir = resolve(dirArg);
  const layout = locate(dir);
  const notes: string[] = [];
  const note = (s: string) => {
    notes.push(s);
    opts.note?.(s);
  };
  const warnings: string[] = [];
  const figures: Figure[] = [];
  let nfig = 0;
  // Each figure: its static SVG (what prints, and what shows with scripts off) and its compiled Vega spec, which
  // the page's inlined Vega runtime turns into a live view (tooltips, zoom and pan, clicks).
  // `live`: the spec of the live view when it differs from the static one (e.g. tooltips naming every point's
  // configuration, which the static SVG would otherwise repeat in each point's aria-label).
  const figure = async (spec: TopLevelSpec, caption: string, liveSpec: TopLevelSpec = spec): Promise<string> => {
    const r = await renderSvg(spec);
    warnings.push(...r.warnings);
    const f = { id: `fig${++nfig}`, svg: r.svg, caption };
    figures.push(f);
    const live = opts.static ? "" : `<div class="vega-live"></div><script type="application/json" class="vega-spec">${vegaJson(liveSpec)}</script>`;
    return `<figure id="${f.id}"${opts.static ? "" : " data-vega"}><div class="static">${f.svg}</div>${live}<figcaption><b>Figure ${nfig}.</b> ${escapeHtml(caption)}</figcaption></figure>`;
  };
  const sections: { id: string; title: string; body: string }[] = [];
  const manifest = layout.refit?.manifest ?? layout.cv!.manifest;
  // The BIC-best fitted mixture of each configuration of the shown maps (refit's distributions.csv), by configKey.
  const distPath = layout.refit ? join(layout.refit.dir, "distributions.csv") : undefined;
  let distRows: Awaited<ReturnType<typeof readTable>> | undefined;
  const shownFits = async (d: Dataset, which: readonly number[], pos: number[][]): Promise<Map<string, FitEntry[]>> => {
    if (!distPath || !existsSync(distPath)) return new Map();
    distRows ??= await readTable(distPath);
    const key = layout.refit!.manifest.mixtures?.columns ?? [...d.table.roles.factors, ...d.table.roles.inputs];
    const keys = new Set<string>();
    for (const i of which) for (const c of pos[i]) keys.add(configKey(d.table, c));
    const mine = distRows.filter((r) => keys.has(key.map((c) => String(r[c])).join("\u0000")));
    const fits = mine.length ? fitsByConfig(mine, key, distPath) : new Map<string, FitEntry[]>();
    for (const [k, f] of fits) fits.set(k, bestPerFamily(f));
    return fits;
  };

  // Cross-validation: Table 2 and its ARE curves.
  if (layout.cv) {
    const t2 = await readTable(join(layout.cv.dir, "table2.csv"));
    const methods = Object.keys(t2[0] ?? {})
      .filter((c) => c.startsWith("are_"))
      .map((c) => c.slice(4));
    const table = htmlTable(
      ["p", ...methods.map((m) => `${m} ARE (%)`)],
      t2.map((r) => [fmt(num(r.p)), ...methods.map((m) => pct(num(r[`are_${m}`])))]),
      {
        caption: `Mean absolute relative error (%) on held-out configurations, averaged over ${layout.cv.manifest.maps.length} map(s)`,
      },
    );
    // A finished cv whose every cell failed (e.g. maps too small for the method at every p) still gets its report.
    const points = areRows(await readTable(join(layout.cv.dir, "are.csv")));
    if (!points.length) note("no finite ARE in are.csv (every method failed every map): no ARE figure; are.csv gives the reasons");
    const fig = points.length ? await figure(areSpec(points), "ARE against the training fraction p, one line per method (seed 000 Table 2).") : "";
    sections.push({ id: "table2", title: "Cross-validated ARE (Table 2)", body: `<div class="pair">${table}${fig}</div>` });
  }

  // Maps and run distributions need the runs: only those of the maps shown are loaded (ranked in DuckDB first).
  const dataFile = opts.data ?? layout.data;
  let ds: Dataset | undefined;
  let ranks: MapRank[] = [];
  let shown: number[] = [];
  const mapTable = !!opts.dataOptions?.map;
  if (dataFile) {
    const loadOpts: LoadOptions = { stat: "sd", ...(opts.dataOptions ?? (layout.kind === "demo" ? { preset: "moana" } : {})) };
    // --format (a tool's output, issue 42): no table for SQL to rank; the maps are ranked after loading.
    const roles = loadOpts.format ? undefined : await resolveRolesFor(dataFile, loadOpts);
    const sqlRanks = roles && !mapTable && loadOpts.stat === "sd" ? await rankMapsSql(dataFile, roles, loadOpts.where) : undefined;
    if (sqlRanks?.length) {
      ranks = sqlRanks;
      const keys = chooseMaps(
        ranks,
        ranks.map((r) => r.score),
        opts.maps,
      ).map((i) => ranks[i].key);
      const factors = roles!.factors;
      ds = await loadDataset(dataFile, { ...loadOpts, where: mapsWhere(factors, keys, loadOpts.where) });
      const at = new Map(ds.maps.map((m, i) => [keyText(factors, m.key), i]));
      shown = keys.map((k) => at.get(keyText(factors, k))).filter((i): i is number => i !== undefined);
    } else {
      ds = await loadDataset(dataFile, loadOpts);
      const pos = mapPositions(ds);
      ranks = ds.maps.map((m, i) => ({ key: m.key, configs: m.rows, score: variability(ds!, pos[i], mapTable) }));
      shown = chooseMaps(
        ranks,
        ranks.map((r) => r.score),
        opts.maps,
      );
    }
    checkDataMatchesJob(layout.refit?.manifest ?? layout.cv!.manifest, ranks, dataFile);
  } else note("no runs file: pass --data FILE (with its column flags) to add heatmaps, predicted vs measured and histograms");

  if (ds) {
    const stat = ds.maps[0]?.stat ?? "sd";
    const factors = ds.table.roles.factors;
    const positions = mapPositions(ds);
    const scoreOf = new Map(ranks.map((r) => [keyText(factors, r.key), r.score]));
    const summary = htmlTable(
      [
        "map",
        "configurations",
        mapTable ? `median ${ds.table.roles.response}` : "median sd/mean",
        `mean ${mapTable ? ds.table.roles.response : stat}`,
        "rank (1 = most variable)",
      ],
      shown.map((i) => {
        const m = ds!.maps[i];
        const score = scoreOf.get(keyText(factors, m.key)) ?? NaN;
        const rank = ranks.filter((r) => r.score > score).length + 1;
        return [describe(m), m.rows, fmt(score), fmt(m.y.reduce((s, v) => s + v, 0) / m.rows), `${rank} of ${ranks.length}`];
      }),
      { caption: `Maps shown (${opts.maps ?? "extremes"}: ${shown.length} of ${ranks.length})` },
    );
    const heat: string[] = [];
    // One input (a hyperfine scan of one parameter, issue 42): no heatmaps; the other figures still apply.
    const twoInputs = ds.table.roles.inputs.length >= 2;
    if (!twoInputs) note(`one input (${ds.table.roles.inputs.join("")}): no heatmaps (a heatmap needs two inputs)`);
    const fitsOf = await shownFits(ds, shown, positions);
    for (const i of twoInputs ? shown : []) {
      const m = ds.maps[i];
      const mv = mapValues(ds, stat, mapTable);
      const mine = configRows(ds, mv.column, mv.values, positions[i]);
      positions[i].forEach((c, j) => (mine[j].cfg = String(c)));
      const { x, y } = defaultAxes(mine, ds.table.roles.inputs);
      const heatSpec = heatmapSpec(mine, {
        id: mapTable ? undefined : "cfg",
        x,
        y,
        value: mv.column,
        others: ds.table.roles.inputs,
        title: mapTable ? titleOf(mv.column) : statTitle(stat, ds.table.roles.response),
        colorTitle: mapTable ? titleOf(mv.column) : statTitle(stat, ds.table.roles.response),
        context: describe(m),
      });
      let spec = heatSpec;
      if (!mapTable) {
        // Beside the heat map, the histogram of the clicked configuration's runs and its fitted mixture (first: the
        // cell with the largest value).
        const cells = (heatSpec as unknown as { data: { values: { cfg: string; v: number }[] } }).data.values;
        const first = cells.reduce((a, b) => (b.v > a.v ? b : a), cells[0]);
        const t = ds.table;
        spec = withClickHistogram(
          heatSpec,
          cells.map((cell) => {
            const c = Number(cell.cfg);
            const best = fitsOf.get(configKey(t, c))?.[0];
            return {
              cfg: cell.cfg,
              label: configLabel(t, c).split("; ").pop()!,
              runs: t.runs.subarray(t.offsets[c], t.offsets[c + 1]),
              ...(best ? { fit: { mixture: best.mixture, label: `${best.family} ${best.k}` } } : {}),
            };
          }),
          first.cfg,
          titleOf(t.roles.response),
        );
      }
      heat.push(
        await figure(
          spec,
          `Run-to-run ${stat} of each configuration of ${describe(m)} over ${x} and ${y}; the other inputs held at the level named above the plot.${mapTable ? "" : " Hover a cell for its configuration; click it for its runs' histogram (right) with the fitted mixture; drag to pan, scroll to zoom, double-click to reset."}`,
        ),
      );
    }
    sections.push({ id: "maps", title: "Variability maps", body: summary + `<div class="maps">${heat.join("\n")}</div>` });
    if (!mapTable) {
      const body = await inputFigures(ds, shown, positions, figure, notes);
      if (body) sections.push({ id: "inputs", title: "The design and the inputs' effects", body });
    }

    const methods = manifest.methods.filter((m) => m !== "mean");
    if (methods.length) {
      const p = opts.p ?? 0.5,
        seed = opts.seed ?? layout.cv?.manifest.generated?.seed ?? "1";
      const parts: string[] = [];
      const areRowsOut: (string | number)[][] = [];
      for (const i of shown) {
        const m = ds.maps[i];
        const pts = heldOut(m, methods, manifest, p, seed, notes, mapTable ? undefined : (row) => configLabel(ds!.table, Number(m.ids[row])));
        if (!pts.length) continue;
        for (const method of methods) {
          const mine = pts.filter((q) => q.method === method);
          if (mine.length) areRowsOut.push([describe(m), method, mine.length, pct(areOf(mine))]);
        }
        const facetPts = pts.map((q) => ({ ...q, facet: q.method }));
        const pvmOpts = { title: `Predicted vs measured ${stat}: ${describe(m)}`, measuredTitle: `measured ${statTitle(stat, ds.table.roles.response)}` };
        parts.push(
          await figure(
            pvmSpec(
              facetPts.map(({ config, ...q }) => q),
              pvmOpts,
            ),
            `Each method fitted on a random ${Math.round(p * 100)}% of the configurations of ${describe(m)} (seed ${seed}) and evaluated on the rest; dashed: y = x, legend: ARE on these points. Hover a point for its configuration; drag to pan, scroll to zoom.`,
            pvmSpec(facetPts, pvmOpts),
          ),
        );
      }
      const t = htmlTable(["map", "method", "held-out configurations", "ARE (%)"], areRowsOut, { caption: `ARE of one division at p = ${p}` });
      sections.push({ id: "pvm", title: "Predicted vs measured", body: t + parts.join("\n") });
    }
  }

  // Run distributions (refit with mixtures).
  const distFile = layout.refit ? join(layout.refit.dir, "distributions.csv") : undefined;
  if (distFile && existsSync(distFile)) {
    const dist = await readTable(distFile);
    const counts = bestCounts(dist, distFile);
    const fams = [...new Set(counts.map((c) => c.family))];
    const kmax = Math.max(...counts.map((c) => c.k));
    const cell = (f: string, k: number) => counts.find((c) => c.family === f && c.k === k)?.count ?? 0;
    const table = htmlTable(
      ["best family", ...Array.from({ length: kmax }, (_, i) => `k = ${i + 1}`), "total"],
      [
        ...fams.map((f) => [
          f,
          ...Array.from({ length: kmax }, (_, i) => cell(f, i + 1)),
          counts.filter((c) => c.family === f).reduce((s, c) => s + c.count, 0),
        ]),
        [
          "all",
          ...Array.from({ length: kmax }, (_, i) => counts.filter((c) => c.k === i + 1).reduce((s, c) => s + c.count, 0)),
          counts.reduce((s, c) => s + c.count, 0),
        ],
      ],
      { caption: "Configurations by BIC-best family and number of components (seed 001 Tables 4–5)" },
    );
    let body = `<div class="pair">${table}${await figure(bestCountsSpec(counts), "How often each family and each k wins by BIC.")}</div>`;
    if (ds) {
      const key = layout.refit!.manifest.mixtures?.columns ?? [...ds.table.roles.factors, ...ds.table.roles.inputs];
      const n = opts.configs ?? 4;
      const byKey = new Map<string, number>();
      const pos = mapPositions(ds);
      for (const i of shown) for (const c of pos[i]) byKey.set(configKey(ds.table, c), c);
      // Only the shown maps' fits are parsed (a whole design has 10⁵ of them).
      const mine = dist.filter((r) => byKey.has(key.map((c) => String(r[c])).join("\u0000")));
      const fits = mine.length ? fitsByConfig(mine, key, distFile) : new Map<string, FitEntry[]>();
      // The shown maps' most multimodal configurations by BIC (largest best k; data order within a k), as seed 001 Fig. 1 picks.
      const cand = [...fits.entries()].filter(([k]) => byKey.has(k)).map(([k, f]) => ({ c: byKey.get(k)!, best: f[0] }));
      cand.sort((a, b) => b.best.k - a.best.k || a.c - b.c);
      const pick = cand.slice(0, n);
      if (pick.length) {
        const sel = pick.map(({ c, best }) => ({
          label: configLabel(ds!.table, c),
          runs: ds!.table.runs.subarray(ds!.table.offsets[c], ds!.table.offsets[c + 1]),
          best,
        }));
        body += await figure(
          histogramSpec(
            sel.map((s) => ({ label: s.label, runs: s.runs, density: { mixture: s.best.mixture, label: `${s.best.family} ${s.best.k}` } })),
            { title: "Runs of the most multimodal configurations", xTitle: titleOf(ds.table.roles.response) },
          ),
          `Histograms (Freedman–Diaconis bins) of the ${pick.length} configuration(s) of the maps shown whose BIC-best mixture has the most components, with that mixture's density scaled to counts (seed 001 Fig. 1).`,
        );
        body += await figure(
          probabilitySpec(
            sel.map((s) => ({ label: s.label, runs: s.runs, curves: [{ family: s.best.family, k: s.best.k, overall: true, mixture: s.best.mixture }] })),
            { title: "Probability plots", xTitle: titleOf(ds.table.roles.response) },
          ),
          "The runs' ECDF (black steps) against the BIC-best mixture's CDF (seed 001 Fig. 5; distributions.csv keeps only the best model; `varmap plot probability` with a `varmap mixture` fits table draws every family).",
        );
        const s0 = sel[0];
        body += await figure(
          histogramSpec(samplePanels([s0.best], s0.runs.length, 4, 1), {
            title: "Samples from the most multimodal configuration's fitted mixture",
            xTitle: `sampled ${titleOf(ds.table.roles.response)}`,
            subtitle: `4 seeded samples of ${s0.runs.length} draws (the configuration's run count) from ${s0.best.family} ${s0.best.k} fitted to ${s0.label}; red: its density`,
          }),
          "What runs drawn from the fitted mixture look like at the same run count (seed 001 Fig. 3): how much of the measured histogram's shape the sample size alone explains. `varmap plot mixture-sample` draws any configuration's fits.",
        );
      }
    }
    sections.push({ id: "distributions", title: "Run distributions", body });
  } else if (layout.refit && !layout.refit.manifest.mixtures) note("the refit ran with --no-mixtures: no run distributions to show");

  if (layout.refit && existsSync(join(layout.refit.dir, "summary.csv"))) {
    const s = await readTable(join(layout.refit.dir, "summary.csv"));
    const rowsOut = manifest.methods.map((m) => {
      const mine = s.filter((r) => r.method === m);
      return [m, mine.filter((r) => r.status === "ok").length, mine.filter((r) => r.status !== "ok").length];
    });
    sections.push({
      id: "refit",
      title: "Fitted models",
      body: htmlTable(["method", "maps fitted", "failed"], rowsOut, { caption: `models.json in ${layout.refit.dir}` }),
    });
  }

  // The plan (issue 43): learning curves and batches `varmap plan` wrote into the directory (recognized by header).
  const planFiles = findPlanFiles([...new Set([dir, layout.refit?.dir, layout.cv?.dir].filter((d): d is string => d !== undefined))]);
  const planBody = await planSection(
    planFiles,
    (spec, caption) => figure(spec, caption),
    (f) => basename(f),
  );
  if (planBody) sections.push({ id: "plan", title: "Campaign plan", body: planBody });

  const html = page(dir, layout, sections, notes, !opts.static);
  return { html, kind: layout.kind, figures: figures.length, warnings, notes };
}

/**
 * The design (scatter matrix of measured and unseen combinations), the mean against one input with a line per level
 * of another (seed 000 Figs. 1–3), box plots of the runs per level (Fig. 5) and the change in variance between the
 * extreme levels of that input (Fig. 4), for the most variable map shown.
 */
async function inputFigures(
  ds: Dataset,
  shown: readonly number[],
  positions: number[][],
  figure: (spec: TopLevelSpec, caption: string) => Promise<string>,
  notes: string[],
): Promise<string> {
  const t = ds.table;
  const inputs = t.roles.inputs;
  if (inputs.length < 2 || !shown.length) return "";
  const parts: string[] = [];
  const d = inputs.length;
  const all = shown.flatMap((i) => positions[i]);
  const configs = all.map((c) => Array.from(t.inputs.subarray(c * d, (c + 1) * d)));
  parts.push(
    await figure(
      designSpec(designPoints(configs, inputs), inputs, { configs: all.length }),
      "The design of the maps shown: each panel a pair of inputs, dots where some configuration was measured, diamonds where a pair of levels on the grid never was (predictions there extrapolate; seed 000 Fig. 6, seed 001 Fig. 2).",
    ),
  );
  const i0 = shown[0];
  const m = ds.maps[i0];
  const label = describe(m);
  // What drives the map's statistic (issue 45): an ANOVA of its log on the inputs, partial η² per term.
  try {
    const positive = Array.from(m.y).every((v) => v > 0);
    const table = anova(
      Float64Array.from(m.y, (v) => (positive ? Math.log(v) : v)),
      mapFactors(m, [], 20),
      { interactions: true },
    );
    const effectRows = table.rows.map((e) => ({ term: e.term, df: e.df, partial_eta2: e.partialEta2, p_type2: e.pType2 }));
    parts.push(
      await figure(
        effectsSpec(effectRows, { title: `Effects on the ${positive ? "log " : ""}${m.stat} of ${label} (ANOVA, type II)` }),
        `How much of the variation of the ${m.stat} across configurations each input and each pair of inputs explains (partial η², type II sums of squares; the bar's shade is its p-value). \`varmap effects\` writes the table, \`varmap plot effects\` draws it.`,
      ),
    );
  } catch (e) {
    if (!isVarmapError(e)) throw e;
    notes.push(`no effects figure for ${label}: ${e.message}`);
  }
  const rows = configRows(ds, "mean", ds.stats.mean, positions[i0]);
  const { x: along, y: series } = defaultAxes(rows, inputs);
  try {
    parts.push(
      await figure(
        linesSpec(rows, {
          x: along,
          series,
          value: "mean",
          yTitle: statTitle("mean", t.roles.response),
          others: inputs,
          title: `Mean ${t.roles.response} against ${along}: ${label}`,
        }),
        `Mean of the runs against ${along}, one line per ${series}, the other inputs at their most common level (seed 000 Figs. 1–3 a–c). \`varmap plot lines\`.`,
      ),
    );
  } catch (e) {
    if (!isVarmapError(e)) throw e;
    notes.push(`no lines figure for ${label}: ${e.message}`);
  }
  try {
    const { boxes, fixed } = boxesOf(ds, along);
    const mine = boxes.filter(
      (b) =>
        !b.facet ||
        b.facet ===
          Object.entries(m.key)
            .map(([f, v]) => `${f}=${v}`)
            .join(", "),
    );
    parts.push(
      await figure(
        boxSpec(
          mine.map(({ facet, ...b }) => b),
          {
            x: along,
            yTitle: titleOf(t.roles.response),
            title: `Runs by ${along}: ${label}`,
            subtitle: [
              Object.entries(fixed)
                .map(([c, v]) => `${c}=${v}`)
                .join(", "),
            ],
          },
        ),
        `Box plots of the runs at each level of ${along}, the other inputs fixed (seed 000 Fig. 5). \`varmap plot box\`.`,
      ),
    );
  } catch (e) {
    if (!isVarmapError(e)) throw e;
    notes.push(`no box plot for ${label}: ${e.message}`);
  }
  const levels = [...new Set(rows.map((r) => Number(r[along])))].sort((a, b) => a - b);
  if (levels.length >= 2) {
    const vrows = configRows(ds, "var", ds.stats.var, positions[i0]);
    const a = String(levels[levels.length - 1]),
      b = String(levels[0]);
    try {
      const diffs = diffRows(vrows, { column: along, a, b }, inputs, "var");
      const rest = inputs.filter((c) => c !== along);
      const { x, y } = defaultAxes(diffs, rest);
      parts.push(
        await figure(
          heatmapSpec(diffs, {
            x,
            y,
            value: "var",
            others: rest,
            diverging: true,
            colorTitle: `change in var (${titleOf(t.roles.response)})`,
            title: `Change in the variance from ${along}=${a} to ${along}=${b}: ${label}`,
            context: `var at ${along}=${b} minus var at ${along}=${a}`,
          }),
          `The change in the runs' variance when ${along} goes from ${a} to ${b}, over ${x} and ${y} (seed 000 Fig. 4); blue: less variable, red: more. \`varmap plot heatmap --stat var --diff ${along}=${a},${b}\`.`,
        ),
      );
    } catch (e) {
      if (!isVarmapError(e)) throw e;
      notes.push(`no change-in-variance heat map for ${label}: ${e.message}`);
    }
  }
  return `<div class="grid">${parts.join("\n")}</div>`;
}

const CSS = `
:root{color-scheme:light}
body{font-family:"DejaVu Sans",Verdana,sans-serif;color:#111;background:#fff;margin:0 auto;max-width:1180px;padding:16px 24px;line-height:1.45}
h1{font-size:1.6em;margin:.2em 0}
h2{font-size:1.25em;border-bottom:2px solid #ddd;padding-bottom:.2em;margin-top:1.6em}
nav ul{display:flex;flex-wrap:wrap;gap:.4em 1.4em;padding:0;list-style:none}
figure{margin:1em 0;break-inside:avoid;page-break-inside:avoid}
figure svg{max-width:100%;height:auto;display:block}
figcaption{font-size:.9em;color:#333;max-width:70em}
table{border-collapse:collapse;margin:1em 0;font-size:.92em;break-inside:avoid}
caption{text-align:left;font-weight:bold;padding-bottom:.3em}
th,td{border:1px solid #ccc;padding:.25em .6em}
th{background:#f2f2f2}
td.num{text-align:right;font-variant-numeric:tabular-nums}
.pair,.grid{display:flex;flex-wrap:wrap;gap:1em 2.5em;align-items:flex-start}
.grid figure{max-width:560px}
.maps figure{overflow-x:auto}
.notes{color:#7a4b00}
code{background:#f4f4f4;padding:0 .2em}
@media print{body{max-width:none;padding:0}nav{display:none}h2{break-after:avoid}}
`;

function page(dir: string, layout: Layout, sections: { id: string; title: string; body: string }[], notes: string[], live: boolean): string {
  const m = layout.refit?.manifest ?? layout.cv!.manifest;
  const what = [
    `${layout.kind} output in <code>${escapeHtml(dir)}</code>`,
    `${m.maps.length} map(s) of factors ${escapeHtml(m.factors.join(", ") || "—")}`,
    `methods ${escapeHtml(m.methods.join(", "))}`,
    `response scale ${m.response}`,
  ];
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>varmap report: ${escapeHtml(basename(dir))}</title>
<style>${CSS}${live ? LIVE_CSS : ""}</style></head>
<body>
<header><h1>varmap report: ${escapeHtml(basename(dir))}</h1><p>${what.join("; ")}.</p>
<nav><ul>${sections.map((s) => `<li><a href="#${s.id}">${escapeHtml(s.title)}</a></li>`).join("")}</ul></nav>
${notes.length ? `<ul class="notes">${notes.map((n) => `<li>${escapeHtml(n)}</li>`).join("")}</ul>` : ""}</header>
<main>
${sections.map((s) => `<section id="${s.id}"><h2>${escapeHtml(s.title)}</h2>\n${s.body}\n</section>`).join("\n")}
</main>
${live ? `<script>${vegaRuntime()}</script>\n<script>${BOOT_JS}</script>` : ""}
</body></html>
`;
}

/** Builds the report of `dir` and writes it to `out` atomically. */
export async function writeReport(dir: string, out: string, opts: ReportOptions = {}): Promise<ReportResult> {
  const r = await buildReport(dir, opts);
  await writeAtomic(out, (tmp) => writeFileAll(tmp, r.html));
  return r;
}
