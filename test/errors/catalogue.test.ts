// The error catalogue is complete (every "E_…" code raised in ts/ is listed, every listed code is raised) and
// docs/errors.md is the catalogue's current rendering.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ERROR_CATALOGUE, renderErrorsMarkdown } from "../../ts/errors/catalogue.js";
import { packageRoot } from "../../ts/package-root.js";
import { VarmapError } from "../../ts/errors.js";

const root = packageRoot();

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? tsFiles(join(dir, d.name)) : d.name.endsWith(".ts") ? [join(dir, d.name)] : [],
  );
}

/** Every quoted "E_…" literal in ts/, except the catalogue itself, with the files that use it. */
function codesUsed(): Map<string, string[]> {
  const used = new Map<string, string[]>();
  for (const f of tsFiles(join(root, "ts"))) {
    if (f.endsWith(join("errors", "catalogue.ts"))) continue;
    for (const m of readFileSync(f, "utf8").matchAll(/["'`](E_[A-Z0-9_]+)["'`]/g)) used.set(m[1], [...(used.get(m[1]) ?? []), f.slice(root.length + 1)]);
  }
  return used;
}

describe("error catalogue", () => {
  const listed = new Set<string>(ERROR_CATALOGUE.map((e) => e.code));

  it("lists each code once, with a meaning and a remedy", () => {
    expect(listed.size).toBe(ERROR_CATALOGUE.length);
    for (const e of ERROR_CATALOGUE) {
      expect(e.code).toMatch(/^E_[A-Z0-9_]+$/);
      expect(e.meaning.length, e.code).toBeGreaterThan(10);
      expect(e.remedy.length, e.code).toBeGreaterThan(5);
    }
  });

  it("lists every code ts/ raises, and raises every code it lists", () => {
    const used = codesUsed();
    const missing = [...used].filter(([c]) => !listed.has(c)).map(([c, files]) => `${c} (${files.join(", ")})`);
    expect(missing, "add these codes to ts/errors/catalogue.ts, then run `npm run docs:errors`").toEqual([]);
    const stale = [...listed].filter((c) => !used.has(c));
    expect(stale, "these catalogued codes are no longer raised anywhere in ts/").toEqual([]);
  });

  it("docs/errors.md is up to date (regenerate with `npm run docs:errors`)", () => {
    expect(readFileSync(join(root, "docs", "errors.md"), "utf8")).toBe(renderErrorsMarkdown());
  });
});

describe("error codes are a union the compiler checks", () => {
  it("a code outside the catalogue does not type-check", () => {
    // @ts-expect-error E_NOT_A_CODE is not in ts/errors/catalogue.ts (npm run typecheck fails if this compiles)
    const e = new VarmapError("E_NOT_A_CODE", "x");
    expect(e.code).toBe("E_NOT_A_CODE");
  });
});
