// Hyperparameter flags: how a predictor's options are spelled on the command line and parsed. Each predictor
// lists its own in the registry (ts/predict/registry.ts); the CLI builds its flags and help from there.
import { VarmapError } from "../errors.js";

export interface HyperparameterFlag {
  /** Commander flag, e.g. "--degree <n>". */
  flag: string;
  /** Help text without the method prefix (the CLI adds "mars: "). */
  description: string;
  /** The predictor option it sets. */
  option: string;
  parse: (value: string, flag: string) => unknown;
}

export function positiveInt(v: string, flag: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new VarmapError("E_USAGE", `${flag} ${v} is not a positive integer`, { remedy: `e.g. ${flag} 2` });
  return n;
}

export function nonNegative(v: string, flag: string): number {
  const x = Number(v);
  if (!Number.isFinite(x) || x < 0) throw new VarmapError("E_USAGE", `${flag} ${v} is not a non-negative number`, { remedy: `e.g. ${flag} 0.1` });
  return x;
}

export function anyInt(v: string, flag: string): number {
  const n = Number(v);
  if (!Number.isInteger(n)) throw new VarmapError("E_USAGE", `${flag} ${v} is not an integer`, { remedy: `e.g. ${flag} 0` });
  return n;
}

export function nonNegativeInt(v: string, flag: string): number {
  const n = anyInt(v, flag);
  if (n < 0) throw new VarmapError("E_USAGE", `${flag} ${v} is negative`, { remedy: `e.g. ${flag} 0` });
  return n;
}

export function atLeastMinusOne(v: string, flag: string): number {
  const x = Number(v);
  if (!Number.isFinite(x) || x < -1) throw new VarmapError("E_USAGE", `${flag} ${v} is not a number ≥ -1`, { remedy: `e.g. ${flag} 3` });
  return x;
}

export function yesNo(v: string, flag: string): boolean {
  const s = v.toLowerCase();
  if (["yes", "true", "1"].includes(s)) return true;
  if (["no", "false", "0"].includes(s)) return false;
  throw new VarmapError("E_USAGE", `${flag} ${v} is neither yes nor no`, { remedy: `e.g. ${flag} no` });
}

export function rbfKernel(v: string, flag: string): string {
  if (v === "tps" || v === "cubic") return v;
  throw new VarmapError("E_USAGE", `${flag} ${v} is neither tps nor cubic`, { remedy: `e.g. ${flag} tps` });
}

export function gcvOrNonNegative(v: string, flag: string): "gcv" | number {
  return v === "gcv" ? "gcv" : nonNegative(v, flag);
}

export function atLeastTwo(v: string, flag: string): number {
  const n = positiveInt(v, flag);
  if (n < 2) throw new VarmapError("E_USAGE", `${flag} ${v} is below 2`, { remedy: `e.g. ${flag} 40` });
  return n;
}

export function gpKernel(v: string, flag: string): string {
  if (v === "matern52" || v === "matern32" || v === "sqexp") return v;
  throw new VarmapError("E_USAGE", `${flag} ${v} is not matern52, matern32 or sqexp`, { remedy: `e.g. ${flag} matern52` });
}

export function gpMean(v: string, flag: string): string {
  if (v === "constant" || v === "linear" || v === "quadratic") return v;
  throw new VarmapError("E_USAGE", `${flag} ${v} is not constant, linear or quadratic`, { remedy: `e.g. ${flag} linear` });
}

export function gpPoint(v: string, flag: string): string {
  if (v === "are" || v === "median") return v;
  throw new VarmapError("E_USAGE", `${flag} ${v} is neither are nor median`, { remedy: `e.g. ${flag} are` });
}

export function gpNoise(v: string, flag: string): string {
  if (v === "measured" || v === "none") return v;
  throw new VarmapError("E_USAGE", `${flag} ${v} is neither measured nor none`, { remedy: `e.g. ${flag} none` });
}

export function nuggetBound(v: string, flag: string): number {
  const x = Number(v);
  if (!(Number.isFinite(x) && x > 0 && x < 10)) throw new VarmapError("E_USAGE", `${flag} ${v} is not a number in (0, 10)`, { remedy: `e.g. ${flag} 1e-6` });
  return x;
}

export function atLeastTen(v: string, flag: string): number {
  const n = positiveInt(v, flag);
  if (n < 10) throw new VarmapError("E_USAGE", `${flag} ${v} is below 10`, { remedy: `e.g. ${flag} 400` });
  return n;
}

export function neighbourCount(v: string, flag: string): number {
  const n = positiveInt(v, flag);
  if (n < 2 || n > 1000) throw new VarmapError("E_USAGE", `${flag} ${v} is not in 2…1000`, { remedy: `e.g. ${flag} 100` });
  return n;
}

export function methodList(v: string, flag: string): string[] {
  const list = v
    .split(",")
    .map((x) => x.trim())
    .filter(Boolean);
  if (!list.length || list.includes("auto"))
    throw new VarmapError("E_USAGE", `${flag} ${v} is not a list of methods other than auto`, { remedy: `e.g. ${flag} mars,rbf` });
  return list;
}

/** One method name other than auto and hybrid (hybrid's --hybrid-seen / --hybrid-novel). */
export function methodName(v: string, flag: string): string {
  const m = v.trim();
  if (!m || m === "auto" || m === "hybrid" || m.includes(","))
    throw new VarmapError("E_USAGE", `${flag} ${v} is not one method other than auto and hybrid`, { remedy: `e.g. ${flag} mars` });
  return m;
}
