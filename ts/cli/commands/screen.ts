// `varmap screen <runs>`: normality, modality and drift of every configuration's runs (issue 45).
import type { Command } from "commander";
import { dataOptionsFromFlags } from "../flags.js";
import { VarmapError } from "../../errors.js";
import { runScreen } from "../../verbs/screen.js";

export function register(program: Command): void {
  const cmd = program
    .command("screen")
    .description("per configuration: Shapiro–Wilk normality, Hartigans' dip (multimodality), skewness/kurtosis, lag-1 and runs test (drift)")
    .argument("<runs>", "runs table (.csv, .tsv or .parquet), one row per run");
  cmd
    .option("--preset <name>", "column roles of a known dataset: moana | iozone")
    .option("--factors <cols>", "categorical factor columns, comma-separated (one map per combination)")
    .option("--inputs <cols>", "numeric input columns, comma-separated")
    .option("--response <col>", "measured response column")
    .option("--run <col>", "run index column (the order the drift tests follow)")
    .option("--where <sql>", "SQL predicate selecting rows before anything else")
    .option("--allow-duplicate-runs", "accept repeated run indices within a configuration")
    .option("--out <path>", "per-configuration table (.csv, .tsv, .json or .parquet)")
    .option("--maps-out <path>", "also a per-map table of the shares rejected")
    .option("--alpha <q>", "false discovery rate of the Benjamini–Hochberg adjustment within each map", "0.05")
    .option("--json", "print a machine-readable summary on stdout")
    .option("--quiet", "no notes on stderr")
    .action(async (file: string, opts: Record<string, unknown>) => {
      const alpha = Number(opts.alpha);
      if (!Number.isFinite(alpha)) throw new VarmapError("E_USAGE", `--alpha must be a number in (0, 1), got '${String(opts.alpha)}'`);
      const s = await runScreen(file, {
        load: dataOptionsFromFlags(opts),
        out: opts.out as string,
        mapsOut: opts.mapsOut as string | undefined,
        alpha,
      });
      if (opts.json) {
        process.stdout.write(JSON.stringify(s, null, 2) + "\n");
        return;
      }
      const pct = (v: number) => (Number.isNaN(v) ? "n/a" : `${(100 * v).toFixed(1)} %`);
      const lines = [s.headline];
      if (s.maps.length > 1) {
        for (const m of s.maps) {
          const key =
            Object.entries(m.key)
              .map(([k, v]) => `${k}=${v}`)
              .join(" ") || "(all)";
          lines.push(`  ${key}: ${m.configurations} configurations; not normal ${pct(m.notNormal)}, multimodal ${pct(m.multimodal)}, drift ${pct(m.drift)}`);
        }
      }
      const o = s.overall;
      lines.push(`unadjusted p < ${s.alpha}: not normal ${pct(o.notNormalRaw)}, multimodal ${pct(o.multimodalRaw)}, drift ${pct(o.driftRaw)}`);
      process.stdout.write(lines.join("\n") + "\n");
      if (!opts.quiet)
        process.stderr.write(`varmap: wrote ${s.configurations} configurations to ${s.out}${s.mapsOut ? ` and the maps to ${s.mapsOut}` : ""}\n`);
    });
}
