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
 * The default set's costly methods, each with the most fits of it a run may make before it is dropped from the default
 * set, with a note (asked for by name with --methods they always run). gp and hybrid: 4,000 (issue 46,
 * docs/studies/gp-speed.md: 0.14 / 0.16 s CPU per fit on the synthetic MOANA maps of about 810 configurations after the
 * screened search, so 4,000 fits cost about the 11 CPU-minutes the 1,000-fit rule allowed at 0.66 s per fit; a one-map
 * default cv, 9 p x 200 = 1,800 fits, keeps them). rbf: 1,000, as before. The synthetic Table-2 workload (210,600
 * fits per method) still drops all three: about 8 CPU-hours of gp alone.
 */
export const HEAVY_DEFAULT_FITS: Readonly<Record<string, number>> = { gp: 4000, hybrid: 4000, rbf: 1000 };
export const HEAVY_METHODS = Object.keys(HEAVY_DEFAULT_FITS);

/** 4000 -> "4,000": the help text is built at start-up, where toLocaleString's first call costs ~8 ms (ICU). */
const thousands = (n: number): string => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");

const limitsHelp = (): string =>
  Object.entries(Object.entries(HEAVY_DEFAULT_FITS).reduce<Record<string, string[]>>((acc, [m, n]) => ((acc[thousands(n)] ??= []).push(m), acc), {}))
    .map(([n, ms]) => `${ms.join(" and ")} above ${n}`)
    .join(", ");

export const DEFAULTS_HELP =
  "defaults: the best settings on the real data (--log-inputs auto --log-response auto, " +
  `--methods ${BEST_METHODS}, without the costly ones when a run fits each method more than this many times: ${limitsHelp()}); --paper: the papers' setup (--methods ${PAPER_METHODS}, fit --method ${PAPER_METHOD}, --log-inputs none --log-response none; refit's mixtures --families all --prior-strength 0 --guard off)`;

/** The method list to run: the default set (`byDefault`: no methods asked for, no --paper) lightened for a large run (and why), else as given. */
export function lightenDefaultMethods(byDefault: boolean, methods: string[], fits: number): { methods: string[]; note?: string } {
  if (!byDefault) return { methods };
  const over = (m: string): boolean => HEAVY_DEFAULT_FITS[m] !== undefined && fits > HEAVY_DEFAULT_FITS[m];
  const dropped = methods.filter(over);
  if (!dropped.length) return { methods };
  const limits = dropped.map((m) => `${thousands(HEAVY_DEFAULT_FITS[m])} for ${m}`).join(", ");
  return {
    methods: methods.filter((m) => !over(m)),
    note:
      `the default methods without ${dropped.join(" and ")}: this run fits each method ${thousands(fits)} times ` +
      `(more than ${limits}) and ${dropped.join("/")} take a tenth of a second to seconds per fit; ask for them with --methods ${methods.join(",")}`,
  };
}
