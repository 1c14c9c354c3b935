// Parsing and validating the options of `varmap samplesize` and `varmap convergence` (before any data is read).
import { VarmapError } from "../errors.js";
import { FAMILY_NAMES, type FamilyName } from "../mixture/families.js";
import { Mixture, type MixtureJSON } from "../mixture/model.js";

/** A comma-separated list of numbers, each checked by `ok`. */
export function numberList(spec: unknown, flag: string, ok: (v: number) => boolean, remedy: string): number[] {
  const parts = String(spec ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (parts.length === 0) throw new VarmapError("E_USAGE", `${flag} is empty`, { remedy });
  return parts.map((p) => {
    const v = Number(p);
    if (!Number.isFinite(v) || !ok(v)) throw new VarmapError("E_USAGE", `${flag}: '${p}' is out of range`, { remedy });
    return v;
  });
}

export function quantileLevels(spec: unknown, flag = "--q"): number[] {
  return numberList(spec, flag, (v) => v > 0 && v < 1, `give levels strictly between 0 and 1, e.g. ${flag} 0.1,0.9`);
}

export function thresholds(spec: unknown, flag = "--threshold"): number[] {
  return numberList(spec, flag, (v) => v > 0, `give positive relative standard errors, e.g. ${flag} 0.5,0.1`);
}

/** --n: "a:b" (inclusive range) or a list "1,10,40". */
export function runCounts(spec: unknown): number[] {
  const s = String(spec ?? "").trim();
  const remedy = "give a range such as --n 1:900 or a list such as --n 1,10,40,100 (integers ≥ 1)";
  const range = /^(\d+)\s*:\s*(\d+)$/.exec(s);
  if (range) {
    const a = Number(range[1]),
      b = Number(range[2]);
    if (a < 1 || b < a) throw new VarmapError("E_USAGE", `--n ${s} is an empty range`, { remedy });
    return Array.from({ length: b - a + 1 }, (_, i) => a + i);
  }
  return numberList(s, "--n", (v) => Number.isInteger(v) && v >= 1, remedy);
}

export function positiveNumber(spec: unknown, flag: string, remedy: string): number {
  const v = Number(spec);
  if (!Number.isFinite(v) || !(v > 0)) throw new VarmapError("E_USAGE", `${flag} '${String(spec)}' is not a positive number`, { remedy });
  return v;
}

export function level(spec: unknown, flag: string): number {
  const v = Number(spec);
  if (!(v > 0 && v < 1))
    throw new VarmapError("E_USAGE", `${flag} '${String(spec)}' is not in (0, 1)`, { remedy: `give a confidence level such as ${flag} 0.95` });
  return v;
}

export function choice<T extends string>(spec: unknown, flag: string, options: readonly T[]): T {
  const v = String(spec);
  if (!(options as readonly string[]).includes(v))
    throw new VarmapError("E_USAGE", `${flag} '${v}' is not one of ${options.join(", ")}`, { remedy: `use ${flag} ${options[0]}` });
  return v as T;
}

/** --mixture JSON: {"family", "w", "a", "b"}; every defect is E_MIXTURE_MODEL naming the field. */
export function parseMixtureJSON(text: string): Mixture {
  const bad = (field: string, what: string) =>
    new VarmapError("E_MIXTURE_MODEL", `--mixture: ${field} ${what}`, {
      location: { column: field },
      remedy: `give {"family":"normal","w":[…],"a":[…],"b":[…]} with weights ≥ 0 summing to 1, b > 0, family one of ${FAMILY_NAMES.join(", ")}`,
    });
  let j: unknown;
  try {
    j = JSON.parse(text);
  } catch (e) {
    throw bad("JSON", `is malformed (${(e as Error).message})`);
  }
  if (!j || typeof j !== "object" || Array.isArray(j)) throw bad("JSON", "is not an object");
  const o = j as Record<string, unknown>;
  const fam = typeof o.family === "string" ? o.family.toLowerCase().replace("é", "e") : undefined;
  if (!fam || !(FAMILY_NAMES as string[]).includes(fam)) throw bad("family", `'${String(o.family)}' is not a known family`);
  const arr = (name: string): number[] => {
    const v = o[name];
    if (!Array.isArray(v) || v.length === 0 || !v.every((x) => typeof x === "number" && Number.isFinite(x)))
      throw bad(name, "is not a non-empty array of finite numbers");
    return v as number[];
  };
  const w = arr("w"),
    a = arr("a"),
    b = arr("b");
  if (a.length !== w.length || b.length !== w.length) throw bad("a/b", `have ${a.length}/${b.length} entries for ${w.length} weights`);
  if (w.length > 16) throw bad("w", `has ${w.length} components; at most 16 are supported (as --kmax)`);
  if (w.some((x) => x < 0)) throw bad("w", "has a negative weight");
  const sum = w.reduce((s, x) => s + x, 0);
  if (Math.abs(sum - 1) > 1e-9) throw bad("w", `sums to ${sum}, not 1 ± 1e-9`);
  if (b.some((x) => !(x > 0))) throw bad("b", "has a value ≤ 0 (scales must be positive)");
  if (fam === "gamma" && a.some((x) => !(x > 0))) throw bad("a", "has a gamma shape ≤ 0");
  return Mixture.fromJSON({ family: fam as FamilyName, w, a, b } as MixtureJSON);
}
