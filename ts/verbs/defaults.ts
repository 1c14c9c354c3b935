// The defaults of `fit`, `cv` and `refit` (issue 16, item 5): the settings that predict best on the real data
// (the fread map of ../shared, golden splits: gp with log2 inputs and a log response), and the source papers' setup
// (lsp/lr on the raw scales) one flag away, `--paper`, so every published figure stays reproducible.
//
// Best:  --methods lr,lsp,delaunay,mars,rbf,gp (refit, cv)  --method gp (fit; above 3,000 configurations gp's local
//        variant)  --log-inputs auto  --log-response auto
// Paper: --methods lr,lsp (refit, cv)  --method lsp (fit)  --log-inputs none  --log-response none
//        refit's mixtures: --families all --prior-strength 0 --guard off (issue 17's default otherwise: ts/mixture/select.ts)
// A flag given explicitly always wins over either preset.
/** Every model of the registry, gp included (the baselines are asked for by name). */
// Issue 41: hybrid (gp where the query's combination of settings has measured siblings, mars where it was never
// measured) replaces gp in both: gp's figures on random divisions, mars's on group-out ones (docs/studies/group-out.md).
export const BEST_METHODS = "lr,lsp,delaunay,mars,rbf,hybrid";
export const BEST_METHOD = "hybrid";
export const PAPER_METHODS = "lr,lsp";
export const PAPER_METHOD = "lsp";

/**
 * The default set's costly methods (seconds per fit on a few hundred configurations, against milliseconds for the
 * others): dropped from the default set, with a note, when a run would fit them more than HEAVY_DEFAULT_FITS times
 * (default cv on one map is 9 p x 200 divisions = 1,800 fits: about 1.5 CPU-hours of gp; the synthetic Table-2
 * workload would take days). Asked for by name (--methods) they always run.
 */
export const HEAVY_METHODS = ["gp", "rbf", "hybrid"];
export const HEAVY_DEFAULT_FITS = 1000;

export const DEFAULTS_HELP =
  "defaults: the best settings on the real data (--log-inputs auto --log-response auto, " +
  `--methods ${BEST_METHODS}, without ${HEAVY_METHODS.join(" and ")} when a run fits each method more than ${HEAVY_DEFAULT_FITS.toLocaleString("en")} times); --paper: the papers' setup (--methods ${PAPER_METHODS}, fit --method ${PAPER_METHOD}, --log-inputs none --log-response none; refit's mixtures --families all --prior-strength 0 --guard off)`;

/** The method list to run: the default set (`byDefault`: no methods asked for, no --paper) lightened for a large run (and why), else as given. */
export function lightenDefaultMethods(byDefault: boolean, methods: string[], fits: number): { methods: string[]; note?: string } {
  if (!byDefault || fits <= HEAVY_DEFAULT_FITS) return { methods };
  const kept = methods.filter((m) => !HEAVY_METHODS.includes(m));
  if (kept.length === methods.length) return { methods };
  const dropped = methods.filter((m) => HEAVY_METHODS.includes(m));
  return {
    methods: kept,
    note:
      `the default methods without ${dropped.join(" and ")}: this run fits each method ${fits.toLocaleString("en")} times ` +
      `(more than ${HEAVY_DEFAULT_FITS.toLocaleString("en")}) and ${dropped.join("/")} take seconds per fit; ask for them with --methods ${methods.join(",")}`,
  };
}
