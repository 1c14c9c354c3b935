// The layers point down (ARCHITECTURE.md): cli -> verbs -> jobs -> pool (engine); science -> data -> backend.
// This test reads every import in ts/ and fails on one that points up or out of ts/.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { packageRoot } from "../../ts/package-root.js";

const root = packageRoot();
const tsDir = join(root, "ts");

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? tsFiles(join(dir, d.name)) : d.name.endsWith(".ts") ? [join(dir, d.name)] : [],
  );
}

/** Relative imports of a file (static, `export … from`, dynamic with a literal), as repository paths ("ts/pool/job.ts"). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const specs = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^;]*?\sfrom\s+"([^"]+)"|import\(\s*"([^"]+)"\s*\)|(?:^|\n)\s*import\s+"([^"]+)"/g)].map(
    (m) => m[1] ?? m[2] ?? m[3],
  );
  return specs.filter((s) => s.startsWith(".")).map((s) => relative(root, resolve(dirname(file), s)).replace(/\.js$/, ".ts"));
}

const layerOf = (path: string) => (path.startsWith("ts/") ? path.split("/")[1].replace(/\.ts$/, "") : path.split("/")[0]);

// The science: algorithms, one folder per subject. They import only the data layer, the backend, the leaves and
// each other — never the engine (pool, jobs), the verbs or the CLI. New science folders are added here.
const SCIENCE = ["cv", "predict", "mixture", "evt", "whatif", "distribution", "interference", "convergence", "effects", "plan", "screen"];
/** Leaves: importable from anywhere (ts/errors.ts and ts/errors/ are one layer, "errors"). */
const LEAVES = ["errors", "util", "package-root"];
const BELOW_SCIENCE = ["data", "import", "backend", ...LEAVES];
const EVERYTHING_BUT = (...no: string[]) =>
  ["backend", "benchmarks", "data", "import", "jobs", "pool", "report", "slurm", "verbs", "cli", ...SCIENCE, ...LEAVES].filter((l) => !no.includes(l));

/**
 * For each layer (a folder of ts/, or a file at its top), the layers it may import (itself always). A folder of ts/
 * without an entry fails the test: a new folder states its place here and in ARCHITECTURE.md.
 */
const MAY_IMPORT: Record<string, string[]> = {
  util: [],
  errors: [],
  "package-root": [],
  backend: [...LEAVES],
  // Tool output readers (issue 42): below data/ (the loader's --format reads through them), above the leaves only.
  import: [...LEAVES],
  data: ["backend", "import", ...LEAVES],
  ...Object.fromEntries(SCIENCE.map((s) => [s, [...SCIENCE, ...BELOW_SCIENCE]])),
  // Figures and HTML reports of the science's outputs (varmap plot, varmap report).
  report: [...SCIENCE, ...BELOW_SCIENCE],
  // The job engine: plan -> tasks -> workers -> journal -> outputs; knows no verb and no science.
  pool: [...BELOW_SCIENCE],
  // Job definitions: the science on the engine.
  jobs: ["pool", ...SCIENCE, ...BELOW_SCIENCE],
  // Slurm job arrays of the job verbs.
  slurm: ["jobs", "pool", ...BELOW_SCIENCE],
  // The kernel benchmark runner behind `varmap bench`.
  benchmarks: [...BELOW_SCIENCE],
  // One module per verb: typed options in, a summary out; the library's and the CLI's way to run a verb.
  verbs: EVERYTHING_BUT("cli", "verbs"),
  // Flags -> typed options -> verbs; printing.
  cli: EVERYTHING_BUT("cli"),
  // The library entry point exports the verbs and the science, not the CLI.
  index: EVERYTHING_BUT("cli"),
};

// Known exceptions, each to be removed once fixed ("from -> to"); none today.
const ALLOWED = new Set<string>();

/** cli/ -> the engine (pool/, jobs/): none since every verb but slurm moved to ts/verbs/ (issue 39); none may be added. */
const CLI_ENGINE_LEFT = new Set<string>();

/**
 * What cli/ may take from the science (and the report, slurm and benchmark folders, and the data loaders): option
 * vocabulary only — types, UPPER_CASE constants (defaults, choice lists), option parsers and validators
 * (parse…, check…), help text (describe…) and choice lists (…Names, …Kinds). Anything that loads, fits, predicts or
 * writes is a verb's (ts/verbs/).
 */
const OPTION_VOCABULARY = /^(?:[A-Z][A-Z0-9_]*|(?:parse|check|describe)[A-Z]\w*|\w+(?:Names|Kinds))$/;
const LOADERS = ["ts/data/load.ts", "ts/data/duckdb.ts", "ts/data/synth.ts"];
/** cli/ files allowed more than the vocabulary, with the reason; each goes when its reason does. */
const CLI_LOGIC_LEFT: Record<string, string> = {
  // The composition root wires the layers: --log-inputs auto's candidates (data) are judged by a spline (predict).
  "ts/cli/program.ts -> ts/predict/log-inputs-judge.ts": "splineGcvJudge",
};

/** The names a file imports from each relative module: "type" marks a type-only name; "*" a whole module. */
function namedImportsOf(file: string): { to: string; names: { name: string; type: boolean }[] }[] {
  const text = readFileSync(file, "utf8");
  const out: { to: string; names: { name: string; type: boolean }[] }[] = [];
  const to = (spec: string) => relative(root, resolve(dirname(file), spec)).replace(/\.js$/, ".ts");
  for (const m of text.matchAll(/(?:^|\n)\s*(import|export)\s+(type\s+)?([^;]*?)\s+from\s+"(\.[^"]+)"/g)) {
    const allType = !!m[2];
    const clause = m[3];
    const braces = clause.match(/\{([^}]*)\}/);
    const names = braces
      ? braces[1]
          .split(",")
          .map((n) => n.trim())
          .filter(Boolean)
          .map((n) => ({ name: n.replace(/^type\s+/, "").split(/\s+as\s+/)[0], type: allType || n.startsWith("type ") }))
      : [];
    if (/^\s*\*|^\s*\w+\s*(,|$)/.test(clause)) names.push({ name: "*", type: allType });
    out.push({ to: to(m[4]), names });
  }
  for (const m of text.matchAll(/import\(\s*"(\.[^"]+)"\s*\)/g)) out.push({ to: to(m[1]), names: [{ name: "*", type: false }] });
  return out;
}

describe("layers", () => {
  const files = tsFiles(tsDir).map((f) => relative(root, f));
  const edges = files.flatMap((from) => importsOf(join(root, from)).map((to) => ({ from, to })));

  it("finds the imports it checks", () => {
    expect(files.length).toBeGreaterThan(50);
    expect(edges).toContainEqual({ from: "ts/verbs/cv.ts", to: "ts/pool/job.ts" });
  });

  it("ts/ imports nothing outside ts/ (bench/, test/ are not product code)", () => {
    expect(edges.filter((e) => !e.to.startsWith("ts/")).map((e) => `${e.from} -> ${e.to}`)).toEqual([]);
  });

  it("every folder (and top-level file) of ts/ has a rule", () => {
    const layers = [...new Set(files.map(layerOf))].sort();
    expect(layers.filter((l) => !(l in MAY_IMPORT))).toEqual([]);
  });

  it("no layer imports a layer it may not (science: neither the engine nor the verbs nor the CLI)", () => {
    const up = edges
      .filter((e) => layerOf(e.from) !== layerOf(e.to) && !MAY_IMPORT[layerOf(e.from)]?.includes(layerOf(e.to)))
      .map((e) => `${e.from} -> ${e.to}`)
      .filter((e) => !ALLOWED.has(e));
    expect(up).toEqual([]);
  });

  it("cli/ reaches the engine only through the verbs (the verbs not yet moved are listed)", () => {
    const toEngine = edges.filter((e) => layerOf(e.from) === "cli" && ["pool", "jobs"].includes(layerOf(e.to))).map((e) => `${e.from} -> ${e.to}`);
    expect(toEngine.filter((e) => !CLI_ENGINE_LEFT.has(e))).toEqual([]);
    for (const e of CLI_ENGINE_LEFT) expect(toEngine, `${e} is gone: remove it from CLI_ENGINE_LEFT`).toContain(e);
  });

  it("cli/ holds flag definitions and printing only: from the science, data loaders, report, slurm and benchmarks only option vocabulary", () => {
    const guarded = (to: string) =>
      LOADERS.includes(to) || [...SCIENCE, "report", "slurm", "benchmarks"].includes(layerOf(to)) || ["pool", "jobs"].includes(layerOf(to));
    const cliFiles = files.filter((f) => layerOf(f) === "cli");
    expect(cliFiles.length).toBeGreaterThan(20);
    const found: Record<string, string> = {};
    for (const from of cliFiles)
      for (const { to, names } of namedImportsOf(join(root, from))) {
        if (!guarded(to)) continue;
        const logic = names.filter((n) => !n.type && (["pool", "jobs"].includes(layerOf(to)) || !OPTION_VOCABULARY.test(n.name))).map((n) => n.name);
        if (logic.length) found[`${from} -> ${to}`] = logic.sort().join(" ");
      }
    expect(found).toEqual(CLI_LOGIC_LEFT);
  });

  it("the import reader sees names, type-only imports and whole modules", () => {
    const parsed = namedImportsOf(join(root, "ts/cli/flags.ts"));
    const load = parsed.find((p) => p.to === "ts/data/load.ts");
    expect(load?.names).toEqual([{ name: "LoadOptions", type: true }]);
    const common = parsed.find((p) => p.to === "ts/verbs/common.ts");
    expect(common?.names.map((n) => n.name)).toContain("parseWorkers");
  });

  it("the known exceptions still exist (remove them from ALLOWED once fixed)", () => {
    const all = new Set(edges.map((e) => `${e.from} -> ${e.to}`));
    for (const a of ALLOWED) expect(all.has(a), a).toBe(true);
  });
});
