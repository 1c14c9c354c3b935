// The defaults of `fit`, `cv` and `refit` (issue 16, item 5): the settings that predict best on the real data
// (the fread map of ../shared, golden splits: gp with log2 inputs and a log response), and the source papers' setup
// (lsp/lr on the raw scales) one flag away, `--paper`, so every published figure stays reproducible.
//
// Best:  --methods lr,lsp,delaunay,mars,rbf,gp (refit, cv)  --method gp (fit; delaunay for a map above gp's 3,000
//        configurations)  --log-inputs auto  --log-response auto
// Paper: --methods lr,lsp (refit, cv)  --method lsp (fit)  --log-inputs none  --log-response none
// A flag given explicitly always wins over either preset.
/** Every model of the registry, gp included (the baselines are asked for by name). */
export const BEST_METHODS = "lr,lsp,delaunay,mars,rbf,gp";
export const BEST_METHOD = "gp";
/** fit's default for a map above gp's size limit (GP_MAX_POINTS): the best of the methods without one on the real data at p ≥ 0.5. */
export const LARGE_MAP_METHOD = "delaunay";
export const PAPER_METHODS = "lr,lsp";
export const PAPER_METHOD = "lsp";

export const DEFAULTS_HELP =
  "defaults: the best settings on the real data (--log-inputs auto --log-response auto, " +
  `--methods ${BEST_METHODS}); --paper: the papers' setup (--methods ${PAPER_METHODS}, fit --method ${PAPER_METHOD}, --log-inputs none --log-response none)`;

/** The options with the verb's defaults filled in (`verb` fit takes one --method, cv and refit --methods). */
export function withDefaults<T extends Record<string, unknown>>(opts: T, verb: "fit" | "cv" | "refit"): T {
  const paper = Boolean(opts.paper);
  const out: Record<string, unknown> = { ...opts };
  if (out.logInputs === undefined) out.logInputs = paper ? "none" : "auto";
  if (out.logResponse === undefined) out.logResponse = paper ? "none" : "auto";
  if (verb === "fit") out.method ??= paper ? PAPER_METHOD : BEST_METHOD;
  else if (out.methods === undefined && out.method === undefined) out.methods = paper ? PAPER_METHODS : BEST_METHODS;
  return out as T;
}
