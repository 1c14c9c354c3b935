// The honest Table 2 (issue 16, item 7): every row averages the same maps for every method. A map enters row p
// only when every method scored at least one of its divisions at p; a map where a method failed every division is
// left out of the row for all methods, counted and listed with the reason (e.g. too few training points for the
// method), never silently dropped for that method alone. Divisions with an empty training or test set are not
// scored (no NaN, no 100 %): they are skipped and counted. Pure: the cv job's writer feeds it its cells.
import { quantile7 } from "../data/stats.js";

/** The scored divisions of one (map, method, p). */
export interface Table2Cell {
  map: number;
  method: string;
  p: number;
  /** ARE of each scored division. */
  values: number[];
  /** ARE with negative predictions set to 0, parallel to values. */
  clamped: number[];
  /** Divisions the method could not fit, by error code. */
  errors: Record<string, number>;
  /** One message per error code (the first seen). */
  messages: Record<string, string>;
  /** Divisions not scored (empty training or test set), by reason. */
  skipped: Record<string, number>;
}

export interface Table2MethodFigures {
  /** Mean over the row's maps of the per-map mean ARE. */
  are: number;
  /** Median and quartiles of the ARE of every division of the row's maps. */
  median: number;
  q25: number;
  q75: number;
  /** As `are`, with negative predictions of a nonnegative statistic set to 0. */
  clamped: number;
  /** Maps (with divisions at p) where the method failed every scored division. */
  failedMaps: number;
  /** Divisions at p, over all maps, where the method failed. */
  failedDivisions: number;
}

export interface Table2Row {
  p: number;
  /** Maps averaged in this row (the same for every method). */
  maps: number;
  /** Maps at p left out of the row (a method failed every division, or every division was skipped). */
  leftOut: number;
  /** Divisions at p with an empty training or test set, over all maps (the same divisions for every method). */
  skippedDivisions: number;
  methods: Record<string, Table2MethodFigures>;
}

/** A map left out of row p, with per method the reason ("" for a method that scored it). */
export interface LeftOutMap {
  map: number;
  p: number;
  reasons: Record<string, string>;
}

export function failedCount(c: Pick<Table2Cell, "errors">): number {
  return Object.values(c.errors).reduce((a, b) => a + b, 0);
}

export function skippedCount(c: Pick<Table2Cell, "skipped">): number {
  return Object.values(c.skipped).reduce((a, b) => a + b, 0);
}

/**
 * Why a cell has no (or fewer) scored divisions, in one line: "E_TOO_FEW_POINTS ×200: lsp needs at least 7 …;
 * skipped ×3: empty training set". Empty when every division was scored.
 */
export function cellReason(c: Pick<Table2Cell, "errors" | "messages" | "skipped">): string {
  const parts = [
    ...Object.entries(c.errors)
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(([code, k]) => `${code} ×${k}${c.messages[code] ? `: ${c.messages[code]}` : ""}`),
    ...Object.entries(c.skipped)
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(([why, k]) => `skipped ×${k}: ${why}`),
  ];
  return parts.join("; ");
}

function mean(v: readonly number[]): number {
  let s = 0;
  for (const x of v) s += x;
  return v.length ? s / v.length : NaN;
}

function quantile(v: readonly number[], q: number): number {
  return v.length ? quantile7(Float64Array.from(v).sort(), q) : NaN;
}

/** Rows of Table 2 (ascending p) over the same maps for every method, and the maps each row leaves out. */
export function honestTable2(cells: readonly Table2Cell[], methods: readonly string[]): { rows: Table2Row[]; leftOut: LeftOutMap[] } {
  const byKey = new Map<string, Table2Cell>();
  for (const c of cells) byKey.set(`${c.map}\u0000${c.method}\u0000${c.p}`, c);
  const ps = [...new Set(cells.map((c) => c.p))].sort((a, b) => a - b);
  const rows: Table2Row[] = [];
  const leftOut: LeftOutMap[] = [];
  for (const p of ps) {
    const maps = [...new Set(cells.filter((c) => c.p === p).map((c) => c.map))].sort((a, b) => a - b);
    const cellOf = (map: number, m: string): Table2Cell | undefined => byKey.get(`${map}\u0000${m}\u0000${p}`);
    const kept = maps.filter((map) => methods.every((m) => (cellOf(map, m)?.values.length ?? 0) > 0));
    for (const map of maps)
      if (!kept.includes(map))
        leftOut.push({
          map,
          p,
          reasons: Object.fromEntries(
            methods.map((m) => {
              const c = cellOf(map, m);
              return [m, !c ? "not run" : c.values.length ? "" : cellReason(c)];
            }),
          ),
        });
    // Skipped divisions are the same for every method (they are shared): count them once, from the first method.
    const skippedDivisions = maps.reduce((s, map) => s + (cellOf(map, methods[0]) ? skippedCount(cellOf(map, methods[0])!) : 0), 0);
    const figures: Record<string, Table2MethodFigures> = {};
    for (const m of methods) {
      const mine = kept.map((map) => cellOf(map, m)!);
      const all = mine.flatMap((c) => c.values);
      figures[m] = {
        are: mean(mine.map((c) => mean(c.values))),
        median: quantile(all, 0.5),
        q25: quantile(all, 0.25),
        q75: quantile(all, 0.75),
        clamped: mean(mine.map((c) => mean(c.clamped))),
        failedMaps: maps.filter((map) => {
          const c = cellOf(map, m);
          return c !== undefined && c.values.length === 0 && failedCount(c) > 0;
        }).length,
        failedDivisions: maps.reduce((s, map) => s + (cellOf(map, m) ? failedCount(cellOf(map, m)!) : 0), 0),
      };
    }
    rows.push({ p, maps: kept.length, leftOut: maps.length - kept.length, skippedDivisions, methods: figures });
  }
  return { rows, leftOut };
}
