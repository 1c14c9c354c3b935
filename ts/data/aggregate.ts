// Per-configuration statistics computed inside DuckDB (issue 46, `summarize`; issue 44 item 18, memory): one
// GROUP BY over the file's scan gathers each configuration's responses into a list, sorts it, and computes n, the
// mean, the two-pass sums of squared and cubed deviations, min, max and the type-7 quantiles in SQL; JS adds sd,
// var, skewness and ci90 from those by the formulas of stats.ts. No run ever reaches JS, and DuckDB's hash
// aggregation does not care how the rows are ordered, so memory is the same whether the file is grouped by
// configuration or not.
//
// Agreement with the JS path (configStats over readConfigTable's runs): n, min, max and the quantiles are
// bit-identical (the same formula on the same sorted values); the mean, sd, var, skewness and ci90 sum the runs in
// ascending order of value instead of run order, so they may differ in the last bits (relative differences of a few
// 1e-16 per run summed; the tests allow 1e-12 relative; for the skewness, 1e-13·|mean|/sd absolute, as the mean's last bit moves every deviation). Sorting before summing makes the result independent of DuckDB's
// thread scheduling: the same file gives the same bytes every time.
//
// This is a fast path only: whenever anything is unusual (a value that does not parse, an empty factor, a
// non-finite number, a repeated run index where none is allowed, responses beyond 2^±500, an error of any kind),
// it returns undefined and the caller reads the file the full way (readConfigTable), which reports the problem
// with its file row and column exactly as before.
import { VarmapError } from "../errors.js";
import { statSync } from "node:fs";
import { forEachChunk, literal, openDb, queryRows, streamColumns, type Db } from "./duckdb.js";
import { headOfFile } from "./csv-lines.js";
import { buildMaps } from "./maps.js";
import { formatOf } from "./duckdb.js";
import { roleSelect, roleTypes, scanOf } from "./read.js";
import { minRunsFor, statValues, tQuantile } from "./stats.js";
import { QUANTILE_LEVELS, QUANTILE_NAMES, type ColumnRoles, type ConfigStats, type ConfigTable, type StatName, type VariabilityMap } from "./types.js";

/** DuckDB's working memory for the aggregate (the sorted lists of 3.8 M runs take ~60 MB). */
export const AGGREGATE_MEMORY_LIMIT = "256MB";

export interface AggregateOptions {
  stat: StatName;
  where?: string;
  requirePositive?: boolean;
  allowDuplicateRuns: boolean;
  logInputs?: string[];
  note?: (msg: string) => void;
  /** Runs per aggregation pass (default ROWS_PER_PASS; tests make it small to exercise the sliced path). */
  rowsPerPass?: number;
}

/** What the aggregate gives: the table has no runs (`runs` is empty); `offsets` still count each configuration's. */
export interface AggregatedDataset {
  table: ConfigTable;
  maps: VariabilityMap[];
  stats: ConfigStats;
  dropped: number;
  /** Kept runs (the sum of the kept configurations' n). */
  runs: number;
}

/** Runs aggregated in one pass: beyond it, slices of configurations are aggregated one after the other. */
export const ROWS_PER_PASS = 4_000_000;

/** The file's rows: Parquet's from its metadata; a text file's from its size and the length of its first lines. */
async function estimateRows(con: Db["con"], file: string): Promise<number> {
  if (formatOf(file) === "parquet") {
    const [{ rows }] = await queryRows(con, `SELECT count(*) AS rows FROM read_parquet(${literal(file)})`);
    return Number(rows);
  }
  const head = headOfFile(file);
  const size = statSync(file).size;
  if (!head || head.length === 0) return size / 8; // a zstd file: compressed about 8 bytes per row at most
  const lines = head.toString("latin1").split("\n").length - 1;
  const perRow = head.length / Math.max(1, lines);
  // A gzip head is its decompressed bytes: the file holds about 5 times as many as its size.
  return (size * (/\.gz$/i.test(file) ? 5 : 1)) / perRow;
}

/** Statistics per configuration from DuckDB, or undefined when the full read must decide (see above). */
export async function aggregateConfigs(file: string, roles: ColumnRoles, opts: AggregateOptions): Promise<AggregatedDataset | undefined> {
  const notes: string[] = [];
  let result: AggregatedDataset | undefined;
  try {
    result = await aggregate(file, roles, opts, (m) => notes.push(m));
  } catch (e) {
    // VARMAP_TRACE=1 says why summarize read the file the full way.
    if (process.env.VARMAP_TRACE) process.stderr.write(`[aggregate] full read: ${String((e as Error)?.message ?? e).split("\n")[0]}\n`);
    return undefined;
  }
  if (!result && process.env.VARMAP_TRACE) process.stderr.write("[aggregate] full read: the data needs it (bad values, repeated runs, extremes)\n");
  if (result) for (const m of notes) opts.note?.(m);
  return result;
}

async function aggregate(file: string, roles: ColumnRoles, opts: AggregateOptions, note: (m: string) => void): Promise<AggregatedDataset | undefined> {
  const db = await openDb({ memoryLimit: AGGREGATE_MEMORY_LIMIT, onlyFiles: [file] });
  try {
    const { con } = db;
    const isCsv = formatOf(file) === "csv";
    const { f, x, sel } = roleSelect(roles, { where: opts.where });
    const keys = [...f, ...x];
    const d = x.length;
    const bad = [
      ...f.map((c) => `${c} = ''`),
      ...x.map((c) => `${c} IS NULL OR NOT isfinite(${c})`),
      ...(roles.run ? ["__run IS NULL OR NOT isfinite(__run)"] : []),
      "__y IS NULL OR NOT isfinite(__y)",
      ...(opts.requirePositive ? ["__y <= 0"] : []),
    ];
    // Type 7: h = (n − 1) p, lo = floor(h); q = x[lo] + (h − lo)(x[lo + 1] − x[lo]) (1-based lists: +1), in doubles.
    const quantiles = QUANTILE_LEVELS.map((p, k) => {
      const h = `((n - 1)::DOUBLE * ${p}::DOUBLE)`;
      const lo = `(floor(${h})::BIGINT + 1)`;
      const hi = `least(${lo} + 1, n)`;
      return `ys[${lo}] + (${h} - floor(${h})) * (ys[${hi}] - ys[${lo}]) AS q${k}`;
    });
    const scan = scanOf(file, isCsv ? roleTypes(roles, {}) : undefined);
    const query = (source: string) =>
      `WITH g AS (SELECT ${keys.join(", ")}, count(*)::INTEGER AS n, list_sort(list(__y)) AS ys, ` +
      `${roles.run ? "len(list_distinct(list(__run)))" : "count(*)"}::INTEGER AS nd, count_if(${bad.map((b) => `(${b})`).join(" OR ")})::INTEGER AS bad ` +
      `FROM ${source} WHERE __keep GROUP BY ALL), ` +
      `m AS (SELECT *, list_sum(ys) / n AS mu FROM g) ` +
      `SELECT ${keys.join(", ")}, n, nd, bad, mu, list_sum(list_transform(ys, v -> (v - mu) * (v - mu))) AS m2, ` +
      `list_sum(list_transform(ys, v -> (v - mu) * (v - mu) * (v - mu))) AS m3, ys[1] AS lo, ys[n] AS hi, ${quantiles.join(", ")} FROM m`;
    const passes = Math.max(1, Math.ceil((await estimateRows(con, file)) / (opts.rowsPerPass ?? ROWS_PER_PASS)));
    if (passes === 1) await con.run(`CREATE TEMP TABLE agg AS ${query(`(SELECT ${sel.join(", ")} FROM ${scan})`)}`);
    else {
      // Many runs: the lists of every configuration at once would outgrow memory (and more so when the rows are not
      // grouped by configuration, as each thread then holds partial lists of every configuration). The scan is kept
      // in a temporary table (spilled to disk beyond the memory limit), then aggregated one slice of configurations
      // (by key hash) at a time, so memory is that of ROWS_PER_PASS runs whatever the file's size and order.
      await con.run(`CREATE TEMP TABLE s AS SELECT *, hash(${keys.join(", ")}) % ${passes} AS __p FROM (SELECT ${sel.join(", ")} FROM ${scan})`);
      for (let p = 0; p < passes; p++) {
        const slice = `(SELECT * FROM s WHERE __p = ${p})`;
        await con.run(p === 0 ? `CREATE TEMP TABLE agg AS ${query(slice)}` : `INSERT INTO agg ${query(slice)}`);
      }
      await con.run("DROP TABLE s");
    }
    if (isCsv) {
      const [{ rejected }] = await queryRows(con, `SELECT count(*) AS rejected FROM reject_errors`);
      if (Number(rejected) > 0) return undefined;
    }
    const [{ count: countBig, bad: badRows, dup, extreme }] = await queryRows(
      con,
      `SELECT count(*) AS count, coalesce(sum(bad), 0) AS bad, count(*) FILTER (WHERE nd < n) AS dup, ` +
        `count(*) FILTER (WHERE greatest(abs(lo), abs(hi)) >= 2.0 ^ 500 OR (greatest(abs(lo), abs(hi)) <= 2.0 ^ -500 AND greatest(abs(lo), abs(hi)) > 0)) AS extreme FROM agg`,
    );
    const all = Number(countBig);
    // No rows, bad values, extreme magnitudes (stats.ts scales those), repeated run indices where an error is due:
    // the full read reports or handles them.
    if (all === 0 || Number(badRows) > 0 || Number(extreme) > 0) return undefined;
    if (Number(dup) > 0) {
      if (!opts.allowDuplicateRuns) return undefined;
      note(`${Number(dup)} configuration(s) repeat run indices in '${roles.run}'; their runs are kept, ordered by run index, then file row`);
    }
    const need = minRunsFor(opts.stat);
    const [{ kept: keptBig }] = await queryRows(con, `SELECT count(*) AS kept FROM agg WHERE n >= ${need}`);
    const count = Number(keptBig);
    if (count === 0) return undefined;
    const dropped = all - count;
    if (dropped) note(`${dropped} configuration(s) with fewer than ${need} runs dropped (--stat ${opts.stat} needs ${need}); ${count} remain`);

    const xCols = x.map(() => new Float64Array(count));
    const n = new Int32Array(count);
    const mean = new Float64Array(count);
    const m2 = new Float64Array(count);
    const m3 = new Float64Array(count);
    const min = new Float64Array(count);
    const max = new Float64Array(count);
    const qCols = QUANTILE_NAMES.map(() => new Float64Array(count));
    await streamColumns(
      con,
      `SELECT ${x.map((c) => `${c}, `).join("")}n, mu, m2, m3, lo, hi, ${QUANTILE_NAMES.map((_, k) => `q${k}`).join(", ")} FROM agg WHERE n >= ${need} ORDER BY ${keys.join(", ")}`,
      [...xCols, n, mean, m2, m3, min, max, ...qCols],
    );
    const inputs = new Float64Array(count * d);
    for (let j = 0; j < d; j++) for (let c = 0; c < count; c++) inputs[c * d + j] = xCols[j][c];
    let factorValues: string[][] = [];
    if (f.length) {
      const fl = f.join(", ");
      await con.run(
        `CREATE TEMP TABLE fk AS SELECT (row_number() OVER (ORDER BY ${fl}) - 1)::INTEGER AS __fid, ${fl} FROM (SELECT DISTINCT ${fl} FROM agg WHERE n >= ${need})`,
      );
      const combos = (await con.runAndReadAll(`SELECT ${fl} FROM fk ORDER BY __fid`)).getRowsJS() as string[][];
      const fid = new Int32Array(count);
      let pos = 0;
      await forEachChunk(
        con,
        `SELECT __fid FROM agg JOIN fk USING (${fl}) WHERE n >= ${need} ORDER BY ${keys.map((k) => `agg.${k}`).join(", ")}`,
        ["i32"],
        (cols, k) => {
          fid.set((cols[0] as Int32Array).subarray(0, k), pos);
          pos += k;
        },
      );
      factorValues = f.map((_, i) => Array.from(fid, (k) => combos[k][i]));
    }
    const offsets = new Int32Array(count + 1);
    for (let c = 0; c < count; c++) offsets[c + 1] = offsets[c] + n[c];
    const stats = momentStats(n, mean, m2, m3, min, max, qCols);
    const table: ConfigTable = { source: file, roles, count, factorValues, inputs, runs: new Float64Array(0), offsets };
    let maps: VariabilityMap[];
    try {
      maps = buildMaps(table, statValues(stats, opts.stat), { stat: opts.stat, logInputs: opts.logInputs, note });
    } catch (e) {
      // Its messages name the configuration's file row, which only the full read knows.
      if (e instanceof VarmapError) return undefined;
      throw e;
    }
    return { table, maps, stats, dropped, runs: offsets[count] };
  } finally {
    db.close();
  }
}

/** ConfigStats from the aggregate's columns, by configStats's formulas (scale 1: magnitudes within 2^±500). */
function momentStats(
  n: Int32Array,
  mean: Float64Array,
  m2: Float64Array,
  m3: Float64Array,
  min: Float64Array,
  max: Float64Array,
  qCols: Float64Array[],
): ConfigStats {
  const count = n.length;
  const sd = new Float64Array(count);
  const variance = new Float64Array(count);
  const skewness = new Float64Array(count);
  const ci90 = new Float64Array(count);
  for (let c = 0; c < count; c++) {
    const k = n[c];
    const s = k > 1 ? Math.sqrt(m2[c] / (k - 1)) : NaN;
    sd[c] = s;
    variance[c] = k > 1 ? m2[c] / (k - 1) : NaN;
    const b2 = m2[c] / k;
    skewness[c] = k > 2 && b2 > 0 ? ((m3[c] / k / Math.pow(b2, 1.5)) * Math.sqrt(k * (k - 1))) / (k - 2) : NaN;
    ci90[c] = k > 1 ? (2 * tQuantile(0.95, k - 1) * s) / Math.sqrt(k) : NaN;
  }
  return {
    n,
    mean,
    sd,
    var: variance,
    min,
    max,
    quantiles: Object.fromEntries(QUANTILE_NAMES.map((q, k) => [q, qCols[k]])) as ConfigStats["quantiles"],
    skewness,
    ci90,
  };
}
