// `varmap screen`: the application logic (issue 45 item 2). Validates, loads the runs, screens every configuration
// (ts/screen/), writes the per-configuration table (and optionally the per-map shares) atomically.
import { loadDataset, type LoadOptions } from "../data/load.js";
import type { ConfigTable } from "../data/types.js";
import { TABLE_OUTPUT, TABLE_OUTPUT_EXTENSIONS, writeTable, type Column } from "../data/write.js";
import { VarmapError } from "../errors.js";
import { screenHeadline, screenTable, type ScreenMapShare, type ScreenResult } from "../screen/screen.js";

export interface ScreenOptions {
  /** How to read the runs (roles, --where, …); the statistic and scaling flags do not matter here. */
  load: LoadOptions;
  /** Per-configuration table (.csv, .tsv, .json, .parquet). */
  out: string;
  /** Optional per-map table of shares. */
  mapsOut?: string;
  /** False discovery rate / test level (default 0.05). */
  alpha?: number;
}

export interface ScreenSummary {
  verb: "screen";
  file: string;
  out: string;
  mapsOut: string | null;
  configurations: number;
  alpha: number;
  /** "x % of configurations are not normal, y % multimodal, z % drift …" */
  headline: string;
  overall: ScreenResult["overall"];
  maps: ScreenMapShare[];
  /** CPU seconds of the screening itself (not the reading). */
  cpuSeconds: number;
}

export function validateScreenOptions(o: ScreenOptions): void {
  if (!o.out) throw new VarmapError("E_USAGE", "--out is required", { remedy: "pass --out screen.csv" });
  for (const [flag, path] of [
    ["--out", o.out],
    ["--maps-out", o.mapsOut],
  ] as const) {
    if (path !== undefined && !TABLE_OUTPUT.test(path))
      throw new VarmapError("E_USAGE", `cannot tell the format of ${flag} '${path}'`, { remedy: `end it in ${TABLE_OUTPUT_EXTENSIONS}` });
  }
  if (o.mapsOut !== undefined && o.mapsOut === o.out)
    throw new VarmapError("E_USAGE", `--out and --maps-out name the same file '${o.out}'`, { remedy: "give the per-map table its own path" });
  const a = o.alpha ?? 0.05;
  if (!(a > 0 && a < 1)) throw new VarmapError("E_USAGE", `--alpha must be in (0, 1), got '${String(o.alpha)}'`, { remedy: "e.g. --alpha 0.05" });
  if (o.load.map)
    throw new VarmapError("E_USAGE", "screen tests each configuration's runs: it needs one row per run, not a --map table", {
      remedy: "drop --map and give the runs file",
    });
}

export async function runScreen(file: string, options: ScreenOptions): Promise<ScreenSummary> {
  validateScreenOptions(options);
  const alpha = options.alpha ?? 0.05;
  // stat mean: keep every configuration with at least one run (the tests say where they cannot run).
  const data = await loadDataset(file, { ...options.load, stat: "mean", allowNoInputs: true, logResponse: false });
  const t0 = process.cpuUsage();
  const r = screenTable(data.table, alpha);
  const cpu = process.cpuUsage(t0);
  if (options.mapsOut) await writeTable(options.mapsOut, mapColumns(data.table.roles.factors, r.maps));
  await writeTable(options.out, screenColumns(data.table, r));
  return {
    verb: "screen",
    file,
    out: options.out,
    mapsOut: options.mapsOut ?? null,
    configurations: data.table.count,
    alpha,
    headline: screenHeadline(r),
    overall: r.overall,
    maps: r.maps,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
  };
}

/** The per-configuration table: factors and inputs under their own names, then the screening columns. */
export function screenColumns(table: ConfigTable, r: ScreenResult): Column[] {
  const d = table.roles.inputs.length;
  const cols: Column[] = [];
  if (table.ids) cols.push({ name: "id", values: table.ids });
  table.roles.factors.forEach((name, f) => cols.push({ name, values: table.factorValues[f], type: "string" }));
  table.roles.inputs.forEach((name, j) => cols.push({ name, values: Float64Array.from({ length: table.count }, (_, c) => table.inputs[c * d + j]) }));
  const s = r.columns;
  cols.push({ name: "n", values: s.n, type: "int" }, { name: "distinct", values: s.distinct, type: "int" });
  cols.push({ name: "mean", values: s.mean }, { name: "sd", values: s.sd });
  cols.push({ name: "sw_w", values: s.swW }, { name: "sw_p", values: s.swP }, { name: "sw_q", values: s.swQ });
  cols.push({ name: "dip", values: s.dip }, { name: "dip_p", values: s.dipP }, { name: "dip_q", values: s.dipQ });
  cols.push({ name: "skewness", values: s.skewness }, { name: "skewness_se", values: s.skewnessSe });
  cols.push({ name: "kurtosis", values: s.kurtosis }, { name: "kurtosis_se", values: s.kurtosisSe });
  cols.push({ name: "lag1", values: s.lag1 }, { name: "runs", values: s.runs, type: "int" });
  cols.push({ name: "runs_z", values: s.runsZ }, { name: "runs_p", values: s.runsP }, { name: "runs_q", values: s.runsQ });
  return cols;
}

function mapColumns(factors: string[], maps: ScreenMapShare[]): Column[] {
  const num = (f: (m: ScreenMapShare) => number) => Float64Array.from(maps, f);
  return [
    ...factors.map((name) => ({ name, values: maps.map((m) => m.key[name]), type: "string" as const })),
    { name: "configurations", values: Int32Array.from(maps, (m) => m.configurations), type: "int" },
    { name: "tested_normal", values: Int32Array.from(maps, (m) => m.tested.normal), type: "int" },
    { name: "not_normal", values: num((m) => m.notNormal) },
    { name: "not_normal_raw", values: num((m) => m.notNormalRaw) },
    { name: "tested_modes", values: Int32Array.from(maps, (m) => m.tested.modes), type: "int" },
    { name: "multimodal", values: num((m) => m.multimodal) },
    { name: "multimodal_raw", values: num((m) => m.multimodalRaw) },
    { name: "tested_drift", values: Int32Array.from(maps, (m) => m.tested.drift), type: "int" },
    { name: "drift", values: num((m) => m.drift) },
    { name: "drift_raw", values: num((m) => m.driftRaw) },
  ];
}
