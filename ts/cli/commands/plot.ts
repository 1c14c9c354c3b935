// `varmap plot KIND <table> [flags] --out fig.svg|png|html|vl.json`: one figure (spec F.2), one subcommand per
// plot kind in ts/report/plots/index.ts. The flags become PlotOptions; the verb is ts/verbs/report.ts (runPlot).
import type { Command } from "commander";
import { addDataOptions } from "../options.js";
import { dataOptionsFromFlags, parseInteger } from "../flags.js";
import { PLOT_KINDS } from "../../report/plots/index.js";
import { runPlot } from "../../verbs/report.js";

export function register(program: Command): void {
  const plot = program.command("plot").description(`one figure (Vega-Lite): ${PLOT_KINDS.map((k) => k.kind).join(", ")}; --out .svg|.png|.html|.vl.json`);
  for (const k of PLOT_KINDS) {
    let cmd = plot.command(k.kind).description(`${k.id}: ${k.description}`).argument("<table>", `input table: ${k.writtenBy}`);
    if (k.dataFlags) cmd = addDataOptions(cmd);
    for (const f of k.flags) cmd.option(f.flag, f.description, f.default);
    cmd
      .requiredOption("--out <file>", "figure file: .svg, .png, .html, or .vl.json (the Vega-Lite spec, to edit)")
      .option("--width <px>", "PNG width in pixels (default: twice the figure's size)")
      .option("--quiet", "no notes on stderr")
      .action(async (table: string, opts: Record<string, unknown>) => {
        const width = opts.width === undefined ? undefined : Number(opts.width);
        // Text that is no number says so in its own words (runPlot checks the range, and PNG output).
        if (width !== undefined && Number.isNaN(width)) parseInteger(opts.width, "--width", { min: 16, max: 20000, example: 1200 });
        const r = await runPlot(k.kind, table, {
          out: String(opts.out),
          ...(width !== undefined ? { width } : {}),
          options: opts,
          ...(k.dataFlags ? { load: dataOptionsFromFlags(opts) } : {}),
        });
        if (!opts.quiet) {
          for (const w of r.warnings) process.stderr.write(`varmap: note: renderer: ${w}\n`);
          process.stderr.write(`varmap: ${k.kind} written to ${r.out}\n`);
        }
      });
  }
}
