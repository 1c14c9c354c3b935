// The true run distributions of a synthetic design (spec E.5): `varmap synth --truth FILE` writes every
// configuration's law (a finite mixture, one row per component, runs floored at `floor`); `cv --target
// distribution --truth FILE` reads it and scores every prediction also against the true CDF (ks_true). That is a
// second, noise-free error measure: the held-out runs' EDF carries sampling noise of its own (the KS noise floor),
// the true CDF none.
import { VarmapError } from "../errors.js";
import { fileScan, literal, openDb, queryRows } from "../data/duckdb.js";
import { FAMILY_NAMES, type FamilyName } from "../mixture/families.js";
import { FamilyMixture, type RunDistribution } from "./distributions.js";
import { fitKey } from "./params.js";

/** One map's true laws, rows in map order: components of row r at [offsets[r], offsets[r+1]) (none: no truth). */
export interface MapTruth {
  offsets: Int32Array;
  weight: Float64Array;
  /** Index into FAMILY_NAMES. */
  family: Uint8Array;
  a: Float64Array;
  b: Float64Array;
  floor: Float64Array;
}

export interface TruthComponent {
  weight: number;
  family: FamilyName;
  a: number;
  b: number;
}

/** Reads a truth file: configuration key (factor and input values as text, fitKey) → its components and floor. */
export async function readTruth(path: string, keyColumns: readonly string[]): Promise<Map<string, { components: TruthComponent[]; floor: number }>> {
  const db = await openDb();
  let rows: Record<string, unknown>[];
  try {
    const reader = /\.json$/i.test(path) ? `read_json_auto(${literal(path)})` : fileScan(path, "all_varchar = true", true);
    rows = await queryRows(db.con, `SELECT * FROM ${reader}`);
  } catch (e) {
    throw new VarmapError("E_READ", `cannot read the truth file: ${(e as Error).message.split("\n")[0]}`, {
      location: { file: path },
      remedy: "give the file `varmap synth --truth` wrote",
    });
  } finally {
    db.close();
  }
  const need = [...keyColumns, "weight", "family", "a", "b", "floor"];
  const missing = need.find((c) => rows.length && !(c in rows[0]));
  if (missing || !rows.length)
    throw new VarmapError("E_COLUMN", `the truth file ${missing ? `has no column '${missing}'` : "is empty"}`, {
      location: { file: path, column: missing },
      remedy: "give the file `varmap synth --truth` wrote for the same design and seed",
    });
  const out = new Map<string, { components: TruthComponent[]; floor: number }>();
  rows.forEach((r, i) => {
    const family = String(r.family) as FamilyName;
    const [weight, a, b, floor] = ["weight", "a", "b", "floor"].map((c) => Number(r[c]));
    if (!FAMILY_NAMES.includes(family) || ![weight, a, b, floor].every(Number.isFinite) || !(weight >= 0) || !(b > 0))
      throw new VarmapError("E_TRUTH", `row ${i + 2} is not a valid mixture component`, {
        location: { file: path, row: i + 2 },
        remedy: `families are ${FAMILY_NAMES.join(", ")}; weight >= 0, b > 0, all finite`,
      });
    const key = fitKey(keyColumns.map((c) => String(r[c])));
    const e = out.get(key) ?? out.set(key, { components: [], floor }).get(key)!;
    e.components.push({ weight, family, a, b });
  });
  return out;
}

/** A map's truth from the truth file, for its configurations' keys in map order (a key not in the file: no truth). */
export function mapTruth(truth: ReadonlyMap<string, { components: TruthComponent[]; floor: number }>, keys: readonly string[]): MapTruth {
  const offsets = new Int32Array(keys.length + 1);
  const comps: TruthComponent[] = [];
  const floor = new Float64Array(keys.length);
  keys.forEach((k, r) => {
    const t = truth.get(k);
    if (t) comps.push(...t.components);
    floor[r] = t ? t.floor : NaN;
    offsets[r + 1] = comps.length;
  });
  return {
    offsets,
    weight: Float64Array.from(comps, (c) => c.weight),
    family: Uint8Array.from(comps, (c) => FAMILY_NAMES.indexOf(c.family)),
    a: Float64Array.from(comps, (c) => c.a),
    b: Float64Array.from(comps, (c) => c.b),
    floor,
  };
}

/** The true law of row r: max(floor, X), X the mixture; null when the file has no truth for it. */
export function trueLaw(t: MapTruth, r: number): { mixture: FamilyMixture; floor: number } | null {
  if (t.offsets[r + 1] === t.offsets[r]) return null;
  const components = [];
  for (let c = t.offsets[r]; c < t.offsets[r + 1]; c++) components.push({ w: t.weight[c], family: FAMILY_NAMES[t.family[c]], a: t.a[c], b: t.b[c] });
  return { mixture: new FamilyMixture(components), floor: t.floor[r] };
}

/** Levels (j + ½)/M of the truth tables: KS against the true CDF is exact to about 1/M. */
export const TRUTH_LEVELS = 1000;
const U = Float64Array.from({ length: TRUTH_LEVELS }, (_, j) => (j + 0.5) / TRUTH_LEVELS);

/** The true quantiles at the levels U (floored). */
export function truthTable(law: { mixture: FamilyMixture; floor: number }): Float64Array {
  return Float64Array.from(law.mixture.quantiles(U), (x) => Math.max(x, law.floor));
}

// The tables of the map last asked for (tasks run map by map; one map's tables are ~6 MB).
let cached: { truth: MapTruth; tables: (Float64Array | null | undefined)[] } | undefined;

/** Row r's truth table, computed once per map and row (null: no truth for r). */
export function truthTableOf(t: MapTruth, r: number): Float64Array | null {
  if (cached?.truth !== t) cached = { truth: t, tables: [] };
  let tab = cached.tables[r];
  if (tab === undefined) {
    const law = trueLaw(t, r);
    tab = cached.tables[r] = law ? truthTable(law) : null;
  }
  return tab;
}

/**
 * sup_x |F(x) − T(x)| for a prediction F and the true CDF T given by its quantiles xs at levels (j + ½)/M: F and
 * its left limits are compared with T at T's quantiles, and T (interpolated between them) with F at F's own
 * quantiles at the same levels, so jumps of F and the steep parts of either are all visited. Between the visited
 * points neither function moves by more than about 1/M, which bounds the error.
 */
export function ksAgainstTruth(F: RunDistribution, xs: Float64Array): number {
  const M = xs.length;
  let d = 0;
  for (let j = 0; j < M; j++) {
    const u = (j + 0.5) / M;
    d = Math.max(d, Math.abs(F.cdf(xs[j]) - u), Math.abs(F.cdfLeft(xs[j]) - u));
  }
  const ys = F.quantiles ? F.quantiles(U) : Float64Array.from(U, (p) => F.quantile(p));
  let k = 0;
  for (let j = 0; j < M; j++) {
    const y = ys[j];
    if (!Number.isFinite(y)) continue;
    let T: number;
    if (y < xs[0]) T = 0.25 / M;
    else if (y >= xs[M - 1]) T = 1 - 0.25 / M;
    else {
      while (k < M - 2 && xs[k + 1] <= y) k++;
      while (k > 0 && xs[k] > y) k--;
      const h = xs[k + 1] - xs[k];
      T = (k + 0.5 + (h > 0 ? (y - xs[k]) / h : 1)) / M;
    }
    d = Math.max(d, Math.abs(F.cdf(y) - T), Math.abs(F.cdfLeft(y) - T));
  }
  return d;
}
