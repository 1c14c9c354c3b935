// Rendering: a Vega-Lite spec → Vega → SVG text, headlessly (no DOM, no canvas); SVG → PNG with resvg, using the
// system's fonts. Nothing here touches the network: every plot carries its data inline, and the Vega loader is
// replaced by one that refuses to load anything.
import { compile, type TopLevelSpec } from "vega-lite";
import { parse, View, type Loader } from "vega";
import { Resvg } from "@resvg/resvg-js";
import { VarmapError } from "../errors.js";

export type { TopLevelSpec };

/** The font every figure uses: Debian's fonts-dejavu-core; resvg and browsers fall back to sans-serif. */
export const FONT = "DejaVu Sans";

/** The look shared by every figure (legible on a laptop and in print: dark text, light grid, no background). */
export const THEME = {
  font: FONT,
  background: "white",
  padding: 8,
  view: { stroke: "#ccc" },
  axis: { labelFontSize: 11, titleFontSize: 12, gridColor: "#e6e6e6", labelColor: "#222", titleColor: "#222" },
  legend: { labelFontSize: 11, titleFontSize: 12, labelLimit: 260 },
  header: { labelFontSize: 12, titleFontSize: 12 },
  title: { fontSize: 14, anchor: "start" as const, color: "#111", subtitleColor: "#444", subtitleFontSize: 11 },
};

/** A loader that refuses every request: figures are rendered from inline data only. */
const offlineLoader = {
  load: () => Promise.reject(new Error("varmap figures use inline data only (no network, no files)")),
  sanitize: () => Promise.reject(new Error("varmap figures use inline data only (no network, no files)")),
  http: () => Promise.reject(new Error("no network at render time")),
  file: () => Promise.reject(new Error("no files at render time")),
} as unknown as Loader;

export interface RenderResult {
  svg: string;
  /** Warnings from Vega-Lite's compiler and Vega's runtime (a correct figure has none). */
  warnings: string[];
}

/** Collects warnings and errors instead of printing them. */
function collector(sink: string[]) {
  let level = 2;
  const self = {
    level(l?: number) {
      if (l === undefined) return level;
      level = l;
      return self;
    },
    error(...a: unknown[]) {
      sink.push(`error: ${a.map(String).join(" ")}`);
      return self;
    },
    warn(...a: unknown[]) {
      sink.push(a.map(String).join(" "));
      return self;
    },
    info() {
      return self;
    },
    debug() {
      return self;
    },
  };
  return self;
}

/** The spec with varmap's theme merged under its own config. */
export function themed(spec: TopLevelSpec): TopLevelSpec {
  const own = (spec as { config?: Record<string, unknown> }).config ?? {};
  return { ...spec, config: { ...THEME, ...own } } as TopLevelSpec;
}

/** SVG text of a Vega-Lite spec, and any warnings. */
export async function renderSvg(spec: TopLevelSpec): Promise<RenderResult> {
  const warnings: string[] = [];
  const logger = collector(warnings);
  let vg: ReturnType<typeof compile>["spec"];
  try {
    vg = compile(themed(spec), { logger: logger as never }).spec;
  } catch (e) {
    throw new Error(`internal: the Vega-Lite spec does not compile: ${(e as Error).message}`);
  }
  const view = new View(parse(vg), { renderer: "none", loader: offlineLoader, logger: logger as never });
  try {
    const svg = await view.toSVG();
    return { svg, warnings };
  } finally {
    view.finalize();
  }
}

export interface PngOptions {
  /** Output width in pixels (height follows the figure's aspect ratio); default: scale × the SVG's width. */
  width?: number;
  /** Pixels per SVG unit when no width is given (2 = crisp on high-density screens and in print). */
  scale?: number;
}

/** PNG bytes of an SVG, with the system fonts (font family FONT). */
export function svgToPng(svg: string, opts: PngOptions = {}): Buffer {
  if (opts.width !== undefined && !(Number.isInteger(opts.width) && opts.width >= 16 && opts.width <= 20000))
    throw new VarmapError("E_USAGE", `--width ${opts.width} is not a pixel width from 16 to 20000`, { remedy: "e.g. --width 1200" });
  const fitTo = opts.width !== undefined ? { mode: "width" as const, value: opts.width } : { mode: "zoom" as const, value: opts.scale ?? 2 };
  const r = new Resvg(svg, { background: "white", fitTo, font: { loadSystemFonts: true, defaultFontFamily: FONT, sansSerifFamily: FONT } });
  return r.render().asPng();
}

/** Width and height of a PNG from its header. */
export function pngSize(png: Uint8Array): { width: number; height: number } {
  const dv = new DataView(png.buffer, png.byteOffset, png.byteLength);
  return { width: dv.getUint32(16), height: dv.getUint32(20) };
}
