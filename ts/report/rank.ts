// Which maps are most and least variable, ranked inside DuckDB: one aggregate query over the runs file (sd and
// mean per configuration, then the median of sd/mean per map), so a report of a 117-map dataset loads only the
// runs of the maps it shows. The loader's own statistics give the same ranking (tested); this is only faster.
import type { ColumnRoles } from "../data/types.js";
import { fileScan, ident, literal, openDb, queryRows } from "../data/duckdb.js";

export interface MapRank {
  key: Record<string, string>;
  configs: number;
  /** Median over the map's configurations of sd / |mean| of the runs (configurations with ≥ 2 runs). */
  score: number;
}

function source(file: string): string {
  return fileScan(file);
}

/** The maps' ranks, or undefined when the query cannot run (e.g. an unusual CSV): then rank from the loaded data. */
export async function rankMapsSql(file: string, roles: ColumnRoles, where?: string): Promise<MapRank[] | undefined> {
  if (!roles.factors.length) return undefined;
  const f = roles.factors.map((c, i) => `COALESCE(CAST(${ident(c)} AS VARCHAR), '') AS f${i}`);
  const fk = roles.factors.map((_, i) => `f${i}`);
  const r = `CAST(${ident(roles.response)} AS DOUBLE)`;
  const sql = `
    SELECT ${fk.join(", ")}, count(*)::INTEGER AS configs, median(s / abs(m)) AS score FROM (
      SELECT ${fk.join(", ")}, avg(r) AS m, stddev_samp(r) AS s, count(*) AS n FROM (
        SELECT ${f.join(", ")}, ${roles.inputs.map((c, j) => `${ident(c)} AS x${j}`).join(", ")}, ${r} AS r FROM ${source(file)}
        ${where ? `WHERE COALESCE((${where}), false)` : ""}
      ) GROUP BY ${[...fk, ...roles.inputs.map((_, j) => `x${j}`)].join(", ")}
    ) WHERE n >= 2 GROUP BY ${fk.join(", ")} ORDER BY ${fk.join(", ")}`;
  let db: Awaited<ReturnType<typeof openDb>> | undefined;
  try {
    db = await openDb();
    const rows = await queryRows(db.con, sql);
    return rows.map((row) => ({
      key: Object.fromEntries(roles.factors.map((c, i) => [c, String(row[`f${i}`])])),
      configs: Number(row.configs),
      score: row.score === null ? NaN : Number(row.score),
    }));
  } catch {
    return undefined;
  } finally {
    db?.close();
  }
}

/** A SQL predicate selecting the runs of the given maps (and of `where`, when given). */
export function mapsWhere(factors: readonly string[], keys: readonly Record<string, string>[], where?: string): string {
  const any = keys.map((k) => `(${factors.map((f) => `COALESCE(CAST(${ident(f)} AS VARCHAR), '') = ${literal(k[f])}`).join(" AND ")})`).join(" OR ");
  return where ? `(${where}) AND (${any})` : any;
}
