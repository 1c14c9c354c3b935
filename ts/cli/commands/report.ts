// `varmap report <dir> --out report.html`: one self-contained HTML page (inline SVG, no requests) for the output
// directory of refit, cv or demo (spec F.3). The flags become ReportOptions; the verb is ts/verbs/report.ts.
import type { Command } from "commander";
import { dataOptionsFromFlags, parseInteger } from "../flags.js";
import { VarmapError } from "../../errors.js";
import { addDataOptions } from "../options.js";
import { runReport } from "../../verbs/report.js";

export function register(program: Command): void {
  addDataOptions(
    program
      .command("report")
      .description("a self-contained HTML report (inline SVG figures and tables) of a refit, cv or demo output directory")
      .argument("<dir>", "output directory of varmap refit, cv or demo")
      .requiredOption("--out <file>", "the report, .html")
      .option("--data <file>", "the runs the directory was computed from (a demo directory's own dataset by default); column flags as for refit")
      .option(
        "--maps <which>",
        'maps with a heatmap and predicted-vs-measured figure: extremes (most and least variable), a count, or "factor=value,…;…"',
        "extremes",
      )
      .option("--configs <n>", "configurations in the histogram and probability figures", "4")
      .option("--p <fraction>", "training fraction of the division behind predicted vs measured", "0.5")
      .option("--seed <s>", "seed of that division (default: the cv directory's seed, else 1)")
      .option("--static", "static SVG figures only: no inlined Vega runtime, no tooltips, zoom or clicks (a smaller page)")
      .option("--json", "print a machine-readable summary on stdout")
      .option("--quiet", "no notes on stderr"),
  ).action(async (dir: string, opts: Record<string, unknown>) => {
    const out = String(opts.out);
    if (!/\.html?$/i.test(out)) throw new VarmapError("E_USAGE", `--out '${out}' must end in .html`, { remedy: "e.g. --out report.html" });
    const configs = parseInteger(opts.configs, "--configs", { min: 1, max: 36, example: 4 });
    const p = Number(opts.p);
    if (!(p > 0 && p < 1)) throw new VarmapError("E_USAGE", `--p '${opts.p}' is not a fraction in (0, 1)`, { remedy: "e.g. --p 0.5" });
    const explicitRoles = ["preset", "format", "factors", "inputs", "response", "map", "where"].some((k) => opts[k] !== undefined);
    const r = await runReport(dir, {
      out,
      data: opts.data as string | undefined,
      dataOptions: explicitRoles ? dataOptionsFromFlags(opts) : undefined,
      maps: String(opts.maps),
      configs,
      p,
      seed: opts.seed as string | undefined,
      static: !!opts.static,
      quiet: !!opts.quiet,
    });
    if (!opts.quiet) for (const w of r.warnings) process.stderr.write(`varmap: note: renderer: ${w}\n`);
    if (opts.json) process.stdout.write(JSON.stringify(r, null, 2) + "\n");
    else process.stdout.write(`${r.out}\n`);
    if (!opts.quiet)
      process.stderr.write(`varmap: report of the ${r.kind} directory (${r.figures} figures) written in ${r.seconds.toFixed(1)} s; open it in a browser\n`);
  });
}
