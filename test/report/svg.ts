// Reading rendered figures back: marks of a kind in a Vega SVG, and Vega-Lite schema validation.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { packageRoot } from "../../ts/package-root.js";
import { Ajv } from "ajv";

/** Number of SVG items (paths, texts, lines) Vega drew for marks of `type` (rect, symbol, line, text, …). */
export function markCount(svg: string, type: string): number {
  let n = 0;
  const re = new RegExp(`<g class="mark-${type} role-mark[^"]*"[^>]*>(.*?)</g>`, "gs");
  for (const m of svg.matchAll(re)) n += (m[1].match(/<(path|text|line)\b/g) ?? []).length;
  return n;
}

/** The texts of a figure's legend labels and titles. */
export function texts(svg: string): string[] {
  return [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1].replace(/&amp;/g, "&").replace(/&lt;/g, "<").replace(/&gt;/g, ">"));
}

let validator: (((spec: unknown) => boolean) & { errors?: unknown }) | undefined;

/** Validates a spec against the installed Vega-Lite's JSON schema; returns the errors (empty when valid). */
export function schemaErrors(spec: unknown): unknown[] {
  if (!validator) {
    const schema = JSON.parse(readFileSync(join(packageRoot(), "node_modules", "vega-lite", "build", "vega-lite-schema.json"), "utf8"));
    validator = new Ajv({ allErrors: false, strict: false }).compile(schema);
  }
  return validator(spec) ? [] : ((validator.errors as unknown[]) ?? ["invalid"]);
}
