// Writing one figure: by the extension of --out, the Vega-Lite spec itself (.vl.json, for users to edit), SVG,
// PNG or a small self-contained HTML page. Atomic (temp file + rename), so a failed render leaves nothing behind.
import { VarmapError } from "../errors.js";
import { writeAtomic } from "../data/write.js";
import { writeFileAll } from "../data/io.js";
import { renderSvg, svgToPng, themed, type PngOptions, type TopLevelSpec } from "./render.js";
import { escapeHtml } from "./html.js";

export type FigureFormat = "vl.json" | "svg" | "png" | "html";

/** The format --out names; checked before any data is read. */
export function figureFormat(path: string): FigureFormat {
  if (/\.vl\.json$/i.test(path)) return "vl.json";
  const m = /\.(svg|png|html)$/i.exec(path);
  if (!m) throw new VarmapError("E_USAGE", `--out '${path}' must end in .svg, .png, .html or .vl.json`, { remedy: "e.g. --out fig.svg" });
  return m[1].toLowerCase() as FigureFormat;
}

/** The bytes of a figure in a format, and the render's warnings. */
export async function figureBytes(spec: TopLevelSpec, format: FigureFormat, png: PngOptions = {}): Promise<{ data: string | Buffer; warnings: string[] }> {
  if (format === "vl.json") return { data: JSON.stringify(themed(spec), null, 2) + "\n", warnings: [] };
  const { svg, warnings } = await renderSvg(spec);
  if (format === "svg") return { data: svg, warnings };
  if (format === "png") return { data: svgToPng(svg, png), warnings };
  const title = typeof spec.title === "string" ? spec.title : ((spec.title as { text?: string } | undefined)?.text ?? "varmap figure");
  const html = `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(String(title))}</title>\n<style>body{margin:16px;font-family:"DejaVu Sans",sans-serif}svg{max-width:100%;height:auto}</style></head>\n<body><figure>${svg}</figure></body></html>\n`;
  return { data: html, warnings };
}

export async function writeFigure(spec: TopLevelSpec, path: string, png: PngOptions = {}): Promise<string[]> {
  const { data, warnings } = await figureBytes(spec, figureFormat(path), png);
  await writeAtomic(path, (tmp) => writeFileAll(tmp, data)); // every byte, or E_DISK_FULL
  return warnings;
}
