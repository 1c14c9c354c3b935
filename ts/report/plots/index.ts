// Every plot kind, in the order `varmap plot --help` lists them. Adding a kind = one file in this folder and
// one line here.
import type { PlotKind } from "./types.js";
import { plot as heatmap } from "./heatmap.js";
import { plot as predictedVsMeasured } from "./predicted-vs-measured.js";
import { plot as are } from "./are.js";
import { plot as histogram } from "./histogram.js";
import { plot as probability } from "./probability.js";
import { plot as bestCounts } from "./best-counts.js";
import { plot as gev } from "./gev.js";
import { plot as whatif } from "./whatif.js";
import { plot as interference } from "./interference.js";
import { plot as convergence } from "./convergence.js";
import { plot as samplesize } from "./samplesize.js";
import { plot as ks } from "./ks.js";
import { plot as effects } from "./effects.js";
import { plot as lines } from "./lines.js";
import { plot as box } from "./box.js";
import { plot as design } from "./design.js";
import { plot as mixtureSample } from "./mixture-sample.js";
import { plot as plan } from "./plan.js";

export const PLOT_KINDS: PlotKind[] = [
  heatmap,
  predictedVsMeasured,
  are,
  histogram,
  probability,
  bestCounts,
  gev,
  whatif,
  interference,
  convergence,
  samplesize,
  ks,
  effects,
  lines,
  box,
  design,
  mixtureSample,
  plan,
];

export function plotKind(name: string): PlotKind | undefined {
  return PLOT_KINDS.find((k) => k.kind === name);
}
