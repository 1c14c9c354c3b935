// The one flag-parsing module: commander's string bag → the typed options of ts/verbs/. Everything below cli/
// takes typed options; the primitives (lists, seeds, workers, shards) live where the library checks them too
// (ts/data/option-values.ts; workers and shards: ts/verbs/common.ts) and are re-exported here for the commands.
import { VarmapError } from "../errors.js";
import type { LoadOptions } from "../data/load.js";
import type { StatName } from "../data/types.js";
import { parseInteger, parseIntegerSeed, parsePositiveInteger, parseSeedText, splitList } from "../data/option-values.js";
import { METHOD_NAMES } from "../predict/registry.js";
import { checkMethods, parseShardOptions, parseWorkers, type RunOptions } from "../verbs/common.js";
import { BEST_METHOD, BEST_METHODS, PAPER_METHOD, PAPER_METHODS } from "../verbs/defaults.js";
import { DEFAULT_SETUP } from "../mixture/select.js";
import { METHOD_FLAGS, methodOptionsFromCli } from "./method-options.js";

export { parseInteger, parseIntegerSeed, parsePositiveInteger, parseSeedText, parseShardOptions, parseWorkers, splitList };

/** The bag commander hands an action. */
export type Flags = Record<string, unknown>;

/** The data flags (ts/cli/options.ts addDataOptions) as the data layer's options; notes on stderr unless --quiet. */
export function dataOptionsFromFlags(opts: Flags): LoadOptions {
  if (typeof opts.logResponse === "string" && opts.logResponse !== "auto" && opts.logResponse !== "none")
    throw new VarmapError("E_USAGE", `--log-response takes no value, auto or none, not '${opts.logResponse}'`, {
      remedy: "write --log-response, --log-response auto or --log-response none (and put the data file before the flags)",
    });
  // "none": the explicit no-transform (fit, cv and refit default to auto).
  const logInputs = typeof opts.logInputs === "string" ? splitList(opts.logInputs) : undefined;
  if (logInputs?.includes("none") && logInputs.length > 1)
    throw new VarmapError("E_USAGE", `--log-inputs ${String(opts.logInputs)}: none cannot be combined with column names`, {
      remedy: "give --log-inputs none alone",
    });
  const str = (k: string) => (typeof opts[k] === "string" ? (opts[k] as string) : undefined);
  const list = (k: string) => (typeof opts[k] === "string" ? splitList(opts[k] as string) : undefined);
  return {
    preset: str("preset"),
    format: str("format"),
    factors: list("factors"),
    inputs: list("inputs"),
    response: str("response"),
    run: str("run"),
    map: Boolean(opts.map),
    id: str("id"),
    where: str("where"),
    stat: (str("stat") as StatName | undefined) ?? "sd",
    logInputs: logInputs?.[0] === "none" ? undefined : logInputs,
    logResponse: opts.logResponse === "auto" ? "auto" : opts.logResponse === "none" ? false : Boolean(opts.logResponse),
    allowDuplicateRuns: opts.allowDuplicateRuns ? true : undefined,
    note: opts.quiet ? undefined : (msg) => process.stderr.write(`varmap: note: ${msg}\n`),
  };
}

/** The run flags every job verb shares (--shard/--shards, --workers, --no-resume, --quiet), parsed and checked. */
export function runOptionsFromFlags(opts: Flags): RunOptions {
  return {
    shard: parseShardOptions(opts.shard as string | undefined, opts.shards as string | undefined),
    workers: parseWorkers(opts.workers as string | undefined),
    resume: opts.resume !== false,
    quiet: !!opts.quiet,
  };
}

/** A flag that must be a positive integer, `dflt` when absent (ts/data/option-values.ts parseInteger). */
export function positiveInt(name: string, v: unknown, dflt: number): number {
  return parsePositiveInteger(v, name, dflt);
}

/** --methods a,b,c: names from the predictor registry (or `extra`), each once. */
export function parseMethods(s: string | undefined, extra: readonly string[] = []): string[] {
  return checkMethods(splitList(s), extra, s);
}

/** Hyperparameters per method from the method flags (ts/cli/method-options.ts); a flag no listed method takes is an error. */
export function hyperparameters(opts: Flags, methods: readonly string[]): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  const given = METHOD_FLAGS.filter((f) => opts[flagKey(f.flag)] !== undefined);
  for (const f of given)
    if (!methods.some((m) => f.methods.includes(m))) {
      const name = f.flag.split(" ")[0];
      throw new VarmapError("E_USAGE", `${name} applies to ${f.methods.join(", ")}, none of which is among the methods (${methods.join(", ")})`, {
        remedy: `drop ${name} or add ${f.methods[0]} to --methods`,
      });
    }
  for (const m of methods) {
    if (!METHOD_NAMES.includes(m)) continue;
    const mine: Record<string, unknown> = {};
    for (const f of given) if (f.methods.includes(m)) mine[flagKey(f.flag)] = opts[flagKey(f.flag)];
    const h = methodOptionsFromCli(mine, m);
    if (Object.keys(h).length) out[m] = h;
  }
  return out;
}

function flagKey(flag: string): string {
  return flag
    .replace(/^--/, "")
    .split(" ")[0]
    .replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** The flags with --paper's or the best defaults filled in (`verb` fit takes one --method, cv and refit --methods); a flag given explicitly wins. */
export function withDefaults<T extends Record<string, unknown>>(opts: T, verb: "fit" | "cv" | "refit"): T {
  const paper = Boolean(opts.paper);
  const out: Record<string, unknown> = { ...opts };
  if (out.logInputs === undefined) out.logInputs = paper ? "none" : "auto";
  if (out.logResponse === undefined) out.logResponse = paper ? "none" : "auto";
  if (verb === "fit") out.method ??= paper ? PAPER_METHOD : BEST_METHOD;
  else if (out.methods === undefined && out.method === undefined) out.methods = paper ? PAPER_METHODS : BEST_METHODS;
  if (verb === "refit") {
    out.families ??= paper ? "all" : DEFAULT_SETUP.families.join(",");
    out.priorStrength ??= paper ? "0" : String(DEFAULT_SETUP.priorStrength);
    out.guard ??= paper ? "off" : DEFAULT_SETUP.guard;
  }
  return out as T;
}
