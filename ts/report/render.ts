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
      const text = a.map(String).join(" ");
      // Interactive figures (zoom and pan) listen to the window; headless rendering has none, and needs none.
      if (/Can not resolve event source: window/.test(text)) return self;
      sink.push(text);
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

/** The width of a (composite) Vega-Lite view in pixels, roughly: what titles are wrapped to. */
export function specWidth(spec: Record<string, unknown>): number {
  const w = (s: unknown): number => {
    if (!s || typeof s !== "object") return 0;
    const o = s as Record<string, unknown>;
    if (typeof o.width === "number") return o.width;
    if (o.facet && o.spec) return w(o.spec) * (typeof o.columns === "number" ? o.columns : 1);
    if (Array.isArray(o.hconcat)) return o.hconcat.reduce((t: number, c) => t + w(c) + 20, 0);
    if (Array.isArray(o.vconcat)) return Math.max(0, ...o.vconcat.map(w));
    if (Array.isArray(o.concat))
      return Math.max(0, ...o.concat.map(w)) * Math.min(o.concat.length, typeof o.columns === "number" ? o.columns : o.concat.length);
    if (Array.isArray(o.layer)) return Math.max(0, ...o.layer.map(w));
    return 0;
  };
  return w(spec) || 400;
}

/** Text broken into lines of at most `chars` characters at spaces (a word longer than that stays whole). */
export function wrapText(text: string, chars: number): string[] {
  const out: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line && line.length + 1 + word.length > chars) out.push(line), (line = word);
    else line = line ? `${line} ${word}` : word;
  }
  if (line) out.push(line);
  return out;
}

/**
 * Titles and subtitles wrapped to the figure's width (issue 44 item 5: a one-line subtitle wider than the plots made
 * PNGs 30–45 % blank): about 8.6 px per character of the 14 px bold title, 6.6 px of the 11 px subtitle.
 */
function wrapTitle(spec: TopLevelSpec): TopLevelSpec {
  const t = (spec as { title?: unknown }).title;
  if (!t) return spec;
  const width = Math.max(260, specWidth(spec as unknown as Record<string, unknown>) + 60);
  const lines = (v: unknown, px: number) => {
    const list = Array.isArray(v) ? v.map(String) : [String(v)];
    return list.flatMap((l) => wrapText(l, Math.floor(width / px)));
  };
  const title = typeof t === "string" ? { text: t } : (t as { text?: unknown; subtitle?: unknown });
  const text = title.text === undefined ? undefined : lines(title.text, 8.6);
  const subtitle = title.subtitle === undefined ? undefined : lines(title.subtitle, 6.6);
  return {
    ...spec,
    title: {
      ...title,
      ...(text ? { text: text.length === 1 ? text[0] : text } : {}),
      ...(subtitle ? { subtitle: subtitle.length === 1 ? subtitle[0] : subtitle } : {}),
    },
  } as TopLevelSpec;
}

/** The spec with varmap's theme merged under its own config, and its title wrapped to its width. */
export function themed(spec: TopLevelSpec): TopLevelSpec {
  const own = (spec as { config?: Record<string, unknown> }).config ?? {};
  return { ...wrapTitle(spec), config: { ...THEME, ...own } } as TopLevelSpec;
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
