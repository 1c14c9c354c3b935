// Method choice and hyperparameter flags shared by `fit`, `cv` (and the pool's verbs). Each method's flags are
// declared once below; a predictor's issue adds its rows here and nothing else in the CLI changes.
import { Option, type Command } from "commander";
import { VarmapError } from "../errors.js";
import { METHOD_NAMES } from "../predict/registry.js";

interface MethodFlag {
  /** Commander flag, e.g. "--degree <n>". */
  flag: string;
  description: string;
  /** The methods it applies to. */
  methods: string[];
  /** The predictor option it sets. */
  option: string;
  parse: (value: string, flag: string) => unknown;
}

function positiveInt(v: string, flag: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new VarmapError("E_USAGE", `${flag} ${v} is not a positive integer`, { remedy: `e.g. ${flag} 2` });
  return n;
}

function nonNegative(v: string, flag: string): number {
  const x = Number(v);
  if (!Number.isFinite(x) || x < 0) throw new VarmapError("E_USAGE", `${flag} ${v} is not a non-negative number`, { remedy: `e.g. ${flag} 0.1` });
  return x;
}

function anyInt(v: string, flag: string): number {
  const n = Number(v);
  if (!Number.isInteger(n)) throw new VarmapError("E_USAGE", `${flag} ${v} is not an integer`, { remedy: `e.g. ${flag} 0` });
  return n;
}

function nonNegativeInt(v: string, flag: string): number {
  const n = anyInt(v, flag);
  if (n < 0) throw new VarmapError("E_USAGE", `${flag} ${v} is negative`, { remedy: `e.g. ${flag} 0` });
  return n;
}

function atLeastMinusOne(v: string, flag: string): number {
  const x = Number(v);
  if (!Number.isFinite(x) || x < -1) throw new VarmapError("E_USAGE", `${flag} ${v} is not a number ≥ -1`, { remedy: `e.g. ${flag} 3` });
  return x;
}

function rbfKernel(v: string, flag: string): string {
  if (v === "tps" || v === "cubic") return v;
  throw new VarmapError("E_USAGE", `${flag} ${v} is neither tps nor cubic`, { remedy: `e.g. ${flag} tps` });
}

function gcvOrNonNegative(v: string, flag: string): "gcv" | number {
  return v === "gcv" ? "gcv" : nonNegative(v, flag);
}

function atLeastTwo(v: string, flag: string): number {
  const n = positiveInt(v, flag);
  if (n < 2) throw new VarmapError("E_USAGE", `${flag} ${v} is below 2`, { remedy: `e.g. ${flag} 40` });
  return n;
}

function yesNo(v: string, flag: string): boolean {
  const s = v.toLowerCase();
  if (["yes", "true", "1"].includes(s)) return true;
  if (["no", "false", "0"].includes(s)) return false;
  throw new VarmapError("E_USAGE", `${flag} ${v} is neither yes nor no`, { remedy: `e.g. ${flag} no` });
}

/** Hyperparameter flags by method (lr and lsp have none: they reproduce R lm and SHEPPACK as they are). */
export const METHOD_FLAGS: MethodFlag[] = [
  { flag: "--degree <n>", description: "mars: maximum interaction degree", methods: ["mars"], option: "degree", parse: positiveInt },
  { flag: "--nk <n>", description: "mars: maximum number of terms in the forward pass", methods: ["mars"], option: "nk", parse: positiveInt },
  { flag: "--thresh <x>", description: "mars: forward pass stops when R² improves by less than this (default 0.001)", methods: ["mars"], option: "thresh", parse: nonNegative },
  { flag: "--penalty <x>", description: "mars: GCV cost per knot (default 2 for degree 1, 3 otherwise; -1 = free)", methods: ["mars"], option: "penalty", parse: atLeastMinusOne },
  { flag: "--minspan <n>", description: "mars: cases between knots (0 = Friedman's formula; < 0 = number of knots)", methods: ["mars"], option: "minspan", parse: anyInt },
  { flag: "--endspan <n>", description: "mars: cases at each end without knots (0 = Friedman's formula)", methods: ["mars"], option: "endspan", parse: nonNegativeInt },
  { flag: "--fast-k <n>", description: "mars: Fast MARS parent queue length (default 20; 0 = all parents)", methods: ["mars"], option: "fastK", parse: nonNegativeInt },
  { flag: "--fast-beta <x>", description: "mars: Fast MARS ageing coefficient (default 1)", methods: ["mars"], option: "fastBeta", parse: nonNegative },
  { flag: "--newvar-penalty <x>", description: "mars: penalty for a predictor's first entry (default 0)", methods: ["mars"], option: "newvarPenalty", parse: nonNegative },
  { flag: "--auto-linpreds <yes|no>", description: "mars: a best knot at an input's minimum enters as a linear term (default yes)", methods: ["mars"], option: "autoLinpreds", parse: yesNo },
  { flag: "--rbf-kernel <name>", description: "rbf: tps (r² log r, default) or cubic (r³)", methods: ["rbf"], option: "kernel", parse: rbfKernel },
  { flag: "--rbf-smoothing <gcv|x>", description: "rbf: smoothing λ, gcv (default: generalized cross-validation) or a number", methods: ["rbf"], option: "smoothing", parse: gcvOrNonNegative },
  { flag: "--rbf-runs <n>", description: "rbf: fix λ at the sampling variance of a log sd from n runs, 1/(2(n−1)) (needs --log-response)", methods: ["rbf"], option: "runs", parse: atLeastTwo },
  { flag: "--rbf-anisotropic <yes|no>", description: "rbf: also choose one scale per input by GCV (10-20 fits; default no)", methods: ["rbf"], option: "anisotropic", parse: yesNo },
  { flag: "--max-extrapolation <x>", description: "delaunay: largest projection distance (normalized units) accepted outside the hull", methods: ["delaunay"], option: "maxExtrapolation", parse: nonNegative },
];

export function addMethodOptions(cmd: Command, defaultMethod = "lsp"): Command {
  cmd.addOption(new Option("--method <name>", "predictor").choices(METHOD_NAMES).default(defaultMethod));
  for (const f of METHOD_FLAGS) cmd.option(f.flag, f.description);
  return cmd;
}

/** Commander's camel-case key of a flag ("--max-extrapolation <x>" → "maxExtrapolation"). */
function keyOf(flag: string): string {
  return flag.replace(/^--/, "").split(" ")[0].replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** The predictor options the flags set for `method`; a flag given for another method is a usage error. */
export function methodOptionsFromCli(opts: Record<string, unknown>, method: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of METHOD_FLAGS) {
    const v = opts[keyOf(f.flag)];
    if (v === undefined) continue;
    const name = f.flag.split(" ")[0];
    if (!f.methods.includes(method))
      throw new VarmapError("E_USAGE", `${name} applies to ${f.methods.join(", ")}, not to --method ${method}`, { remedy: `drop ${name} or choose --method ${f.methods[0]}` });
    out[f.option] = f.parse(String(v), name);
  }
  return out;
}
