// `varmap fit <data> … --method lsp|lr --out models.json`: one fitted predictor per map.
import type { Command } from "commander";
import { VarmapError } from "../../errors.js";
import { loadDataset, optionsFromCli } from "../../data/load.js";
import { writeJsonAtomic } from "../../data/write.js";
import { mapInputScaling } from "../../cv/split.js";
import { matrix } from "../../predict/matrix.js";
import { createPredictor } from "../../predict/registry.js";
import { addDataOptions } from "../options.js";
import { addMethodOptions, methodOptionsFromCli } from "../method-options.js";
import type { ModelsFile } from "../model-file.js";
import { addDistributionOptions, fitDistributionAction } from "../distribution.js";

export function register(program: Command): void {
  const cmd = program
    .command("fit")
    .description("fit one predictor per map and save the models as JSON")
    .argument("<data>", "runs table (.csv or .parquet), or a map table with --map");
  addDistributionOptions(addMethodOptions(addDataOptions(cmd)), "fit")
    .option("--out <path>", "models file (.json); default: stdout")
    .option("--quiet", "no notes on stderr")
    .action(async (file: string, opts: Record<string, unknown>) => {
      if (opts.target === "distribution") return fitDistributionAction(file, opts);
      const method = String(opts.method);
      const hyper = methodOptionsFromCli(opts, method);
      const load = optionsFromCli(opts);
      const data = await loadDataset(file, load);
      const response = load.logResponse ? "log" : "linear";
      const maps = data.maps.map((m) => {
        const model = createPredictor(method, { ...hyper, inputs: mapInputScaling(m.normalization), response });
        try {
          model.fit(matrix(m.X, m.rows, m.inputNames.length), m.y);
        } catch (e) {
          if (e instanceof VarmapError) process.stderr.write(`varmap: while fitting ${method} to map ${describeKey(m.key)} of ${file}:\n`);
          throw e;
        }
        return { key: m.key, rows: m.rows, inputs: m.inputNames, model: model.toJSON() };
      });
      const out: ModelsFile = {
        format: "varmap-models",
        version: 1,
        method,
        source: file,
        stat: data.maps[0]?.stat ?? load.stat ?? "sd",
        response,
        factors: data.table.roles.factors,
        inputs: data.table.roles.inputs,
        maps,
      };
      if (opts.out) {
        await writeJsonAtomic(String(opts.out), out);
        if (!opts.quiet) process.stderr.write(`varmap: fitted ${maps.length} ${method} model(s) into ${opts.out}\n`);
      } else process.stdout.write(JSON.stringify(out) + "\n");
    });
}

export function describeKey(key: Record<string, string>): string {
  const parts = Object.entries(key).map(([k, v]) => `${k}=${v}`);
  return parts.length ? parts.join(", ") : "(the only map)";
}
