// `--dist params` (experimental, spec E.2): interpolate mixture parameters. One (family, k) per map — the one with
// the smallest BIC sum over the training configurations (seed 001 Table 4 logic) — fitted by `varmap mixture`
// (`--fits fits.csv`); each configuration's components ordered by location (their medians); the features
// (additive log-ratios of the weights, a_j, log b_j) combined with the interpolation weights; back-transformed
// into a mixture. Known failure modes: label switching, components appearing or vanishing across
// configurations, floor-bound spikes. A predicted mixture with a non-finite or out-of-range parameter is flagged
// `params_invalid` (and predicts NaN).
import { VarmapError } from "../errors.js";
import { csvScan, openDb, queryRows } from "../data/duckdb.js";
import { FAMILIES, FAMILY_NAMES, type FamilyName } from "../mixture/families.js";
import { FamilyMixture } from "./distributions.js";
import type { ConfigTable } from "../data/types.js";
import type { WeightSet } from "./weights.js";

/** One map's mixture features: family, k and per configuration 3k − 1 features (NaN row when missing). */
export interface MapMixtures {
  family: FamilyName;
  k: number;
  /** rows × (3k − 1): alr(π) (k − 1), a (k), log b (k). */
  features: number[];
}

export interface FitRow {
  key: string;
  family: FamilyName;
  k: number;
  bic: number;
  params: Record<string, number[]>;
}

/** Reads `varmap mixture` output: one row per (configuration, family, k); keyed by the factor and input columns. */
export async function readFits(path: string, keyColumns: readonly string[]): Promise<FitRow[]> {
  const db = await openDb();
  let rows: Record<string, unknown>[];
  try {
    rows = await queryRows(db.con, `SELECT * FROM ${csvScan(path, "all_varchar = true", true)}`);
  } catch (e) {
    throw new VarmapError("E_READ", `cannot read the fits: ${(e as Error).message.split("\n")[0]}`, {
      location: { file: path },
      remedy: "give the CSV `varmap mixture --out fits.csv` wrote",
    });
  } finally {
    db.close();
  }
  const need = [...keyColumns, "family", "k", "bic", "params"];
  const missing = need.find((c) => rows.length && !(c in rows[0]));
  if (missing || !rows.length)
    throw new VarmapError("E_COLUMN", `the fits file ${missing ? `has no column '${missing}'` : "is empty"}`, {
      location: { file: path, column: missing },
      remedy: "give the CSV `varmap mixture --out fits.csv` wrote for the same data",
    });
  return rows.map((r, i) => {
    const family = String(r.family) as FamilyName;
    let params: Record<string, number[]>;
    try {
      params = JSON.parse(String(r.params));
    } catch {
      throw new VarmapError("E_FITS", "params is not JSON", {
        location: { file: path, row: i + 2, column: "params" },
        remedy: "give the CSV `varmap mixture --out` wrote",
      });
    }
    if (!FAMILY_NAMES.includes(family))
      throw new VarmapError("E_FITS", `unknown family '${family}'`, {
        location: { file: path, row: i + 2, column: "family" },
        remedy: `families are ${FAMILY_NAMES.join(", ")}`,
      });
    return { key: fitKey(keyColumns.map((c) => String(r[c]))), family, k: Number(r.k), bic: Number(r.bic), params };
  });
}

/** Key of a configuration from its factor and input values as text (numbers normalized: "1.0" = "1"). */
export function fitKey(values: readonly (string | number)[]): string {
  return values.map((v) => (typeof v === "number" || /^[-+0-9.eE]+$/.test(String(v)) ? String(Number(v)) : String(v))).join("\u0000");
}

/**
 * The (family, k) of one map with the smallest BIC sum over its configurations (keys), and every configuration's
 * features. E_MIXTURE_MODEL when no (family, k) was fitted to all of them.
 */
export function mapMixtures(fits: readonly FitRow[], keys: readonly string[], where: string): MapMixtures {
  const byModel = new Map<string, Map<string, FitRow>>();
  const wanted = new Set(keys);
  for (const f of fits) {
    if (!wanted.has(f.key) || !Number.isFinite(f.bic)) continue;
    const m = `${f.family}\u0000${f.k}`;
    (byModel.get(m) ?? byModel.set(m, new Map()).get(m)!).set(f.key, f);
  }
  let best: [string, number] | undefined;
  for (const [m, rows] of byModel) {
    if (rows.size !== wanted.size) continue;
    let s = 0;
    for (const r of rows.values()) s += r.bic;
    if (!best || s < best[1]) best = [m, s];
  }
  if (!best)
    throw new VarmapError("E_MIXTURE_MODEL", `no (family, k) was fitted to all ${wanted.size} configurations of map ${where}`, {
      remedy: "fit the fits file with `varmap mixture` on the same data (every configuration, the same --families and --kmax)",
    });
  const [family, kk] = best[0].split("\u0000");
  const k = Number(kk);
  const fam = FAMILIES[family as FamilyName];
  const rows = byModel.get(best[0])!;
  const features: number[] = [];
  for (const key of keys) {
    const p = rows.get(key)!.params;
    const w = p.w,
      a = p[fam.paramNames[0]],
      b = p[fam.paramNames[1]];
    // Components ordered by location (their medians).
    const order = w.map((_, j) => j).sort((i, j) => fam.quantile(0.5, a[i], b[i]) - fam.quantile(0.5, a[j], b[j]));
    const last = Math.max(w[order[k - 1]], 1e-300);
    for (let j = 0; j < k - 1; j++) features.push(Math.log(Math.max(w[order[j]], 1e-300) / last));
    for (const j of order) features.push(a[j]);
    for (const j of order) features.push(Math.log(b[j]));
  }
  return { family: family as FamilyName, k, features };
}

/** The features of configurations `rows` (training subset), in that order. */
export function subsetMixtures(m: MapMixtures, rows: readonly number[]): MapMixtures {
  const f = 3 * m.k - 1;
  return { family: m.family, k: m.k, features: rows.flatMap((r) => m.features.slice(r * f, r * f + f)) };
}

/** The predicted mixture of query q; null when a parameter comes out invalid (params_invalid). */
export function predictParams(m: MapMixtures, ws: WeightSet, q: number): FamilyMixture | null {
  const f = 3 * m.k - 1,
    k = m.k;
  const z = new Array<number>(f).fill(0);
  for (let e = ws.offsets[q]; e < ws.offsets[q + 1]; e++) for (let j = 0; j < f; j++) z[j] += ws.weight[e] * m.features[ws.index[e] * f + j];
  const ex = [...z.slice(0, k - 1).map(Math.exp), 1];
  const s = ex.reduce((a, b) => a + b, 0);
  const comps = ex.map((e, j) => ({ w: e / s, family: m.family, a: z[k - 1 + j], b: Math.exp(z[2 * k - 1 + j]) }));
  const shapeOk = m.family !== "gamma" || comps.every((c) => c.a > 0);
  if (!comps.every((c) => Number.isFinite(c.w) && c.w >= 0 && Number.isFinite(c.a) && c.b > 0 && Number.isFinite(c.b)) || !shapeOk) return null;
  return new FamilyMixture(comps);
}

/** The fits-file key of configuration c: its factor values and raw inputs. */
export function configKey(t: ConfigTable, c: number, nIn: number): string {
  return fitKey([...t.roles.factors.map((_, f) => t.factorValues[f][c]), ...Array.from({ length: nIn }, (_, j) => t.inputs[c * nIn + j])]);
}
