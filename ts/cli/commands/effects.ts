// `varmap effects <file>`: ANOVA of each map's statistic on its inputs, and model-based importance (issue 45).
import { Option, type Command } from "commander";
import { dataOptionsFromFlags } from "../flags.js";
import { splitList } from "../../data/option-values.js";
import { VarmapError } from "../../errors.js";
import { runEffects } from "../../verbs/effects.js";
import { addDataOptions } from "../options.js";

export function register(program: Command): void {
  const cmd = program
    .command("effects")
    .description("which inputs drive each map's statistic: ANOVA (type I/II SS, F, p, partial η²), permutation importance, partial dependence")
    .argument("<file>", "runs table (.csv, .tsv or .parquet), or a map with --map");
  addDataOptions(cmd)
    .requiredOption("--out <path>", "ANOVA table (.csv, .tsv, .json or .parquet): one row per map and term, then its Residuals row")
    .addOption(new Option("--scale <s>", "scale of the statistic: log (multiplicative effects) or linear").choices(["log", "linear"]).default("log"))
    .option("--combine <groups>", "inputs taken together as one factor, '+'-joined, groups comma-separated (e.g. fsize_kb+rsize_kb)")
    .addOption(new Option("--interactions <which>", "two-way interactions of the factors, or none").choices(["2", "none"]).default("2"))
    .option("--max-levels <n>", "an input with at most this many distinct values in a map is a factor; more: a linear covariate", "20")
    .option("--models <file>", "models file of `varmap fit` or `varmap refit`: adds each model's permutation importance (and --pd-out)")
    .option("--importance-out <path>", "with --models: importance table (ARE increase, gp length scales, MARS term counts)")
    .option("--pd-out <path>", "with --models: partial-dependence curves (input, value, mean prediction)")
    .option("--repeats <n>", "permutations per input for the importance", "5")
    .option("--seed <s>", "seed of the permutations", "1")
    .option("--json", "print the summary as JSON")
    .option("--quiet", "no notes on stderr")
    .action(async (file: string, opts: Record<string, unknown>) => {
      const int = (k: string) => {
        const v = Number(opts[k]);
        if (!Number.isInteger(v))
          throw new VarmapError("E_USAGE", `--${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} must be an integer, got '${String(opts[k])}'`);
        return v;
      };
      const s = await runEffects(file, {
        load: dataOptionsFromFlags(opts),
        scale: opts.scale === "linear" ? "linear" : "log",
        combine: typeof opts.combine === "string" ? splitList(opts.combine).map((g) => g.split("+").map((c) => c.trim())) : [],
        interactions: opts.interactions !== "none",
        maxLevels: int("maxLevels"),
        out: String(opts.out),
        models: opts.models as string | undefined,
        importanceOut: opts.importanceOut as string | undefined,
        pdOut: opts.pdOut as string | undefined,
        repeats: int("repeats"),
        seed: String(opts.seed),
      });
      if (opts.json) {
        process.stdout.write(JSON.stringify(s, null, 2) + "\n");
        return;
      }
      const lines: string[] = [];
      const g = (v: number) => (Number.isFinite(v) ? v.toPrecision(4) : "");
      for (const m of s.maps) {
        const key =
          Object.entries(m.key)
            .map(([k, v]) => `${k}=${v}`)
            .join(" ") || "(all)";
        lines.push(`${key}: ${m.configurations} configurations, ${s.stat} on a ${s.scale} scale; type II, by partial η²`);
        const w = Math.max(4, ...m.anova.map((r) => r.term.length));
        lines.push(`  ${"term".padEnd(w)}  ${"df".padStart(4)}  ${"F".padStart(10)}  ${"p".padStart(10)}  partial η²`);
        for (const r of [...m.anova].sort((a, b) => b.partialEta2 - a.partialEta2))
          lines.push(
            `  ${r.term.padEnd(w)}  ${String(r.df).padStart(4)}  ${g(r.fType2).padStart(10)}  ${(r.pType2 === 0 ? "< 1e-300" : g(r.pType2)).padStart(10)}  ${g(r.partialEta2)}`,
          );
        lines.push(`  ${"Residuals".padEnd(w)}  ${String(m.residual.df).padStart(4)}`);
        for (const imp of m.importance ?? [])
          lines.push(
            `  ${imp.method} ${imp.input}: ARE +${(100 * imp.importance).toFixed(2)} pp when permuted${Number.isFinite(imp.lengthScale) ? `, length scale ${g(imp.lengthScale)}` : ""}${Number.isFinite(imp.marsTerms) ? `, in ${imp.marsTerms} MARS term(s)` : ""}`,
          );
      }
      for (const k of s.skipped) lines.push(`skipped ${JSON.stringify(k.key)}: ${k.reason}`);
      process.stdout.write(lines.join("\n") + "\n");
      if (!opts.quiet) process.stderr.write(`varmap: wrote ${s.out}${s.importanceOut ? `, ${s.importanceOut}` : ""}${s.pdOut ? `, ${s.pdOut}` : ""}\n`);
    });
}
