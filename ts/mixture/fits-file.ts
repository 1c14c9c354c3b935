// Reading existing mixture fits (`varmap mixture --out` or refit's distributions.csv) for `samplesize --fits`,
// matched to a dataset's configurations by their key columns (factors, inputs).
import { VarmapError } from "../errors.js";
import { fileScan, ident, openDb, queryRows, type Db } from "../data/duckdb.js";
import type { ConfigTable } from "../data/types.js";
import { FAMILIES, FAMILY_NAMES, type FamilyName } from "./families.js";
import type { CandidateFit, ModelChoice } from "./samplesize-config.js";
import { mixtureFromParams } from "./samplesize-config.js";

async function columnNames(db: Db, src: string): Promise<string[]> {
  return (await queryRows(db.con, `DESCRIBE SELECT * FROM ${src}`)).map((r) => String(r.column_name));
}

/** The key of configuration c: factor values and inputs (as numbers), joined. */
export function configKey(t: ConfigTable, c: number): string {
  const d = t.roles.inputs.length;
  return [...t.roles.factors.map((_, f) => t.factorValues[f][c]), ...t.roles.inputs.map((_, j) => String(t.inputs[c * d + j]))].join("\u0001");
}

/**
 * Candidate fits per configuration key. With `choice` best-unfloored and a full fits table (`floor_bound`, `bic`),
 * only each configuration's candidate (least finite BIC among fits whose floor does not bind) is read: the same
 * choice chooseFit makes, without turning every (configuration, family, k) row into a JS object.
 */
export async function readFitsFile(path: string, t: ConfigTable, choice?: ModelChoice): Promise<Map<string, CandidateFit[]>> {
  const db = await openDb();
  let rows: Record<string, unknown>[];
  let cols: string[];
  try {
    const src = fileScan(path, "all_varchar = true", true);
    cols = await columnNames(db, src);
    const keyCols = [...t.roles.factors, ...t.roles.inputs];
    if (choice?.kind === "best-unfloored" && ["floor_bound", "bic", ...keyCols].every((c) => cols.includes(c))) {
      const bic = `TRY_CAST(${ident("bic")} AS DOUBLE)`;
      rows = await queryRows(
        db.con,
        `SELECT * FROM ${src} WHERE CAST(${ident("floor_bound")} AS VARCHAR) = 'false' AND isfinite(${bic})
         QUALIFY row_number() OVER (PARTITION BY ${keyCols.map(ident).join(", ")} ORDER BY ${bic}) = 1`,
      );
    } else rows = await queryRows(db.con, `SELECT * FROM ${src}`);
  } catch (e) {
    throw new VarmapError("E_READ", `cannot read the fits: ${(e as Error).message.split("\n")[0]}`, {
      location: { file: path },
      remedy: "give the table written by `varmap mixture --out fits.csv` or refit's distributions.csv",
    });
  } finally {
    db.close();
  }
  const need = [...t.roles.factors, ...t.roles.inputs, "family", "k", "params"];
  const missing = need.find((c) => !cols.includes(c));
  if (missing)
    throw new VarmapError("E_FITS_FORMAT", `the fits table has no column '${missing}'`, {
      location: { file: path, column: missing },
      remedy: "give the table written by `varmap mixture --out fits.csv` or refit's distributions.csv, with the same column roles as the runs",
    });
  const out = new Map<string, CandidateFit[]>();
  rows.forEach((r, i) => {
    const row = i + 2;
    const fam = String(r.family ?? "");
    if (fam === "") return; // refit writes an empty family where no fit was finite
    if (!(FAMILY_NAMES as string[]).includes(fam))
      throw new VarmapError("E_FITS_FORMAT", `unknown family '${fam}'`, {
        location: { file: path, row, column: "family" },
        remedy: `use ${FAMILY_NAMES.join(", ")}`,
      });
    let params: Record<string, number[]>;
    try {
      params = JSON.parse(String(r.params));
    } catch {
      throw new VarmapError("E_FITS_FORMAT", "params is not JSON", {
        location: { file: path, row, column: "params" },
        remedy: "do not edit the params column",
      });
    }
    const key = [...t.roles.factors.map((f) => String(r[f])), ...t.roles.inputs.map((x) => String(Number(r[x])))].join("\u0001");
    const list = out.get(key) ?? [];
    list.push({
      family: fam as FamilyName,
      k: Number(r.k),
      bic: r.bic === null || r.bic === undefined || r.bic === "" ? NaN : Number(r.bic),
      floorBound: String(r.floor_bound) === "true",
      // distributions.csv has only each configuration's best row (no `best` column)
      best: "best" in r ? String(r.best) === "true" : true,
      mixture: (() => {
        try {
          return mixtureFromParams(fam as FamilyName, params);
        } catch (e) {
          throw new VarmapError("E_FITS_FORMAT", `params does not hold a ${fam} mixture (${(e as Error).message})`, {
            location: { file: path, row, column: "params" },
            remedy: `give {"w":[…],"${FAMILIES[fam as FamilyName].paramNames.join('":[…],"')}":[…]} as \`varmap mixture --out\` writes it`,
          });
        }
      })(),
    });
    out.set(key, list);
  });
  return out;
}
