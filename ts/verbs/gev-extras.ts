// `varmap gev --compare COL=a,b` and `varmap gev --loc-covariates …` (issue 45 item 3): two conditions compared
// through their GEV fits, and a GEV with covariates in location (and log-scale), per map of pooled runs.
import { getBackend } from "../backend/index.js";
import { describeConfig, loadDataset, type LoadOptions } from "../data/load.js";
import { TABLE_OUTPUT, TABLE_OUTPUT_EXTENSIONS, writeTable, type Column } from "../data/write.js";
import { VarmapError } from "../errors.js";
import { compareGev, type GevComparison } from "../evt/compare.js";
import { fitGevCovariates, type GevCovariateFit } from "../evt/covariates.js";
import { factorGroups } from "../data/maps.js";

export interface GevCompareOptions {
  load: LoadOptions;
  /** The column that names the condition, and its two values (ratios are b over a). */
  column: string;
  a: string;
  b: string;
  out: string;
  level?: number;
  /** Parametric-bootstrap replicates for the percentile intervals (0: none). */
  boot?: number;
  seed?: string;
  tail?: "upper" | "lower";
}

export interface GevCompareSummary {
  verb: "gev-compare";
  out: string;
  pairs: number;
  /** Pairs where one of the two fits is not valid (row flag). */
  invalid: number;
  unpaired: number;
}

/** Parses "COL=a,b". */
export function parseCompare(spec: string): { column: string; a: string; b: string } {
  const m = /^([^=]+)=([^,]+),([^,]+)$/.exec(spec.trim());
  if (!m)
    throw new VarmapError("E_USAGE", `--compare takes COL=a,b (the column and its two conditions), got '${spec}'`, {
      remedy: "e.g. --compare load=quiet,busy (ratios are busy over quiet)",
    });
  return { column: m[1].trim(), a: m[2].trim(), b: m[3].trim() };
}

function checkOut(out: string): void {
  if (!out || !TABLE_OUTPUT.test(out))
    throw new VarmapError("E_USAGE", `--out must be a table file (${TABLE_OUTPUT_EXTENSIONS}) with --compare or --loc-covariates, got '${out}'`, {
      remedy: "e.g. --out compare.csv",
    });
}

export async function runGevCompare(file: string, o: GevCompareOptions): Promise<GevCompareSummary> {
  checkOut(o.out);
  const level = o.level ?? 0.95;
  const data = await loadDataset(file, { ...o.load, stat: "mean", allowNoInputs: true, logResponse: false });
  const t = data.table;
  const fi = t.roles.factors.indexOf(o.column);
  const ii = t.roles.inputs.indexOf(o.column);
  if (fi < 0 && ii < 0)
    throw new VarmapError(
      "E_USAGE",
      `--compare names '${o.column}', which is neither a factor nor an input (factors: ${t.roles.factors.join(", ") || "none"}; inputs: ${t.roles.inputs.join(", ") || "none"})`,
      {
        remedy: "add the condition column to --factors",
      },
    );
  const d = t.roles.inputs.length;
  const cond = (c: number) => (fi >= 0 ? t.factorValues[fi][c] : String(t.inputs[c * d + ii]));
  // The key of a configuration without the condition column.
  const keyOf = (c: number) =>
    JSON.stringify([
      ...t.factorValues.filter((_, f) => f !== fi).map((v) => v[c]),
      ...Array.from({ length: d }, (_, j) => (j === ii ? null : t.inputs[c * d + j])),
    ]);
  const pairs = new Map<string, { a?: number; b?: number }>();
  for (let c = 0; c < t.count; c++) {
    const v = cond(c);
    if (v !== o.a && v !== o.b) continue;
    const k = keyOf(c);
    const p = pairs.get(k) ?? {};
    const side = v === o.a ? "a" : "b";
    if (p[side] !== undefined)
      throw new VarmapError("E_DUPLICATE_CONFIGURATION", `two configurations with ${o.column}=${v} share every other setting`, {
        location: { file, configuration: describeConfig(t, c) },
        remedy: "list every column that distinguishes configurations in --factors/--inputs",
      });
    p[side] = c;
    pairs.set(k, p);
  }
  const matched = [...pairs.values()].filter((p) => p.a !== undefined && p.b !== undefined) as { a: number; b: number }[];
  if (!matched.length)
    throw new VarmapError("E_USAGE", `no configuration with ${o.column}=${o.a} has a partner with ${o.column}=${o.b} (the same other settings)`, {
      location: { file },
      remedy: `check the values of ${o.column} (give them exactly as in the file)`,
    });
  const sample = (c: number) => Float64Array.from(t.runs.subarray(t.offsets[c], t.offsets[c + 1]), (v) => (o.tail === "lower" ? -v : v));
  const backend = getBackend();
  const rows: { c: number; r: GevComparison | null; flags: string }[] = matched.map(({ a, b }) => {
    const r = compareGev(backend, sample(a), sample(b), { level, boot: o.boot ?? 0, seed: o.seed ?? "1", key: [keyOf(a)] });
    if ("invalid" in r) return { c: a, r: null, flags: `a:${r.a.status} b:${r.b.status}` };
    return { c: a, r, flags: "" };
  });
  const keep = t.roles.factors.map((f, k) => ({ f, k })).filter(({ k }) => k !== fi);
  const num = (f: (r: GevComparison) => number) => Float64Array.from(rows, (x) => (x.r ? f(x.r) : Number.NaN));
  const cols: Column[] = [
    ...keep.map(({ f, k }) => ({ name: f, values: rows.map((x) => t.factorValues[k][x.c]), type: "string" as const })),
    ...t.roles.inputs
      .filter((_, j) => j !== ii)
      .map((name) => ({ name, values: Float64Array.from(rows, (x) => t.inputs[x.c * d + t.roles.inputs.indexOf(name)]) })),
    { name: "n_a", values: num((r) => r.a.n) },
    { name: "n_b", values: num((r) => r.b.n) },
    { name: "loc_a", values: num((r) => r.a.params.loc) },
    { name: "loc_b", values: num((r) => r.b.params.loc) },
    { name: "scale_a", values: num((r) => r.a.params.scale) },
    { name: "scale_b", values: num((r) => r.b.params.scale) },
    { name: "shape_a", values: num((r) => r.a.params.shape) },
    { name: "shape_b", values: num((r) => r.b.params.shape) },
    { name: "loc_ratio", values: num((r) => r.loc.ratio) },
    { name: "loc_ratio_se", values: num((r) => r.loc.se) },
    { name: "loc_ratio_lo", values: num((r) => r.loc.lo) },
    { name: "loc_ratio_hi", values: num((r) => r.loc.hi) },
    { name: "loc_ratio_boot_lo", values: num((r) => r.loc.bootLo) },
    { name: "loc_ratio_boot_hi", values: num((r) => r.loc.bootHi) },
    { name: "scale_ratio", values: num((r) => r.scale.ratio) },
    { name: "scale_ratio_se", values: num((r) => r.scale.se) },
    { name: "scale_ratio_lo", values: num((r) => r.scale.lo) },
    { name: "scale_ratio_hi", values: num((r) => r.scale.hi) },
    { name: "scale_ratio_boot_lo", values: num((r) => r.scale.bootLo) },
    { name: "scale_ratio_boot_hi", values: num((r) => r.scale.bootHi) },
    { name: "shape_common", values: num((r) => r.commonShape) },
    { name: "lr_shape", values: num((r) => r.lrShape) },
    { name: "lr_shape_p", values: num((r) => r.lrShapeP) },
    { name: "boot", values: num((r) => r.boot) },
    { name: "flag", values: rows.map((x) => x.flags), type: "string" },
  ];
  await writeTable(o.out, cols);
  return { verb: "gev-compare", out: o.out, pairs: rows.length, invalid: rows.filter((x) => !x.r).length, unpaired: pairs.size - matched.length };
}

export interface GevCovariateOptions {
  load: LoadOptions;
  /** Location covariates: input names, or log(name) for its natural log. */
  loc: string[];
  /** Log-scale covariates (same syntax). */
  scale?: string[];
  out: string;
  tail?: "upper" | "lower";
}

export interface GevCovariateSummary {
  verb: "gev-covariates";
  out: string;
  maps: { key: Record<string, string>; fit: GevCovariateFit | null }[];
}

/** "m" → the input m; "log(m)" → its natural log. */
export function parseCovariate(spec: string, inputs: string[]): { name: string; column: number; log: boolean } {
  const m = /^log\((.+)\)$/.exec(spec.trim());
  const col = (m ? m[1] : spec).trim();
  const j = inputs.indexOf(col);
  if (j < 0)
    throw new VarmapError("E_USAGE", `covariate '${spec}' is not an input column (inputs: ${inputs.join(", ") || "none"})`, {
      remedy: "name an input column, or log(column) for its natural log; add it to --inputs",
    });
  return { name: spec.trim(), column: j, log: Boolean(m) };
}

export async function runGevCovariates(file: string, o: GevCovariateOptions): Promise<GevCovariateSummary> {
  checkOut(o.out);
  const data = await loadDataset(file, { ...o.load, stat: "mean", logResponse: false });
  const t = data.table;
  const d = t.roles.inputs.length;
  const loc = o.loc.map((s) => parseCovariate(s, t.roles.inputs));
  const sc = (o.scale ?? []).map((s) => parseCovariate(s, t.roles.inputs));
  const value = (cv: { column: number; log: boolean }, c: number) => {
    const v = t.inputs[c * d + cv.column];
    if (cv.log && !(v > 0))
      throw new VarmapError("E_LOG_INPUT", `log(${t.roles.inputs[cv.column]}) of ${v}`, {
        location: { file, configuration: describeConfig(t, c) },
        remedy: "use the column itself, or select positive values",
      });
    return cv.log ? Math.log(v) : v;
  };
  const backend = getBackend();
  const maps: GevCovariateSummary["maps"] = [];
  for (const [k, members] of factorGroups(t, () => true)) {
    const values = JSON.parse(k) as string[];
    const key = Object.fromEntries(t.roles.factors.map((f, i) => [f, values[i]]));
    const n = members.reduce((s, c) => s + t.offsets[c + 1] - t.offsets[c], 0);
    const y = new Float64Array(n);
    const M = new Float64Array(n * loc.length);
    const S = new Float64Array(n * sc.length);
    let i = 0;
    for (const c of members) {
      const lv = loc.map((cv) => value(cv, c));
      const sv = sc.map((cv) => value(cv, c));
      for (let r = t.offsets[c]; r < t.offsets[c + 1]; r++, i++) {
        y[i] = o.tail === "lower" ? -t.runs[r] : t.runs[r];
        M.set(lv, i * loc.length);
        S.set(sv, i * sc.length);
      }
    }
    maps.push({ key, fit: fitGevCovariates(backend, y, M, loc.length, S, sc.length) });
  }
  const names = ["loc_(intercept)", ...loc.map((c) => `loc_${c.name}`), "logscale_(intercept)", ...sc.map((c) => `logscale_${c.name}`), "shape"];
  const rows = maps.flatMap((m) =>
    names.map((p, j) => ({
      key: m.key,
      parameter: p,
      estimate: m.fit ? [...m.fit.loc, ...m.fit.logScale, m.fit.shape][j] : Number.NaN,
      se: m.fit ? m.fit.se[j] : Number.NaN,
      fit: m.fit,
    })),
  );
  await writeTable(o.out, [
    ...t.roles.factors.map((f) => ({ name: f, values: rows.map((r) => r.key[f]), type: "string" as const })),
    { name: "parameter", values: rows.map((r) => r.parameter), type: "string" },
    { name: "estimate", values: Float64Array.from(rows, (r) => r.estimate) },
    { name: "se", values: Float64Array.from(rows, (r) => r.se) },
    { name: "n", values: Float64Array.from(rows, (r) => r.fit?.n ?? Number.NaN) },
    { name: "nllh", values: Float64Array.from(rows, (r) => r.fit?.nllh ?? Number.NaN) },
    { name: "stationary_nllh", values: Float64Array.from(rows, (r) => r.fit?.stationaryNllh ?? Number.NaN) },
    { name: "lr", values: Float64Array.from(rows, (r) => r.fit?.lr ?? Number.NaN) },
    { name: "lr_df", values: Float64Array.from(rows, (r) => r.fit?.df ?? Number.NaN) },
    { name: "lr_p", values: Float64Array.from(rows, (r) => r.fit?.lrP ?? Number.NaN) },
  ]);
  return { verb: "gev-covariates", out: o.out, maps };
}
