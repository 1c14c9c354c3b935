// Variability maps: the configurations sharing one combination of factor values, with their inputs normalized
// per column to [0,1] over the map (optionally log2 first), and one statistic of their runs as the response.
import { VarmapError } from "../errors.js";
import type { ConfigTable, StatName, VariabilityMap } from "./types.js";

export interface MapOptions {
  stat: StatName;
  /** Input columns to log2-transform before normalizing (power-of-two axes). */
  logInputs?: string[];
  /** Notes (e.g. dropped constant columns) go here; the CLI prints them on stderr. */
  note?: (msg: string) => void;
  /** Per configuration (like y), the sampling variance of its response; each map keeps its rows' as `yVar`. */
  yVar?: Float64Array;
}

/**
 * The configurations of each factor combination (JSON of the factor values → configuration indices), in table order
 * (the table is sorted by factors first); only configurations `include` accepts.
 */
export function factorGroups(table: ConfigTable, include: (c: number) => boolean): Map<string, number[]> {
  const groups = new Map<string, number[]>();
  for (let c = 0; c < table.count; c++) {
    if (!include(c)) continue;
    const k = JSON.stringify(table.factorValues.map((f) => f[c]));
    let g = groups.get(k);
    if (!g) groups.set(k, (g = []));
    g.push(c);
  }
  return groups;
}

/**
 * One map per factor combination. `y[c]` is the response of configuration c; configurations where `keep[c]` is
 * false (e.g. too few runs) are left out. Row ids are configuration indices, or the table's ids when it has them.
 */
export function buildMaps(table: ConfigTable, y: Float64Array, opts: MapOptions, keep?: Uint8Array): VariabilityMap[] {
  const { factors, inputs } = table.roles;
  const d = inputs.length;
  const logSet = new Set(opts.logInputs ?? []);
  for (const c of logSet) {
    if (!inputs.includes(c)) {
      throw new VarmapError("E_USAGE", `--log-inputs names '${c}', which is not an input column (inputs: ${inputs.join(", ")})`, {
        remedy: "list only input columns in --log-inputs",
      });
    }
  }
  const groups = factorGroups(table, (c) => keep?.[c] !== 0);
  const maps: VariabilityMap[] = [];
  for (const [k, members] of groups) {
    const values = JSON.parse(k) as string[];
    const key = Object.fromEntries(factors.map((f, i) => [f, values[i]]));
    const label = factors.length ? factors.map((f, i) => `${f}=${values[i]}`).join(",") : "(all)";
    const rows = members.length;
    // Transformed columns, then keep those that vary within the map.
    const kept: number[] = [];
    const lo: number[] = [];
    const hi: number[] = [];
    const log2: boolean[] = [];
    for (let j = 0; j < d; j++) {
      const useLog = logSet.has(inputs[j]);
      let a = Infinity;
      let b = -Infinity;
      for (const c of members) {
        const v = table.inputs[c * d + j];
        if (useLog && !(v > 0)) {
          throw new VarmapError("E_NONPOSITIVE_INPUT", `input ${v} cannot be log2-transformed (--log-inputs ${inputs[j]})`, {
            location: { file: table.source, row: table.firstRow?.[c], column: inputs[j] },
            remedy: `remove ${inputs[j]} from --log-inputs, or exclude non-positive values with --where`,
          });
        }
        const t = useLog ? Math.log2(v) : v;
        if (t < a) a = t;
        if (t > b) b = t;
      }
      if (a === b) {
        opts.note?.(`map ${label}: input '${inputs[j]}' is constant (${useLog ? 2 ** a : a}) and was dropped`);
        continue;
      }
      kept.push(j);
      lo.push(a);
      hi.push(b);
      log2.push(useLog);
    }
    const m = kept.length;
    const X = new Float64Array(rows * m);
    const U = new Float64Array(rows * m);
    const yy = new Float64Array(rows);
    const yVar = opts.yVar ? Float64Array.from(members, (c) => opts.yVar![c]) : undefined;
    const ids: (number | string)[] = new Array(rows);
    members.forEach((c, r) => {
      yy[r] = y[c];
      ids[r] = table.ids ? table.ids[c] : c;
      for (let k2 = 0; k2 < m; k2++) {
        const v = table.inputs[c * d + kept[k2]];
        X[r * m + k2] = v;
        U[r * m + k2] = normalize(v, log2[k2], lo[k2], hi[k2]);
      }
    });
    maps.push({
      key,
      inputNames: kept.map((j) => inputs[j]),
      X,
      U,
      rows,
      normalization: { log2, lo, hi },
      stat: opts.stat,
      y: yy,
      ids,
      ...(yVar ? { yVar } : {}),
    });
  }
  return maps;
}

/** The transform stored with a map, applied to one value (new configurations are transformed identically). */
export function normalize(v: number, log2: boolean, lo: number, hi: number): number {
  return ((log2 ? Math.log2(v) : v) - lo) / (hi - lo);
}

/** Normalizes rows × map.inputNames.length raw inputs with a map's stored normalization. */
export function normalizeInputs(map: Pick<VariabilityMap, "normalization">, X: Float64Array): Float64Array {
  const { log2, lo, hi } = map.normalization;
  const m = lo.length;
  const U = new Float64Array(X.length);
  for (let i = 0; i < X.length; i++) {
    const j = i % m;
    U[i] = normalize(X[i], log2[j], lo[j], hi[j]);
  }
  return U;
}
