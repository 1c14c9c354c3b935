// How much of a rendered figure is empty: the share of 8 × 8 tiles of the PNG with no ink (every pixel near white).
// Issue 44 item 5: the GEV, sample-size and KS PNGs were 30–45 % blank (a title or legend wider than the plots).
import { Resvg } from "@resvg/resvg-js";
import { FONT } from "../../ts/report/render.js";

export function blankShare(svg: string, tiles = 8): number {
  const img = new Resvg(svg, { background: "white", fitTo: { mode: "zoom", value: 1 }, font: { loadSystemFonts: true, defaultFontFamily: FONT } }).render();
  const { width, height } = img;
  const px = img.pixels;
  const ink = new Uint8Array(tiles * tiles);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = 4 * (y * width + x);
      if (px[i] < 235 || px[i + 1] < 235 || px[i + 2] < 235)
        ink[Math.min(tiles - 1, Math.floor((y * tiles) / height)) * tiles + Math.min(tiles - 1, Math.floor((x * tiles) / width))] = 1;
    }
  return 1 - ink.reduce((s, v) => s + v, 0) / (tiles * tiles);
}
