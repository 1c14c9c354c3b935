// Candidate configurations for `varmap whatif --grid … --fix …` (spec D.3): `--grid` takes `a:b:step` ranges or
// comma lists per column, separated by ";"; `--fix` gives one value per column. Factor columns select maps (a factor
// listed in --grid enumerates maps), input columns are enumerated as a Cartesian product.
import { VarmapError } from "../errors.js";

export interface GridAxis {
  column: string;
  /** Values as written (factor values are compared as strings, inputs as numbers). */
  values: string[];
}

const usage = (message: string, remedy: string): VarmapError => new VarmapError("E_USAGE", message, { remedy });
const GRID_REMEDY = 'write e.g. --grid "freq_khz=1200000:3000000:100000;threads=1,2,4,8"';

/**
 * The values of an inclusive range a:b:step. The last value is kept when it overshoots b by at most 1e-9·step
 * (so 0.1-steps reach b despite rounding); values are computed as a + i·step, never by repeated addition.
 */
export function rangeValues(a: number, b: number, step: number, text = `${a}:${b}:${step}`): number[] {
  if (![a, b, step].every(Number.isFinite)) throw usage(`grid range '${text}' has a part that is not a finite number`, GRID_REMEDY);
  if (!(step > 0)) throw usage(`grid range '${text}' needs a positive step`, GRID_REMEDY);
  if (b < a) throw usage(`grid range '${text}' ends below its start`, "write a:b:step with a ≤ b");
  const count = Math.floor((b - a) / step + 1e-9) + 1;
  if (count > 1e8) throw usage(`grid range '${text}' has ${count} values`, "use a larger step");
  const out: number[] = [];
  for (let i = 0; i < count; i++) out.push(a + i * step);
  return out;
}

function parseNumber(s: string, where: string): number {
  const t = s.trim();
  const x = t === "" ? NaN : Number(t);
  if (!Number.isFinite(x)) throw usage(`${where}: '${s}' is not a finite number`, GRID_REMEDY);
  return x;
}

/** Parses one axis's value text: "a:b:step" or "v1,v2,…" (a single value is a list of one). */
export function parseAxisValues(column: string, text: string, numeric: boolean): string[] {
  const t = text.trim();
  if (t === "") throw usage(`grid column '${column}' has no values`, GRID_REMEDY);
  if (t.includes(":")) {
    if (!numeric) throw usage(`grid column '${column}' is a factor: ranges a:b:step apply to numeric inputs only`, "list factor values with commas");
    const parts = t.split(":");
    if (parts.length !== 3) throw usage(`grid range '${t}' for '${column}' is not a:b:step`, GRID_REMEDY);
    const [a, b, step] = parts.map((p) => parseNumber(p, `grid column '${column}'`));
    return rangeValues(a, b, step, t).map(String);
  }
  const items = t.split(",").map((s) => s.trim());
  if (items.some((s) => s === "")) throw usage(`grid column '${column}' has an empty value in '${t}'`, GRID_REMEDY);
  const vals = numeric ? items.map((s) => String(parseNumber(s, `grid column '${column}'`))) : items;
  if (new Set(vals).size !== vals.length) throw usage(`grid column '${column}' repeats a value in '${t}'`, "list each value once");
  return vals;
}

/**
 * Parses "col=values;col=values" (--grid) or "col=v,col=v" (--fix, one value each). `known` lists the models'
 * factor and input columns; `inputs` those that are numeric.
 */
export function parseAxes(spec: string, flag: "--grid" | "--fix", known: readonly string[], inputs: readonly string[]): GridAxis[] {
  const parts = spec.split(flag === "--grid" ? ";" : ",");
  const axes: GridAxis[] = [];
  for (const raw of parts) {
    const p = raw.trim();
    if (p === "") continue;
    const eq = p.indexOf("=");
    if (eq <= 0) throw usage(`${flag} part '${p}' is not column=values`, flag === "--grid" ? GRID_REMEDY : "write e.g. --fix host_sched=CFQ,mode=fread");
    const column = p.slice(0, eq).trim();
    if (!known.includes(column))
      throw usage(`${flag} names '${column}', which is not a factor or input of the models (${known.join(", ")})`, "name the models' columns");
    if (axes.some((a) => a.column === column)) throw usage(`${flag} names '${column}' twice`, "give each column once");
    const values = parseAxisValues(column, p.slice(eq + 1), inputs.includes(column));
    if (flag === "--fix" && values.length !== 1)
      throw usage(`--fix ${column} has ${values.length} values`, "fix one value per column; enumerate several with --grid");
    axes.push({ column, values });
  }
  return axes;
}

/** Number of points of a Cartesian product (throws beyond `limit`). */
export function gridSize(axes: readonly GridAxis[], limit = 1e9): number {
  let n = 1;
  for (const a of axes) n *= a.values.length;
  if (n > limit) throw usage(`the grid has ${n} candidates`, `narrow it to at most ${limit}`);
  return n;
}
