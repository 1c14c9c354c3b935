// The layers point down (ARCHITECTURE.md): cli -> jobs -> pool (engine) -> predict, mixture, cv, data -> backend.
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

/** For each layer (a folder of ts/), the layers it must not import. */
const FORBIDDEN: Record<string, string[]> = {
  pool: ["cli", "jobs", "bench", "benchmarks"],
  jobs: ["cli", "bench", "benchmarks"],
  cv: ["cli", "jobs", "pool", "bench", "benchmarks"],
  data: ["cli", "jobs", "pool", "bench", "benchmarks"],
  predict: ["cli", "jobs", "pool", "bench", "benchmarks"],
  mixture: ["cli", "jobs", "pool", "bench", "benchmarks"],
  evt: ["cli", "jobs", "pool", "bench", "benchmarks"],
  whatif: ["cli", "jobs", "pool", "bench", "benchmarks"],
  plan: ["cli", "jobs", "pool", "verbs", "bench", "benchmarks"],
  verbs: ["cli", "bench"],
  backend: ["cli", "jobs", "pool", "bench", "benchmarks", "cv", "data", "predict", "mixture"],
  benchmarks: ["cli", "jobs", "pool", "bench"],
  // Leaf utilities (generator, special functions): import nothing of ts/.
  util: ["cli", "jobs", "pool", "bench", "benchmarks", "cv", "data", "predict", "mixture", "backend", "errors"],
};

// Known exceptions, each to be removed once fixed ("from -> to"); none today.
const ALLOWED = new Set<string>();

describe("layers", () => {
  const files = tsFiles(tsDir).map((f) => relative(root, f));
  const edges = files.flatMap((from) => importsOf(join(root, from)).map((to) => ({ from, to })));

  it("finds the imports it checks", () => {
    expect(files.length).toBeGreaterThan(50);
    expect(edges).toContainEqual({ from: "ts/cli/bulk.ts", to: "ts/pool/job.ts" });
  });

  it("ts/ imports nothing outside ts/ (bench/, test/ are not product code)", () => {
    expect(edges.filter((e) => !e.to.startsWith("ts/")).map((e) => `${e.from} -> ${e.to}`)).toEqual([]);
  });

  it("no layer imports a layer above it", () => {
    const up = edges
      .filter((e) => FORBIDDEN[layerOf(e.from)]?.includes(layerOf(e.to)))
      .map((e) => `${e.from} -> ${e.to}`)
      .filter((e) => !ALLOWED.has(e));
    expect(up).toEqual([]);
  });

  it("the known exceptions still exist (remove them from ALLOWED once fixed)", () => {
    const all = new Set(edges.map((e) => `${e.from} -> ${e.to}`));
    for (const a of ALLOWED) expect(all.has(a), a).toBe(true);
  });
});
