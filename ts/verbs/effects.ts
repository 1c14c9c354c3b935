// `varmap effects`: which inputs drive a map's variability (issue 45 item 1). Per map: an ANOVA of the statistic
// (log scale by default) on the inputs as factors (their levels when gridded, a linear term otherwise; inputs may
// be combined into one factor, e.g. the (file size, record size) pair), type I and II sums of squares with F, p
// and partial η²; given a models file, each model's permutation importance, gp length scales, MARS term counts
// and partial-dependence curves.
import { anova, type AnovaRow } from "../effects/anova.js";
import { mapFactors } from "../effects/map-factors.js";
export { mapFactors };
import { inputImportance, partialDependence, type InputImportance, type PdPoint } from "../effects/importance.js";
import { loadDataset, type LoadOptions } from "../data/load.js";
import { TABLE_OUTPUT, TABLE_OUTPUT_EXTENSIONS, writeTable, type Column } from "../data/write.js";
import { VarmapError } from "../errors.js";
import { parseInteger } from "../data/option-values.js";
import { mapKey, readModelSets } from "../predict/models-file.js";
import { predictorFromJSON } from "../predict/registry.js";

export interface EffectsOptions {
  load: LoadOptions;
  /** The scale of the statistic in the ANOVA (default log: multiplicative effects, as the papers model sd). */
  scale?: "log" | "linear";
  /** Groups of inputs taken together as one factor (their value combinations are its levels). */
  combine?: string[][];
  /** Two-way interactions (default true). */
  interactions?: boolean;
  /** An input with at most this many distinct values in a map is a factor; more: a linear covariate (default 20). */
  maxLevels?: number;
  /** ANOVA table. */
  out: string;
  /** A models file (fit or refit): adds importance and partial dependence. */
  models?: string;
  importanceOut?: string;
  pdOut?: string;
  repeats?: number;
  seed?: string | number;
}

export interface EffectsMapSummary {
  key: Record<string, string>;
  configurations: number;
  factors: { name: string; levels: number; kind: "factor" | "covariate" }[];
  anova: AnovaRow[];
  residual: { df: number; ss: number };
  importance?: (InputImportance & { method: string })[];
}

export interface EffectsSummary {
  verb: "effects";
  file: string;
  stat: string;
  scale: "log" | "linear";
  out: string;
  importanceOut: string | null;
  pdOut: string | null;
  maps: EffectsMapSummary[];
  /** Maps left out (too few configurations for the model), with the reason. */
  skipped: { key: Record<string, string>; reason: string }[];
}

export function validateEffectsOptions(o: EffectsOptions): void {
  const paths: [string, string | undefined][] = [
    ["--out", o.out],
    ["--importance-out", o.importanceOut],
    ["--pd-out", o.pdOut],
  ];
  if (!o.out) throw new VarmapError("E_USAGE", "--out is required", { remedy: "pass --out anova.csv" });
  for (const [flag, p] of paths)
    if (p !== undefined && !TABLE_OUTPUT.test(p))
      throw new VarmapError("E_USAGE", `cannot tell the format of ${flag} '${p}'`, { remedy: `end it in ${TABLE_OUTPUT_EXTENSIONS}` });
  const given = paths.filter(([, p]) => p !== undefined).map(([, p]) => p);
  if (new Set(given).size !== given.length)
    throw new VarmapError("E_USAGE", "two output flags name the same file", { remedy: "give each output its own path" });
  if ((o.importanceOut || o.pdOut) && !o.models)
    throw new VarmapError("E_USAGE", "--importance-out and --pd-out need --models (the fitted models to explain)", {
      remedy: "fit first (`varmap fit … --out models.json`) and pass --models models.json",
    });
  parseInteger(o.maxLevels ?? 20, "--max-levels", { min: 2, example: 20 });
  parseInteger(o.repeats ?? 5, "--repeats", { min: 1, max: 1000, example: 5 });
  for (const g of o.combine ?? [])
    if (g.length < 2)
      throw new VarmapError("E_USAGE", `--combine takes groups of two or more inputs joined by '+', got '${g.join("+")}'`, {
        remedy: "e.g. --combine fsize_kb+rsize_kb",
      });
}

export async function runEffects(file: string, options: EffectsOptions): Promise<EffectsSummary> {
  validateEffectsOptions(options);
  const scale = options.scale ?? "log";
  const combine = options.combine ?? [];
  const maxLevels = options.maxLevels ?? 20;
  const sets = options.models ? readModelSets(options.models) : [];
  const data = await loadDataset(file, { ...options.load, logResponse: false });
  const inputs = data.table.roles.inputs;
  for (const g of combine)
    for (const c of g)
      if (!inputs.includes(c))
        throw new VarmapError("E_USAGE", `--combine names '${c}', which is not an input column (inputs: ${inputs.join(", ")})`, {
          remedy: "list input columns joined by '+', e.g. --combine fsize_kb+rsize_kb",
        });
  const stat = options.load.stat ?? "sd";
  const maps: EffectsMapSummary[] = [];
  const skipped: EffectsSummary["skipped"] = [];
  const pd: (PdPoint & { key: Record<string, string>; method: string })[] = [];
  for (const map of data.maps) {
    if (scale === "log") {
      const bad = Array.from(map.y).findIndex((v) => !(v > 0));
      if (bad >= 0)
        throw new VarmapError("E_LOG_RESPONSE", `--scale log needs a positive ${stat}, but a configuration of map ${describe(map.key)} has ${map.y[bad]}`, {
          remedy: "use --scale linear, or a statistic that is positive (sd of runs that vary)",
        });
    }
    const y = scale === "log" ? Float64Array.from(map.y, Math.log) : Float64Array.from(map.y);
    const factors = mapFactors(map, combine, maxLevels);
    if (factors.length === 0) {
      skipped.push({ key: map.key, reason: "no input varies within the map" });
      continue;
    }
    let table: ReturnType<typeof anova>;
    try {
      table = anova(y, factors, { interactions: options.interactions ?? true });
    } catch (e) {
      if (e instanceof VarmapError && e.code === "E_TOO_FEW_POINTS") {
        skipped.push({ key: map.key, reason: e.message });
        continue;
      }
      throw e;
    }
    const summary: EffectsMapSummary = {
      key: map.key,
      configurations: map.rows,
      factors: factors.map((f) => ({ name: f.name, levels: f.numeric ? Number.NaN : f.levels.length, kind: f.numeric ? "covariate" : "factor" })),
      anova: table.rows,
      residual: table.residual,
    };
    for (const set of sets) {
      const m = set.maps.find((mm) => mapKey(set.factors, mm.key) === mapKey(data.table.roles.factors, map.key));
      if (!m) continue;
      const cols = m.inputs.map((c) => map.inputNames.indexOf(c));
      if (cols.some((j) => j < 0))
        throw new VarmapError("E_COLUMN", `map ${describe(map.key)} of the data lacks the model's inputs ${m.inputs.join(", ")}`, {
          remedy: "give the same column flags as when fitting",
        });
      const d = map.inputNames.length;
      const X = new Float64Array(map.rows * cols.length);
      for (let i = 0; i < map.rows; i++) cols.forEach((j, k) => (X[i * cols.length + k] = map.X[i * d + j]));
      const model = predictorFromJSON(m.model);
      const imp = inputImportance(model, m.inputs, X, map.y, {
        repeats: options.repeats ?? 5,
        seed: options.seed ?? 1,
        key: [set.method, mapKey(set.factors, m.key)],
      });
      (summary.importance ??= []).push(...imp.map((r) => ({ ...r, method: set.method })));
      if (options.pdOut) for (const p of partialDependence(model, m.inputs, X, map.rows)) pd.push({ ...p, key: map.key, method: set.method });
    }
    maps.push(summary);
  }
  if (maps.length === 0)
    throw new VarmapError(
      "E_TOO_FEW_POINTS",
      `no map has enough configurations for the ANOVA (${skipped.map((s) => `${describe(s.key)}: ${s.reason}`).join("; ")})`,
      {
        remedy: "drop the interactions (--interactions none) or select maps with more configurations",
      },
    );
  const factorNames = data.table.roles.factors;
  const keyCols = (rows: { key: Record<string, string> }[]): Column[] =>
    factorNames.map((f) => ({ name: f, values: rows.map((r) => r.key[f]), type: "string" }));
  if (options.importanceOut) {
    const rows = maps.flatMap((m) => (m.importance ?? []).map((r) => ({ key: m.key, ...r })));
    await writeTable(options.importanceOut, [
      ...keyCols(rows),
      { name: "method", values: rows.map((r) => r.method), type: "string" },
      { name: "input", values: rows.map((r) => r.input), type: "string" },
      { name: "importance_are", values: Float64Array.from(rows, (r) => r.importance) },
      { name: "importance_sd", values: Float64Array.from(rows, (r) => r.importanceSd) },
      { name: "length_scale", values: Float64Array.from(rows, (r) => r.lengthScale) },
      { name: "mars_terms", values: Float64Array.from(rows, (r) => r.marsTerms) },
    ]);
  }
  if (options.pdOut)
    await writeTable(options.pdOut, [
      ...keyCols(pd),
      { name: "method", values: pd.map((r) => r.method), type: "string" },
      { name: "input", values: pd.map((r) => r.input), type: "string" },
      { name: "value", values: Float64Array.from(pd, (r) => r.value) },
      { name: "prediction", values: Float64Array.from(pd, (r) => r.prediction) },
    ]);
  const rows = maps.flatMap((m) => [
    ...m.anova.map((r) => ({ key: m.key, ...r })),
    {
      key: m.key,
      term: "Residuals",
      df: m.residual.df,
      ssType1: m.residual.ss,
      fType1: Number.NaN,
      pType1: Number.NaN,
      ssType2: m.residual.ss,
      fType2: Number.NaN,
      pType2: Number.NaN,
      partialEta2: Number.NaN,
    },
  ]);
  await writeTable(options.out, [
    ...keyCols(rows),
    { name: "term", values: rows.map((r) => r.term), type: "string" },
    { name: "df", values: Int32Array.from(rows, (r) => r.df), type: "int" },
    { name: "ss_type1", values: Float64Array.from(rows, (r) => r.ssType1) },
    { name: "f_type1", values: Float64Array.from(rows, (r) => r.fType1) },
    { name: "p_type1", values: Float64Array.from(rows, (r) => r.pType1) },
    { name: "ss_type2", values: Float64Array.from(rows, (r) => r.ssType2) },
    { name: "f_type2", values: Float64Array.from(rows, (r) => r.fType2) },
    { name: "p_type2", values: Float64Array.from(rows, (r) => r.pType2) },
    { name: "partial_eta2", values: Float64Array.from(rows, (r) => r.partialEta2) },
  ]);
  return {
    verb: "effects",
    file,
    stat,
    scale,
    out: options.out,
    importanceOut: options.importanceOut ?? null,
    pdOut: options.pdOut ?? null,
    maps,
    skipped,
  };
}

function describe(key: Record<string, string>): string {
  return (
    Object.entries(key)
      .map(([k, v]) => `${k}=${v}`)
      .join(", ") || "(the only map)"
  );
}
