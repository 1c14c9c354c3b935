// The predictors by method name, for the CLI, cross-validation and model files. Adding a predictor is one entry
// here (name, help text, constructor, hyperparameter flags): the CLI's --method choices, its flags and their help,
// the cv/refit method lists and the conformance and parity suites all iterate this list.
import { VarmapError } from "../errors.js";
import type { ModelJSON, Predictor, PredictorOptions } from "./estimator.js";
import type { Matrix } from "./matrix.js";
import {
  anyInt,
  atLeastMinusOne,
  atLeastTwo,
  gcvOrNonNegative,
  gpKernel,
  gpMean,
  gpPoint,
  gpNoise,
  nuggetBound,
  atLeastTen,
  methodList,
  methodName,
  neighbourCount,
  nonNegative,
  nonNegativeInt,
  positiveInt,
  rbfKernel,
  yesNo,
  type HyperparameterFlag,
} from "./hyperparameters.js";
import { LinearRegression } from "./lr.js";
import { LinearShepard } from "./lsp.js";
import { Delaunay } from "./delaunay.js";
import { Mars } from "./mars.js";
import { MeanBaseline } from "./mean.js";
import { Rbf } from "./rbf.js";
import { Gp } from "./gp.js";
import { AutoMethod } from "./auto.js";
import { Hybrid } from "./hybrid.js";

type Factory = (options: PredictorOptions & Record<string, unknown>) => Predictor;

export interface PredictorEntry {
  name: string;
  /** One line for help texts. */
  description: string;
  create: Factory;
  /** Hyperparameter flags (lr and lsp have none: they reproduce R lm and SHEPPACK as they are). */
  flags: readonly HyperparameterFlag[];
  /** The constant baseline: a reference in cv tables, not a model worth fitting by default (demo leaves it out). */
  baseline?: boolean;
  /** Left out of the demo's refit and cv (a dense O(n³) solve per fit would make the one-minute demo several minutes). */
  notInDemo?: boolean;
  /** Left out of the default "every model" lists (MODEL_NAMES): auto repeats the others, gp costs seconds per fit. */
  notDefault?: boolean;
}

export const PREDICTORS: readonly PredictorEntry[] = [
  { name: "lr", description: "linear regression (R lm)", create: (o) => new LinearRegression(o), flags: [] },
  { name: "lsp", description: "linear Shepard interpolation (SHEPPACK LSHEP)", create: (o) => new LinearShepard(o), flags: [] },
  {
    name: "delaunay",
    description: "Delaunay interpolation (DelaunaySparse)",
    create: (o) => new Delaunay(o),
    flags: [
      {
        flag: "--max-extrapolation <x>",
        description: "largest projection distance (normalized units) accepted outside the hull",
        option: "maxExtrapolation",
        parse: nonNegative,
      },
    ],
  },
  {
    name: "mars",
    description: "multivariate adaptive regression splines (R earth)",
    create: (o) => new Mars(o),
    flags: [
      { flag: "--degree <n>", description: "maximum interaction degree", option: "degree", parse: positiveInt },
      { flag: "--nk <n>", description: "maximum number of terms in the forward pass", option: "nk", parse: positiveInt },
      { flag: "--thresh <x>", description: "forward pass stops when R² improves by less than this (default 0.001)", option: "thresh", parse: nonNegative },
      { flag: "--penalty <x>", description: "GCV cost per knot (default 2 for degree 1, 3 otherwise; -1 = free)", option: "penalty", parse: atLeastMinusOne },
      { flag: "--minspan <n>", description: "cases between knots (0 = Friedman's formula; < 0 = number of knots)", option: "minspan", parse: anyInt },
      { flag: "--endspan <n>", description: "cases at each end without knots (0 = Friedman's formula)", option: "endspan", parse: nonNegativeInt },
      { flag: "--fast-k <n>", description: "Fast MARS parent queue length (default 20; 0 = all parents)", option: "fastK", parse: nonNegativeInt },
      { flag: "--fast-beta <x>", description: "Fast MARS ageing coefficient (default 1)", option: "fastBeta", parse: nonNegative },
      { flag: "--newvar-penalty <x>", description: "penalty for a predictor's first entry (default 0)", option: "newvarPenalty", parse: nonNegative },
      {
        flag: "--auto-linpreds <yes|no>",
        description: "a best knot at an input's minimum enters as a linear term (default yes)",
        option: "autoLinpreds",
        parse: yesNo,
      },
    ],
  },
  {
    name: "rbf",
    description: "thin-plate (or cubic) spline with a linear tail, smoothing chosen by GCV",
    create: (o) => new Rbf(o),
    notInDemo: true,
    flags: [
      { flag: "--rbf-kernel <name>", description: "tps (r² log r, default) or cubic (r³)", option: "kernel", parse: rbfKernel },
      {
        flag: "--rbf-smoothing <gcv|x>",
        description: "smoothing λ, gcv (default: generalized cross-validation) or a number",
        option: "smoothing",
        parse: gcvOrNonNegative,
      },
      {
        flag: "--rbf-runs <n>",
        description: "fix λ at the sampling variance of a log sd from n runs, 1/(2(n−1)) (needs --log-response)",
        option: "runs",
        parse: atLeastTwo,
      },
      {
        flag: "--rbf-anisotropic <yes|no>",
        description: "also choose one scale per input by GCV (10-20 fits; default no)",
        option: "anisotropic",
        parse: yesNo,
      },
      {
        flag: "--rbf-local <yes|no>",
        description: "local variant: splines on overlapping patches of 300 points, blended (default: above 4,000 training points)",
        option: "local",
        parse: yesNo,
      },
    ],
  },
  {
    name: "gp",
    description: "Gaussian process (ARD Matérn 3/2, linear mean, nugget; maximum marginal likelihood) with a predictive sd",
    create: (o) => new Gp(o),
    notInDemo: true,
    notDefault: true,
    flags: [
      { flag: "--gp-kernel <name>", description: "matern32 (default), matern52 or sqexp (squared exponential)", option: "kernel", parse: gpKernel },
      {
        flag: "--gp-mean <kind>",
        description: "linear (default), constant or quadratic (also (x − ½)² per input) mean function",
        option: "mean",
        parse: gpMean,
      },
      {
        flag: "--gp-point <are|median>",
        description: "log response: predict exp(m − s²), the expected-ARE minimizer (are, default), or the median exp(m)",
        option: "point",
        parse: gpPoint,
      },
      { flag: "--gp-restarts <n>", description: "optimizer starts (default 4)", option: "restarts", parse: positiveInt },
      { flag: "--gp-nugget-min <x>", description: "smallest nugget relative to the signal variance (default 1e-6)", option: "nuggetMin", parse: nuggetBound },
      {
        flag: "--gp-hyper-points <n>",
        description: "largest subset the hyperparameter search runs on (default 300; the final solve uses all points)",
        option: "hyperPoints",
        parse: atLeastTen,
      },
      {
        flag: "--gp-screen-points <n>",
        description:
          "when the search set has at least twice this many points, every optimizer start runs on a subset of this size first and only the best are refined on the search set (default 100)",
        option: "screenPoints",
        parse: atLeastTen,
      },
      {
        flag: "--gp-noise <measured|none>",
        description:
          "per-point noise σ²(g + τ v_i) from each configuration's measured sampling variance v_i (jackknife over its runs; measured, default when the runs are known) or one nugget for all (none)",
        option: "noise",
        parse: gpNoise,
      },
      {
        flag: "--gp-local <yes|no>",
        description:
          "local variant: each prediction from its 100 nearest training points, by the fitted length scales (default: above 3,000 training points; no refuses them)",
        option: "local",
        parse: yesNo,
      },
      {
        flag: "--gp-neighbours <n>",
        description: "local variant: training points per prediction (default 100; the cost per prediction grows as its cube)",
        option: "neighbours",
        parse: neighbourCount,
      },
    ],
  },
  {
    name: "auto",
    description: "per map, the method of --auto-candidates with the lowest inner cross-validated ARE on the training data",
    create: (o) => new AutoMethod(o),
    notInDemo: true,
    notDefault: true,
    flags: [
      {
        flag: "--auto-candidates <list>",
        description: "methods to choose from (default lr,lsp,delaunay,mars,rbf,hybrid)",
        option: "candidates",
        parse: methodList,
      },
      { flag: "--auto-folds <n>", description: "inner cross-validation folds (default 5)", option: "folds", parse: atLeastTwo },
    ],
  },
  {
    name: "hybrid",
    description: "gp for queries whose combination of settings has measured siblings, mars for combinations never measured (the default of fit; issue 41)",
    create: (o) => new Hybrid(o),
    notInDemo: true,
    notDefault: true,
    flags: [
      { flag: "--hybrid-seen <method>", description: "method for queries with measured siblings (default gp)", option: "seen", parse: methodName },
      { flag: "--hybrid-novel <method>", description: "method for novel combinations (default mars)", option: "novel", parse: methodName },
    ],
  },
  { name: "mean", description: "the constant baseline (the training mean)", create: (o) => new MeanBaseline(o), flags: [], baseline: true },
];

export const METHOD_NAMES = PREDICTORS.map((p) => p.name);
/** The predictors that model the data (every method but the baselines): the default wherever "every predictor" is meant. */
export const MODEL_NAMES = PREDICTORS.filter((p) => !p.baseline && !p.notDefault).map((p) => p.name);
/** The predictors the demo fits and cross-validates. */
export const DEMO_NAMES = PREDICTORS.filter((p) => !p.baseline && !p.notInDemo).map((p) => p.name);

/** "lr, lsp, delaunay, mars (mean = the constant baseline)": the method list for help texts. */
export function describeMethods(): string {
  const models = PREDICTORS.filter((p) => !p.baseline).map((p) => p.name);
  const baselines = PREDICTORS.filter((p) => p.baseline).map((p) => `${p.name} = ${p.description}`);
  return models.join(", ") + (baselines.length ? ` (${baselines.join("; ")})` : "");
}

export function createPredictor(method: string, options: PredictorOptions & Record<string, unknown> = {}): Predictor {
  const entry = PREDICTORS.find((p) => p.name === method);
  if (!entry) throw new VarmapError("E_METHOD", `unknown method '${method}'`, { remedy: `use one of ${METHOD_NAMES.join(", ")}` });
  return entry.create(options);
}

/**
 * A cross-validation fold's model of `method` on (X, y, yVar). With `full`, the method's model fitted on all the rows,
 * a gp keeps its hyperparameters and only re-solves on the fold's rows (Gp.solvedOn: one O(n³) solve instead of a
 * hyperparameter search); every other method is fitted afresh.
 */
export function foldModel(
  method: string,
  options: PredictorOptions & Record<string, unknown>,
  X: Matrix,
  y: Float64Array,
  yVar?: Float64Array,
  full?: Predictor,
): Predictor {
  if (full instanceof Gp) return full.solvedOn(X, y, yVar);
  if (full instanceof Hybrid) return full.foldOn(X, y, yVar);
  return createPredictor(method, options).fit(X, y, yVar);
}

export function predictorFromJSON(json: ModelJSON, options: PredictorOptions = {}): Predictor {
  if (json?.format !== "varmap-model")
    throw new VarmapError("E_MODEL_FORMAT", "not a varmap model", { remedy: "pass the JSON written by toJSON() or `varmap fit`" });
  return createPredictor(json.method, { ...json.options, ...options, inputs: json.inputs, response: json.response }).restore(json);
}
