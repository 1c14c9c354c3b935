// Fitted mixtures read back from `varmap mixture` fits tables (one row per configuration × family × k) or
// `varmap refit` distributions.csv (each configuration's BIC-best model), keyed like the data's configurations.
import { VarmapError } from "../errors.js";
import { FAMILIES, FAMILY_NAMES, type FamilyName } from "../mixture/families.js";
import { Mixture } from "../mixture/model.js";
import { num, requireColumns, type Row } from "./table.js";

export interface FitEntry {
  family: FamilyName;
  k: number;
  bic: number;
  mixture: Mixture;
}

export const FITS_WRITTEN_BY = "`varmap mixture … --out fits.csv` or `varmap refit` (distributions.csv)";

/** A fitted mixture from a fits row's family and params JSON ({ w, <a name>: […], <b name>: […] }). */
export function mixtureOf(family: string, params: string, where: string): Mixture {
  if (!(FAMILY_NAMES as readonly string[]).includes(family))
    throw new VarmapError("E_FITS", `unknown family '${family}'`, { location: { configuration: where }, remedy: `families are ${FAMILY_NAMES.join(", ")}` });
  const f = FAMILIES[family as FamilyName];
  let p: Record<string, number[]>;
  try {
    p = JSON.parse(params) as Record<string, number[]>;
  } catch {
    throw new VarmapError("E_FITS", `params '${params.slice(0, 40)}' is not JSON`, {
      location: { configuration: where },
      remedy: `give a table written by ${FITS_WRITTEN_BY}`,
    });
  }
  const [an, bn] = f.paramNames;
  if (!Array.isArray(p.w) || !Array.isArray(p[an]) || !Array.isArray(p[bn]))
    throw new VarmapError("E_FITS", `params lack w, ${an} or ${bn}`, {
      location: { configuration: where },
      remedy: `give a table written by ${FITS_WRITTEN_BY}`,
    });
  return new Mixture(family as FamilyName, p.w, p[an], p[bn]);
}

/** Fits per configuration key (key columns' values joined by \0, numbers as String(number)). */
export function fitsByConfig(rows: readonly Row[], keyColumns: readonly string[], file?: string): Map<string, FitEntry[]> {
  requireColumns(rows, [...keyColumns, "family", "k", "bic", "params"], { kind: "fits", file, writtenBy: FITS_WRITTEN_BY });
  const out = new Map<string, FitEntry[]>();
  for (const r of rows) {
    if (!r.family || !r.params) continue; // a configuration without a finite fit
    const key = keyColumns.map((c) => String(r[c])).join("\u0000");
    const e: FitEntry = {
      family: r.family as FamilyName,
      k: num(r.k),
      bic: num(r.bic),
      mixture: mixtureOf(String(r.family), String(r.params), key.replaceAll("\u0000", ", ")),
    };
    (out.get(key) ?? out.set(key, []).get(key)!).push(e);
  }
  return out;
}

/** Each family's best-BIC fit, best family first; `overall` marks the BIC winner. */
export function bestPerFamily(fits: readonly FitEntry[]): (FitEntry & { overall: boolean })[] {
  const best = new Map<string, FitEntry>();
  for (const f of fits) if (Number.isFinite(f.bic) && (!best.has(f.family) || f.bic < best.get(f.family)!.bic)) best.set(f.family, f);
  const list = [...best.values()].sort((a, b) => a.bic - b.bic);
  return list.map((f, i) => ({ ...f, overall: i === 0 }));
}
