// `varmap fit <data> … --method lsp|lr --out models.json`: one fitted predictor per map.
import type { Command } from "commander";
import { dataOptionsFromFlags } from "../flags.js";
import { VarmapError } from "../../errors.js";
import { loadDataset } from "../../data/load.js";
import { writeJsonAtomic } from "../../data/write.js";
import { mapInputScaling } from "../../cv/split.js";
import { matrix } from "../../predict/matrix.js";
import { createPredictor } from "../../predict/registry.js";
import { addDataOptions } from "../options.js";
import { addMethodOptions, methodOptionsFromCli } from "../method-options.js";
import type { ModelsFile } from "../../predict/models-file.js";
import { addDistributionOptions, fitDistributionAction } from "../distribution.js";
import { calibrate } from "../../predict/conformal.js";
import { BEST_METHOD, DEFAULTS_HELP, PAPER_METHOD } from "../../verbs/defaults.js";
import { withDefaults } from "../flags.js";

export function register(program: Command): void {
  const cmd = program
    .command("fit")
    .description("fit one predictor per map and save the models as JSON")
    .argument("<data>", "runs table (.csv, .tsv or .parquet), or a map table with --map");
  addDistributionOptions(addMethodOptions(addDataOptions(cmd), undefined, `predictor (default ${BEST_METHOD}; --paper: ${PAPER_METHOD})`), "fit")
    .option("--paper", `the source papers' setup instead of the best defaults (${DEFAULTS_HELP})`)
    .option("--out <path>", "models file (.json); default: stdout")
    .option("--quiet", "no notes on stderr")
    .option("--conformal-folds <k>", "also calibrate conformal prediction intervals by k-fold cross-validation per map (for predict --interval)")
    .action(async (file: string, given: Record<string, unknown>) => {
      if (given.target === "distribution") return fitDistributionAction(file, given);
      const opts = withDefaults(given, "fit");
      const method = String(opts.method);
      const hyper = methodOptionsFromCli(opts, method);
      const folds = opts.conformalFolds === undefined ? undefined : Number(opts.conformalFolds);
      if (folds !== undefined && !(Number.isInteger(folds) && folds >= 2))
        throw new VarmapError("E_USAGE", `--conformal-folds ${String(opts.conformalFolds)} is not an integer >= 2`, { remedy: "e.g. --conformal-folds 10" });
      const load = dataOptionsFromFlags(opts);
      const data = await loadDataset(file, load);
      const response = (data.resolved?.logResponse ?? load.logResponse) ? "log" : "linear";
      // A map the method cannot fit (too few configurations, degenerate data) is skipped with its reason, in the
      // file and on stderr; the command fails only when no map could be fitted.
      const maps: ModelsFile["maps"] = [];
      const skipped: NonNullable<ModelsFile["skipped"]> = [];
      for (const m of data.maps) {
        const model = createPredictor(method, { ...hyper, inputs: mapInputScaling(m.normalization), response });
        try {
          const X = matrix(m.X, m.rows, m.inputNames.length);
          model.fit(X, m.y, m.yVar);
          const conformal =
            folds === undefined
              ? undefined
              : calibrate(method, { ...hyper, inputs: mapInputScaling(m.normalization), response }, X, m.y, folds, 0, m.yVar, model);
          maps.push({ key: m.key, rows: m.rows, inputs: m.inputNames, model: model.toJSON(), ...(conformal ? { conformal } : {}) });
        } catch (e) {
          if (!(e instanceof VarmapError)) throw e;
          if (data.maps.length === 1) {
            process.stderr.write(`varmap: while fitting ${method} to map ${describeKey(m.key)} of ${file}:\n`);
            throw e;
          }
          skipped.push({ key: m.key, rows: m.rows, code: e.code, reason: e.message });
          if (!opts.quiet) process.stderr.write(`varmap: skipped map ${describeKey(m.key)} (${m.rows} configurations): [${e.code}] ${e.detail}\n`);
        }
      }
      if (!maps.length)
        throw new VarmapError("E_NOTHING_FITTED", `${method} could fit none of the ${data.maps.length} maps of ${file}`, {
          location: { file },
          remedy: `see the reasons above; e.g. use a method that needs fewer configurations (lr needs inputs + 1, lsp inputs + 2)`,
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
        ...(skipped.length ? { skipped } : {}),
      };
      if (opts.out) {
        await writeJsonAtomic(String(opts.out), out);
        if (!opts.quiet)
          process.stderr.write(
            `varmap: fitted ${maps.length} ${method} model(s) into ${opts.out}${skipped.length ? `; ${skipped.length} map(s) skipped (listed under "skipped")` : ""}\n`,
          );
      } else process.stdout.write(JSON.stringify(out) + "\n");
    });
}

export function describeKey(key: Record<string, string>): string {
  const parts = Object.entries(key).map(([k, v]) => `${k}=${v}`);
  return parts.length ? parts.join(", ") : "(the only map)";
}
