// The cross-language contract: constants the C++ kernels (native/), their AssemblyScript twins (wasm/) and the
// TypeScript specs (ts/backend/kernels/) each spell out are equal. The sources are parsed, so a constant changed in
// one language and not the others fails here, before any numeric test has to notice.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FAMILY_CODES, MIXTURE_KMAX } from "../../ts/backend/kernels/mixture.js";
import { LspStatus } from "../../ts/backend/kernels/lsp.js";
import { KNN_TOO_FEW_POINTS } from "../../ts/backend/kernels/neighbors.js";
import { QueryStatus } from "../../ts/backend/kernels/delaunay.js";
import { MARS_INFO_FIELDS, MARS_OPTION_FIELDS } from "../../ts/backend/kernels/mars.js";
import { Status } from "../../ts/backend/status.js";
import { GP_KERNEL_CODES } from "../../ts/backend/kernels/gp.js";
import { GEV_OUT, GevStatus } from "../../ts/backend/kernels/gev.js";
import { packageRoot } from "../../ts/package-root.js";

const root = packageRoot();
const read = (...p: string[]) => readFileSync(join(root, ...p), "utf8");
const stripComments = (s: string) => s.replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/[^\n]*/g, "");
const num = (v: string) => Number(v.replace(/[uUlLfF]+$/, ""));

/** Enum members (NAME = value) and scalar constexpr constants of a C++ source. */
function cppConstants(text: string): Map<string, number> {
  const out = new Map<string, number>();
  const t = stripComments(text);
  for (const e of t.matchAll(/enum\s+\w+\s*(?::\s*\w+)?\s*\{([^}]*)\}/g))
    for (const m of e[1].matchAll(/([A-Z][A-Z0-9_]*)\s*=\s*(-?[0-9][0-9.eE+-]*)/g)) out.set(m[1], num(m[2]));
  for (const m of t.matchAll(/constexpr\s+[\w:]+\s+([A-Z][A-Z0-9_]*)\s*=\s*(-?[0-9][0-9.eE+-]*[uUlLfF]*)\s*;/g)) out.set(m[1], num(m[2]));
  return out;
}

/** Top-level `const NAME: type = value[, NAME: type = value];` of an AssemblyScript source. */
function asConstants(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const decl of stripComments(text).matchAll(/(?:^|\n)\s*(?:export\s+)?const\s+([^;]*);/g))
    for (const m of decl[1].matchAll(/(?:^|,)\s*([A-Z][A-Z0-9_]*)\s*:\s*\w+\s*=\s*(-?[0-9][0-9.eE+-]*)\s*(?=,|$)/g)) out.set(m[1], num(m[2]));
  return out;
}

const native = (module: string) => {
  const m = cppConstants(read("native", "include", "varmap", `${module}.h`));
  for (const [k, v] of cppConstants(read("native", "src", `${module}.cc`))) m.set(k, v);
  return m;
};
const wasm = (module: string) => asConstants(read("wasm", `${module}.ts`));
const modules = readdirSync(join(root, "wasm"))
  .filter((f) => f.endsWith(".ts"))
  .map((f) => f.replace(/\.ts$/, ""));

describe("cross-language contract", () => {
  it("every kernel module has its three parts", () => {
    for (const m of modules) {
      expect(() => read("native", "src", `${m}.cc`), m).not.toThrow();
      expect(() => read("ts", "backend", "kernels", `${m}.ts`), m).not.toThrow();
    }
  });

  it("fast math shared by the mixture and gp kernels: varmap/fastmath.h = wasm/lib/fastmath.ts", () => {
    const c = cppConstants(read("native", "include", "varmap", "fastmath.h"));
    const a = asConstants(read("wasm", "lib", "fastmath.ts"));
    for (const n of ["EXP_TINY", "SHIFT52", "LOG2E", "LN2_HI", "LN2_LO"]) {
      expect(c.has(n), `${n} in fastmath.h`).toBe(true);
      expect(a.get(n), n).toBe(c.get(n));
    }
  });

  it("generic status codes: status.h = wasm/lib/status.ts = ts/backend/status.ts", () => {
    const c = cppConstants(read("native", "include", "varmap", "status.h"));
    const a = asConstants(read("wasm", "lib", "status.ts"));
    expect(Object.fromEntries(c)).toEqual(Object.fromEntries(a));
    expect(Object.fromEntries(c)).toEqual({ ...Status });
  });

  for (const m of modules)
    it(`${m}: every constant named in both native and wasm has the same value`, () => {
      const c = native(m);
      const a = wasm(m);
      const shared = [...a.keys()].filter((k) => c.has(k));
      expect(shared.map((k) => [k, a.get(k)])).toEqual(shared.map((k) => [k, c.get(k)]));
    });

  it("the constants that must be shared are found in both (the parsers see them)", () => {
    const need: Record<string, string[]> = {
      mixture: [
        "MIXTURE_NONPOSITIVE",
        "MIXTURE_BAD_MODEL",
        "MIXTURE_TOO_FEW",
        "FAM_NORMAL",
        "FAM_FRECHET",
        "FAM_COUNT",
        "KMAX",
        "SHORT_ITER",
        "PRUNE_AT",
        "DUP_TOL",
      ],
      lsp: ["LSP_TOO_FEW_POINTS", "LSP_DUPLICATE_POINTS", "LSP_LSTSQ_FAILED", "LSP_BAD_RADIUS"],
      mars: ["MARS_SINGULAR"],
      delaunay: [
        "DELAUNAY_DUPLICATE",
        "DELAUNAY_DEGENERATE",
        "DELAUNAY_TOO_FEW",
        "DELAUNAY_NO_CONVERGE",
        "QUERY_INSIDE",
        "QUERY_EXTRAPOLATED",
        "QUERY_TOO_FAR",
      ],
      neighbors: ["KNN_TOO_FEW_POINTS"],
      gp: ["GP_NOT_POSITIVE_DEFINITE", "GP_SINGULAR_MEAN", "GP_SQEXP", "GP_MATERN52", "GP_SQRT5", "GP_LOG_2PI"],
    };
    for (const [m, names] of Object.entries(need))
      for (const n of names) {
        expect(native(m).has(n), `${n} in native ${m}`).toBe(true);
        expect(wasm(m).has(n), `${n} in wasm ${m}`).toBe(true);
      }
  });

  it("mixture: family codes and the component limit in TypeScript match the kernels", () => {
    const c = native("mixture");
    for (const [name, code] of Object.entries(FAMILY_CODES)) expect(c.get(`FAM_${name.toUpperCase()}`), name).toBe(code);
    expect(c.get("FAM_COUNT")).toBe(Object.keys(FAMILY_CODES).length);
    expect([...c.keys()].filter((k) => k.startsWith("FAM_") && k !== "FAM_COUNT")).toHaveLength(Object.keys(FAMILY_CODES).length);
    expect(c.get("KMAX")).toBe(MIXTURE_KMAX);
  });

  it("kernel-specific status codes in TypeScript match the kernels", () => {
    const lsp = native("lsp");
    for (const [name, code] of Object.entries(LspStatus)) expect(lsp.get(`LSP_${name}`), name).toBe(code);
    expect(native("neighbors").get("KNN_TOO_FEW_POINTS")).toBe(KNN_TOO_FEW_POINTS);
    const d = native("delaunay");
    for (const [name, code] of Object.entries(QueryStatus)) expect(d.get(`QUERY_${name}`), name).toBe(code);
  });

  it("gp: the correlation family codes in TypeScript match the kernels", () => {
    const c = native("gp");
    expect(c.get("GP_SQEXP")).toBe(GP_KERNEL_CODES.sqexp);
    expect(c.get("GP_MATERN52")).toBe(GP_KERNEL_CODES.matern52);
  });

  it("gev: the per-configuration outcomes and the output layout match in C++, AssemblyScript and TypeScript", () => {
    const c = native("gev");
    const a = wasm("gev");
    for (const [name, code] of Object.entries(GevStatus)) {
      expect(c.get(`GEV_FIT_${name}`), name).toBe(code);
      expect(a.get(`FIT_${name}`), name).toBe(code);
    }
    for (const k of ["LOC", "SCALE", "SHAPE", "NLLH", "COV", "GUMBEL_LOC", "GUMBEL_SCALE", "GUMBEL_NLLH", "GRAD_SE"])
      expect(a.get(`OUT_${k}`), k).toBe(c.get(`GEV_${k}`));
    expect(a.get("GEV_OUT")).toBe(GEV_OUT);
    expect(Number(/kGevOut\s*=\s*(\d+)/.exec(read("native", "include", "varmap", "gev.h"))?.[1])).toBe(GEV_OUT);
  });

  it("every kernel-specific status (>= 10) of a kernel is turned into an error by its TypeScript wrapper", () => {
    for (const m of modules) {
      const header = stripComments(read("native", "include", "varmap", `${m}.h`));
      // Kernel return codes from 10 (an enum of per-item outcomes, such as gev's GevFitStatus, has none).
      const codes = [...header.matchAll(/enum\s+\w*Status\s*(?::\s*\w+)?\s*\{([^}]*)\}/g)]
        .flatMap((e) => [...e[1].matchAll(/=\s*(\d+)/g)].map((x) => Number(x[1])))
        .filter((c) => c >= 10);
      const wrapper = read("ts", "backend", "kernels", `${m}.ts`);
      const named = new Map([...wrapper.matchAll(/export const ([A-Z_]+) = (\d+);/g)].map((x) => [x[1], Number(x[2])]));
      const handled = new Set([
        ...[...wrapper.matchAll(/(?:^|\s)(\d+): \[\s*"E_/g)].map((x) => Number(x[1])),
        ...[...wrapper.matchAll(/code === (\d+)/g)].map((x) => Number(x[1])),
        ...[...wrapper.matchAll(/\[([A-Z_]+)\]: \[\s*"E_/g)].map((x) => named.get(x[1]) ?? NaN),
      ]);
      for (const code of codes) expect(handled.has(code), `${m}: status ${code}`).toBe(true);
    }
  });

  it("mars: the option and info layouts are the same in C++, AssemblyScript and TypeScript", () => {
    const c = native("mars");
    const key = (s: string) => s.toLowerCase().replace(/_/g, "");
    const nativeOpts = [...c]
      .filter(([k]) => k.startsWith("MO_") && k !== "MO_COUNT")
      .sort((x, y) => x[1] - y[1])
      .map(([k]) => key(k.slice(3)));
    expect(nativeOpts).toEqual(MARS_OPTION_FIELDS.map(key));
    expect(c.get("MO_COUNT")).toBe(MARS_OPTION_FIELDS.length);
    const nativeInfo = [...c]
      .filter(([k]) => k.startsWith("MI_") && k !== "MI_COUNT")
      .sort((x, y) => x[1] - y[1])
      .map(([k]) => key(k.slice(3)));
    expect(nativeInfo).toEqual(MARS_INFO_FIELDS.map(key));
    expect(c.get("MI_COUNT")).toBe(MARS_INFO_FIELDS.length);
    // wasm reads option i at byte offset 8·i: `o.<field> = … load<f64>(opts + 8i)`.
    const src = read("wasm", "mars.ts");
    const wasmOpts = [...src.matchAll(/o\.(\w+) = [^;]*load<f64>\(opts(?: \+ (\d+))?\)/g)].map((m) => [key(m[1]), Number(m[2] ?? 0) / 8] as const);
    expect(wasmOpts).toEqual(MARS_OPTION_FIELDS.map((f, i) => [key(f), i]));
    const wasmInfo = [...src.matchAll(/store<f64>\(info(?: \+ (\d+))?,/g)].map((m) => Number(m[1] ?? 0) / 8);
    expect(wasmInfo).toEqual(MARS_INFO_FIELDS.map((_, i) => i));
  });

  it("every spec declares its buffer lengths", async () => {
    for (const m of modules) {
      const specs = Object.values(await import(`../../ts/backend/kernels/${m}.ts`)).filter(
        (v): v is { name: string; args: { kind: string }[]; lengths?: unknown } => typeof v === "object" && v !== null && "args" in v && "module" in v,
      );
      expect(specs.length, m).toBeGreaterThan(0);
      for (const s of specs) if (s.args.some((a) => a.kind !== "int" && a.kind !== "num")) expect(typeof s.lengths, s.name).toBe("function");
    }
  });
});
