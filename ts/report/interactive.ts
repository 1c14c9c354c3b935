// The explorable report (issue 45 item 5): every figure carries its compiled Vega spec beside its static SVG, and
// the page inlines the Vega runtime, which replaces each SVG by a live view: tooltips naming the configuration
// under the pointer, zoom and pan (scale-bound interval selections) on scatter plots and heat maps, and, on a map's
// heat map, a click on a configuration shows its runs' histogram with the fitted mixture beside it. Nothing is
// fetched: the data are inline and the runtime is in the page. With scripts off the static SVGs stay.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { compile } from "vega-lite";
import type { Mixture } from "../mixture/model.js";
import { themed, type TopLevelSpec } from "./render.js";
import { fdBins } from "./plots/histogram.js";
import { NUMBER_LABEL } from "./units.js";

let runtime: string | undefined;

/** The minified Vega runtime (vega/build/vega.min.js of the installed vega), for inlining. */
export function vegaRuntime(): string {
  if (runtime === undefined) {
    const entry = createRequire(import.meta.url).resolve("vega");
    runtime = readFileSync(join(dirname(entry), "vega.min.js"), "utf8");
  }
  return runtime;
}

/** The Vega spec of a Vega-Lite spec (themed), as JSON safe inside a <script> element. */
export function vegaJson(spec: TopLevelSpec): string {
  const vg = compile(themed(spec), { logger: quiet as never }).spec;
  return JSON.stringify(vg).replace(/</g, "\\u003c");
}

const quiet = {
  level() {
    return quiet;
  },
  warn() {
    return quiet;
  },
  info() {
    return quiet;
  },
  debug() {
    return quiet;
  },
  error() {
    return quiet;
  },
};

/**
 * The page's script: a live Vega view per figure, a tooltip element that shows the hovered item's fields as a table,
 * `window.varmapReady` (a promise, and `window.__varmapReady = true` once every view has rendered).
 */
export const BOOT_JS = `(function () {
  "use strict";
  var tip = document.createElement("div");
  tip.id = "vm-tooltip";
  tip.setAttribute("role", "tooltip");
  document.body.appendChild(tip);
  function esc(s) { return String(s).replace(/[&<>"]/g, function (c) { return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]; }); }
  function show(handler, event, item, value) {
    if (value == null || value === "") { tip.style.display = "none"; return; }
    var rows = typeof value === "object"
      ? Object.keys(value).map(function (k) { return "<tr><th>" + esc(k) + "</th><td>" + esc(value[k]) + "</td></tr>"; }).join("")
      : "<tr><td>" + esc(value) + "</td></tr>";
    tip.innerHTML = "<table>" + rows + "</table>";
    tip.style.display = "block";
    var x = event.pageX + 14, y = event.pageY + 14;
    if (x + tip.offsetWidth > window.scrollX + document.documentElement.clientWidth) x = event.pageX - tip.offsetWidth - 14;
    tip.style.left = x + "px";
    tip.style.top = y + "px";
  }
  // Figures go live one after another, each in its own task: the page shows its static SVGs at once and stays
  // responsive while the views are built. A live view replaces its static SVG (removed, not hidden: the two share
  // gradient and clip-path ids, and a hidden duplicate would capture them).
  var figs = Array.prototype.slice.call(document.querySelectorAll("figure[data-vega]"));
  function upgrade(fig) {
    var node = fig.querySelector("script.vega-spec"), live = fig.querySelector(".vega-live");
    if (!node || !live || typeof vega === "undefined") return Promise.resolve();
    try {
      var view = new vega.View(vega.parse(JSON.parse(node.textContent)), { renderer: "svg", container: live, hover: true });
      view.tooltip(show);
      return view.runAsync().then(function () {
        var st = fig.querySelector(".static");
        if (st) st.remove();
        fig.classList.add("live");
        fig.vegaView = view;
      });
    } catch (e) { console.error("varmap: figure " + fig.id + ": " + e); return Promise.resolve(); }
  }
  window.varmapReady = figs.reduce(function (p, fig) {
    return p.then(function () { return new Promise(function (r) { setTimeout(r, 0); }); }).then(function () { return upgrade(fig); });
  }, Promise.resolve()).then(function () { window.__varmapReady = true; });
})();`;

/** CSS of the live views and the tooltip. */
export const LIVE_CSS = `
figure .vega-live:empty{display:none}
figure.live>.static{display:none}
figure .vega-live svg{max-width:none}
#vm-tooltip{position:absolute;display:none;z-index:10;background:#fff;border:1px solid #888;box-shadow:0 2px 6px rgba(0,0,0,.2);padding:.3em .5em;font-size:12px;pointer-events:none;max-width:420px}
#vm-tooltip table{margin:0;font-size:12px}
#vm-tooltip th,#vm-tooltip td{border:none;padding:0 .4em;text-align:left;background:none}
`;

export interface ConfigRunsFit {
  /** The configuration's id in the figure's data (field `cfg`). */
  cfg: string;
  label: string;
  runs: ArrayLike<number>;
  fit?: { mixture: Mixture; label: string };
}

const round = (x: number) => Number(x.toPrecision(4));

/**
 * Rows of every configuration's histogram (FD bins: k "b", from a to b, n runs), fitted density (k "d", 40 points
 * over the runs' range: x a, height n in runs per bin) and label (k "l"), keyed by `cfg`. Short field names: a map's
 * 10² configurations' rows are most of a report's bytes.
 */
export function histogramRows(configs: readonly ConfigRunsFit[]): Record<string, string | number>[] {
  const rows: Record<string, string | number>[] = [];
  for (const c of configs) {
    if (!c.runs.length) continue;
    const b = fdBins(c.runs);
    b.counts.forEach((n, i) => rows.push({ cfg: c.cfg, k: "b", a: round(b.lo + i * b.width), b: round(b.lo + (i + 1) * b.width), n }));
    rows.push({ cfg: c.cfg, k: "l", t: `${c.label}${c.fit ? ` (red: ${c.fit.label})` : ""}; ${c.runs.length} runs` });
    if (c.fit) {
      const hi = b.lo + b.counts.length * b.width;
      for (let i = 0; i <= 40; i++) {
        const x = b.lo + ((hi - b.lo) * i) / 40;
        const y = c.runs.length * b.width * c.fit.mixture.pdf(x);
        rows.push({ cfg: c.cfg, k: "d", a: round(x), n: Number.isFinite(y) ? round(y) : 0 });
      }
    }
  }
  return rows;
}

/**
 * A heat map (a single-view Vega-Lite spec whose data rows carry `cfg`) with, beside it, the histogram of the clicked
 * configuration's runs and its fitted mixture (a point selection on `cfg`, first set to `initial`).
 */
export function withClickHistogram(heat: TopLevelSpec, configs: readonly ConfigRunsFit[], initial: string, xTitle: string): TopLevelSpec {
  const h = heat as unknown as Record<string, unknown>;
  const { $schema, title, data, config, ...panel } = h;
  const params = [
    ...((panel.params as unknown[]) ?? []),
    { name: "pick", select: { type: "point", fields: ["cfg"], on: "click", clear: "dblclick" }, value: [{ cfg: initial }] },
  ];
  const hist = {
    width: 300,
    height: 200,
    title: { text: "Runs of the clicked configuration", fontSize: 12, offset: 30 },
    data: { values: histogramRows(configs) },
    transform: [{ filter: { param: "pick", empty: false } }],
    layer: [
      {
        transform: [{ filter: "datum.k === 'b'" }],
        mark: { type: "rect", color: "#9bb7d4", stroke: "#4a6f96", strokeWidth: 0.5 },
        encoding: {
          x: { field: "a", type: "quantitative", title: xTitle, scale: { zero: false, nice: false }, axis: { labelExpr: NUMBER_LABEL, labelOverlap: true } },
          x2: { field: "b" },
          y: { field: "n", type: "quantitative", title: "runs per bin" },
          y2: { datum: 0 },
          tooltip: [
            { field: "a", title: "from", format: ".4~g" },
            { field: "b", title: "to", format: ".4~g" },
            { field: "n", title: "runs" },
          ],
        },
      },
      {
        transform: [{ filter: "datum.k === 'd'" }],
        mark: { type: "line", color: "#c0392b", strokeWidth: 1.8 },
        encoding: { x: { field: "a", type: "quantitative" }, y: { field: "n", type: "quantitative" } },
      },
      {
        transform: [{ filter: "datum.k === 'l'" }],
        mark: { type: "text", align: "left", baseline: "bottom", fontSize: 10, color: "#333", limit: 300, lineBreak: "; " },
        encoding: { text: { field: "t" }, x: { value: 0 }, y: { value: -17 } },
      },
    ],
  };
  return {
    $schema,
    title,
    ...(config ? { config } : {}),
    hconcat: [{ data, ...panel, params }, hist],
    spacing: 30,
  } as unknown as TopLevelSpec;
}
