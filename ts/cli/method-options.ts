// Method choice and hyperparameter flags shared by `fit`, `cv` (and the pool's verbs), built from the predictor
// registry (ts/predict/registry.ts): a predictor declares its flags there and nothing in the CLI changes.
import { Option, type Command } from "commander";
import { VarmapError } from "../errors.js";
import { METHOD_NAMES, PREDICTORS } from "../predict/registry.js";

export interface MethodFlag {
  /** Commander flag, e.g. "--degree <n>". */
  flag: string;
  description: string;
  /** The methods it applies to. */
  methods: string[];
  /** The predictor option it sets. */
  option: string;
  parse: (value: string, flag: string) => unknown;
}

/** Hyperparameter flags of every predictor in the registry; a flag several predictors declare is listed once. */
export const METHOD_FLAGS: MethodFlag[] = [];
for (const p of PREDICTORS)
  for (const f of p.flags) {
    const same = METHOD_FLAGS.find((m) => m.flag === f.flag);
    if (same) same.methods.push(p.name);
    else METHOD_FLAGS.push({ ...f, description: `${p.name}: ${f.description}`, methods: [p.name] });
  }

/** `defaultMethod` undefined: no commander default (the verb fills it in, e.g. fit's --paper). */
export function addMethodOptions(cmd: Command, defaultMethod?: string, help = "predictor"): Command {
  const option = new Option("--method <name>", help).choices(METHOD_NAMES);
  cmd.addOption(defaultMethod === undefined ? option : option.default(defaultMethod));
  for (const f of METHOD_FLAGS) cmd.option(f.flag, f.description);
  return cmd;
}

/** Commander's camel-case key of a flag ("--max-extrapolation <x>" → "maxExtrapolation"). */
function keyOf(flag: string): string {
  return flag
    .replace(/^--/, "")
    .split(" ")[0]
    .replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** The predictor options the flags set for `method`; a flag given for another method is a usage error. */
export function methodOptionsFromCli(opts: Record<string, unknown>, method: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of METHOD_FLAGS) {
    const v = opts[keyOf(f.flag)];
    if (v === undefined) continue;
    const name = f.flag.split(" ")[0];
    if (!f.methods.includes(method))
      throw new VarmapError("E_USAGE", `${name} applies to ${f.methods.join(", ")}, not to --method ${method}`, {
        remedy: `drop ${name} or choose --method ${f.methods[0]}`,
      });
    out[f.option] = f.parse(String(v), name);
  }
  return out;
}
