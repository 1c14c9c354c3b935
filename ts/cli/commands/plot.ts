// `varmap plot KIND <table> [flags] --out fig.svg|png|html|vl.json`: one figure (spec F.2), one subcommand per
// plot kind in ts/report/plots/index.ts.
import type { Command } from "commander";
import { addDataOptions } from "../options.js";
import { dataOptionsFromFlags } from "../flags.js";
import { PLOT_KINDS } from "../../report/plots/index.js";
import { VarmapError } from "../../errors.js";

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
        // The renderer (vega, vega-lite, resvg) loads only when a figure is drawn, not at every varmap start.
        const { figureFormat, writeFigure } = await import("../../report/output.js");
        const out = String(opts.out);
        const format = figureFormat(out);
        const width = opts.width === undefined ? undefined : Number(opts.width);
        if (width !== undefined && format !== "png")
          throw new VarmapError("E_USAGE", "--width applies to PNG output only", { remedy: "drop --width, or write a .png" });
        if (width !== undefined && !(Number.isInteger(width) && width >= 16 && width <= 20000))
          throw new VarmapError("E_USAGE", `--width '${opts.width}' is not a pixel width from 16 to 20000`, { remedy: "e.g. --width 1200" });
        const spec = await k.fromFile(table, k.dataFlags ? { ...opts, load: dataOptionsFromFlags(opts) } : opts);
        const warnings = await writeFigure(spec, out, { width });
        if (!opts.quiet) {
          for (const w of warnings) process.stderr.write(`varmap: note: renderer: ${w}\n`);
          process.stderr.write(`varmap: ${k.kind} written to ${out}\n`);
        }
      });
  }
}
