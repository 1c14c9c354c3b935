// The data layer's entry point: every verb calls loadDataset(file, options) (the CLI builds the options from its
// flags in ts/cli/flags.ts).
import { VarmapError } from "../errors.js";
import { buildMaps } from "./maps.js";
import { jackknifeVariances } from "./stat-variance.js";
import { autoLogInputs, autoLogResponse } from "./auto-transforms.js";
import { presetOf } from "./presets.js";
import { importRuns, presetNameOf, rolesFromColumns, toolOf } from "../import/registry.js";
import { importedColumns, toolFiles } from "./imported.js";
import { fileScan, openDb, queryRows } from "./duckdb.js";
import { readConfigTable } from "./read.js";
import { configStats, minRunsFor, statValues } from "./stats.js";
import type { ColumnRoles, ConfigStats, ConfigTable, StatName, VariabilityMap } from "./types.js";

export interface LoadOptions {
  /** Column roles; explicit fields override the preset's. */
  preset?: string;
  /**
   * The file is a benchmark tool's output (`--format fio`, issue 42): a file or a directory of them, imported as
   * `varmap import` would; the roles default to the import's.
   */
  format?: string;
  /** Roles already resolved (overrides preset and flags). */
  roles?: ColumnRoles;
  factors?: string[];
  inputs?: string[];
  response?: string;
  run?: string;
  /** The file is an already aggregated map: one row per configuration, the response is the statistic. */
  map?: boolean;
  /** With map: an id column kept as the maps' row ids. */
  id?: string;
  where?: string;
  stat?: StatName;
  logInputs?: string[];
  /** Accept repeated run indices within a configuration (default: an error, unless the preset allows them). */
  allowDuplicateRuns?: boolean;
  /** The response will be modelled on a log scale: runs must be > 0. "auto": log when every response is > 0. */
  logResponse?: boolean | "auto";
  /** A positive distribution family will be fitted: runs must be > 0 (`positiveReason` names it in messages). */
  requirePositive?: boolean;
  positiveReason?: string;
  /** The verb works per configuration and needs no numeric inputs (gev): zero --inputs is allowed. */
  allowNoInputs?: boolean;
  /** Where notes go (dropped configurations, constant columns); default: nowhere. */
  note?: (msg: string) => void;
}

export interface Dataset {
  table: ConfigTable;
  maps: VariabilityMap[];
  /** Statistics of every configuration of `table` (for --map tables: of the single value per row). */
  stats: ConfigStats;
  /** Configurations dropped for having too few runs for the statistic. */
  dropped: number;
  /** The transforms in effect (--log-inputs / --log-response, "auto" resolved). */
  resolved?: { logInputs: string[]; logResponse: boolean };
  /** From runs (not a --map table): per configuration of `table`, the jackknife variance of the maps' statistic. */
  yVar?: Float64Array;
}

/**
 * The column roles the options name (preset, then explicit flags on top). A tool's preset (`--preset fio`) reads
 * its roles from the file's columns: give them (resolveRolesFor does).
 */
export function resolveRoles(opts: LoadOptions, columns?: { name: string; numeric: boolean }[]): ColumnRoles {
  if (opts.roles) return opts.roles;
  const preset = opts.preset ? presetOf(opts.preset) : undefined;
  let base: Partial<ColumnRoles> = preset?.roles ?? {};
  if (preset?.tool) {
    if (!columns) throw new Error(`resolveRoles: the preset '${preset.tool}' needs the file's columns (use resolveRolesFor)`);
    base = rolesFromColumns(preset.tool, columns);
  }
  const roles: ColumnRoles = {
    factors: opts.factors ?? (opts.map ? [] : (base.factors ?? [])),
    inputs: opts.inputs ?? base.inputs ?? [],
    response: opts.response ?? (opts.map ? (opts.stat ?? "sd") : (base.response ?? "")),
    run: opts.map ? undefined : (opts.run ?? base.run),
  };
  if (!roles.response || (roles.inputs.length === 0 && !opts.allowNoInputs)) {
    throw new VarmapError("E_USAGE", "no column roles: say which columns are inputs and which is the response", {
      remedy: "pass --preset moana|iozone, or --factors a,b --inputs x,y --response col [--run col]",
    });
  }
  const all = [...roles.factors, ...roles.inputs, roles.response, ...(roles.run ? [roles.run] : [])];
  const dup = all.find((c, i) => all.indexOf(c) !== i);
  if (dup) throw new VarmapError("E_USAGE", `column '${dup}' is given two roles`, { remedy: "give each column one role" });
  return roles;
}

/** resolveRoles for a file: a tool's preset reads the file's column names and types first. */
export async function resolveRolesFor(file: string, opts: LoadOptions): Promise<ColumnRoles> {
  if (opts.roles || !opts.preset || !presetOf(opts.preset).tool) return resolveRoles(opts);
  return resolveRoles(opts, await columnsOf(file));
}

const NUMERIC_TYPE = /^(DOUBLE|FLOAT|REAL|DECIMAL.*|BIGINT|INTEGER|SMALLINT|TINYINT|HUGEINT|UBIGINT|UINTEGER|USMALLINT|UTINYINT)$/;

async function columnsOf(file: string): Promise<{ name: string; numeric: boolean }[]> {
  const db = await openDb({ onlyFiles: [file] });
  try {
    const rows = await queryRows(db.con, `DESCRIBE SELECT * FROM ${fileScan(file)}`);
    return rows.map((r) => ({ name: String(r.column_name), numeric: NUMERIC_TYPE.test(String(r.column_type)) }));
  } catch (e) {
    throw new VarmapError("E_BAD_FILE", `cannot read the file's columns: ${String((e as Error).message).split("\n")[0]}`, {
      location: { file },
      remedy: "give the table `varmap import` wrote (.parquet, .csv or .tsv)",
      cause: e,
    });
  } finally {
    db.close();
  }
}

export async function loadDataset(file: string, opts: LoadOptions = {}): Promise<Dataset> {
  if (opts.format) return loadToolOutput(file, opts);
  const stat = opts.stat ?? "sd";
  const roles = await resolveRolesFor(file, opts);
  const autoResponse = opts.logResponse === "auto";
  const requirePositive = Boolean((opts.logResponse && !autoResponse) || opts.requirePositive);
  let table = await readConfigTable(file, roles, {
    where: opts.where,
    requirePositive,
    positiveReason: opts.positiveReason ?? (opts.logResponse && !autoResponse ? "--log-response" : undefined),
    idColumn: opts.map ? opts.id : undefined,
    allowDuplicateRuns: opts.allowDuplicateRuns ?? (opts.preset ? presetOf(opts.preset).allowDuplicateRuns : false),
    note: opts.note,
  });

  // --log-inputs auto: the columns autoLogInputs picks (other names listed beside "auto" are kept). Its judge
  // sees the responses, so it runs once they are known.
  const resolveAutoInputs = (y: Float64Array): void => {
    if (!opts.logInputs?.includes("auto")) return;
    const picked = autoLogInputs(table, y);
    for (const p of picked) opts.note?.(`--log-inputs auto: ${p.name} (${p.reason})`);
    for (const p of picked.linear ?? []) opts.note?.(`--log-inputs auto: ${p.name} kept linear (${p.reason})`);
    if (!picked.length) opts.note?.("--log-inputs auto: no input is log-transformed");
    opts = { ...opts, logInputs: [...new Set([...opts.logInputs.filter((c) => c !== "auto"), ...picked.map((p) => p.name)])] };
  };
  const resolve = (maps: VariabilityMap[]): Dataset["resolved"] => {
    const logResponse = autoResponse ? autoLogResponse(maps.map((m) => m.y)) : Boolean(opts.logResponse);
    if (autoResponse) opts.note?.(`--log-response auto: ${logResponse ? "log scale (every response is positive)" : linearBecause(maps)}`);
    return { logInputs: opts.logInputs ?? [], logResponse };
  };

  if (opts.map) {
    const c = firstWith(table, (n) => n > 1);
    if (c >= 0) {
      throw new VarmapError(
        "E_DUPLICATE_CONFIGURATION",
        `a map table needs one row per configuration, but ${describeConfig(table, c)} has ${table.offsets[c + 1] - table.offsets[c]} rows`,
        {
          location: { file, row: table.firstRow?.[c], configuration: describeConfig(table, c) },
          remedy: "aggregate the runs first, or drop --map to read one row per run",
        },
      );
    }
    const stats = configStats(table);
    resolveAutoInputs(table.runs);
    const maps = buildMaps(table, table.runs, { stat, logInputs: opts.logInputs, note: opts.note });
    return { table, maps, stats, dropped: 0, resolved: resolve(maps) };
  }

  let dropped = 0;
  const need = minRunsFor(stat);
  if (firstWith(table, (n) => n < need) >= 0) {
    const keep: number[] = [];
    for (let c = 0; c < table.count; c++) if (table.offsets[c + 1] - table.offsets[c] >= need) keep.push(c);
    dropped = table.count - keep.length;
    if (keep.length === 0) {
      throw new VarmapError("E_TOO_FEW_RUNS", `every configuration has fewer than ${need} runs, which --stat ${stat} needs`, {
        location: { file, row: table.firstRow?.[0] },
        remedy: "give at least 2 runs per configuration, or use --stat mean",
      });
    }
    opts.note?.(`${dropped} configuration(s) with fewer than ${need} runs dropped (--stat ${stat} needs ${need}); ${keep.length} remain`);
    table = subsetTable(table, keep);
  }
  const stats = configStats(table);
  const yVar = jackknifeVariances(table, stat);
  const y = statValues(stats, stat);
  resolveAutoInputs(y);
  const maps = buildMaps(table, y, { stat, logInputs: opts.logInputs, note: opts.note, yVar });
  return { table, maps, stats, dropped, resolved: resolve(maps), yVar };
}

/**
 * `--format <tool>`: the tool's files (a file, or every file of a directory) imported into a temporary table, then
 * loaded as any table; roles: the import's, unless a preset or role flags name others.
 */
async function loadToolOutput(path: string, opts: LoadOptions): Promise<Dataset> {
  const parser = toolOf(opts.format!, "--format");
  const tool = parser.name;
  const imported = importRuns(tool, [{ files: toolFiles(path, parser.files), tags: {} }]);
  for (const n of imported.notes) opts.note?.(`--format ${tool}: ${n}`);
  const explicit = opts.preset || opts.factors || opts.inputs || opts.response || opts.run;
  let roles: ColumnRoles;
  if (!explicit) roles = imported.roles;
  else
    roles = resolveRoles(
      { ...opts, preset: opts.preset ?? presetNameOf(tool) },
      imported.columns.map((c) => ({ name: c.name, numeric: c.numeric })),
    );
  return importedColumns(
    imported,
    async (table) => {
      const ds = await loadDataset(table, { ...opts, format: undefined, roles });
      ds.table.source = path;
      return ds;
    },
    path,
  );
}

/** The configurations `keep` (indices, ascending) of a table, as a new table. */
export function subsetTable(t: ConfigTable, keep: number[]): ConfigTable {
  const d = t.roles.inputs.length;
  let total = 0;
  for (const c of keep) total += t.offsets[c + 1] - t.offsets[c];
  const runs = new Float64Array(total);
  const offsets = new Int32Array(keep.length + 1);
  const inputs = new Float64Array(keep.length * d);
  const firstRow = t.firstRow ? new Int32Array(keep.length) : undefined;
  keep.forEach((c, i) => {
    runs.set(t.runs.subarray(t.offsets[c], t.offsets[c + 1]), offsets[i]);
    offsets[i + 1] = offsets[i] + t.offsets[c + 1] - t.offsets[c];
    inputs.set(t.inputs.subarray(c * d, c * d + d), i * d);
    if (firstRow) firstRow[i] = t.firstRow![c];
  });
  return {
    ...t,
    count: keep.length,
    factorValues: t.factorValues.map((vals) => keep.map((c) => vals[c])),
    inputs,
    runs,
    offsets,
    firstRow,
    ids: t.ids ? keep.map((c) => t.ids![c]) : undefined,
  };
}

/** "host_sched=CFQ, …, freq_khz=1200000, …" for messages. */
/** Why --log-response auto stays linear: how many responses are not positive, and the first of them (to exclude it). */
function linearBecause(maps: VariabilityMap[]): string {
  let count = 0,
    total = 0;
  let first: string | undefined;
  for (const m of maps) {
    total += m.y.length;
    m.y.forEach((v, i) => {
      if (v > 0) return;
      count++;
      first ??= `${[...Object.entries(m.key).map(([f, v]) => `${f}=${v}`), ...m.inputNames.map((x, j) => `${x}=${m.X[i * m.inputNames.length + j]}`)].join(", ")}: ${v}`;
    });
  }
  return `linear scale (${count} of ${total} responses ${count === 1 ? "is" : "are"} not positive, the first at ${first}; exclude such configurations with --where to model a log scale)`;
}

export function describeConfig(t: ConfigTable, c: number): string {
  const d = t.roles.inputs.length;
  return [...t.roles.factors.map((f, i) => `${f}=${t.factorValues[i][c]}`), ...t.roles.inputs.map((x, j) => `${x}=${t.inputs[c * d + j]}`)].join(", ");
}

function firstWith(t: ConfigTable, pred: (n: number) => boolean): number {
  for (let c = 0; c < t.count; c++) if (pred(t.offsets[c + 1] - t.offsets[c])) return c;
  return -1;
}
