// `fit`: one fitted predictor per map (and, optionally, its conformal calibration), as a models file. The CLI
// (ts/cli/commands/fit.ts) parses the flags into FitOptions; `--target distribution` is ts/cli/distribution.ts.
import { VarmapError } from "../errors.js";
import { parseInteger } from "../data/option-values.js";
import { loadDataset, type LoadOptions } from "../data/load.js";
import { writeJsonAtomic } from "../data/write.js";
import { mapInputScaling } from "../cv/split.js";
import { matrix } from "../predict/matrix.js";
import { createPredictor } from "../predict/registry.js";
import type { ModelsFile } from "../predict/models-file.js";
import { calibrate, calibrateForGroups } from "../predict/conformal.js";
import { rawNormalization, scaleGuards } from "../cv/scale-guard.js";
import { describeKey } from "./common.js";

export interface FitOptions {
  /** Column roles, statistic and transforms of the data. */
  data: LoadOptions;
  /** The predictor (a name of the registry). */
  method: string;
  /** Its hyperparameters (the registry's options). */
  methodOptions?: Record<string, unknown>;
  /** Also calibrate conformal prediction intervals by k-fold cross-validation per map (k >= 2). */
  conformalFolds?: number;
  /** Also calibrate queries whose combination of these inputs/factors was never measured, on leave-group-out folds. */
  conformalGroups?: string[];
  /** The models file (.json); without it the models are only returned. */
  out?: string;
  /** No notes on stderr. */
  quiet?: boolean;
}

export interface FitSummary {
  /** The models file's content. */
  models: ModelsFile;
}

export async function runFit(file: string, options: FitOptions): Promise<FitSummary> {
  const method = options.method;
  const hyper = options.methodOptions ?? {};
  const folds = options.conformalFolds;
  if (folds !== undefined) parseInteger(folds, "--conformal-folds", { min: 2, example: 10 });
  const load = options.data;
  const data = await loadDataset(file, load);
  // A method that sets aside automatic transforms (lsp: ts/cv/scale-guard.ts) is fitted on the raw scales.
  const guard = scaleGuards([method], { inputs: load.logInputs?.[0] === "auto", response: load.logResponse === "auto" })?.[method];
  const response = !guard?.response && (data.resolved?.logResponse ?? load.logResponse) ? "log" : "linear";
  if (guard && !options.quiet)
    process.stderr.write(
      `varmap: note: ${method} is fitted on the raw scales (the automatic transforms make it collapse; name --log-inputs/--log-response to override)\n`,
    );
  const groupCols = options.conformalGroups;
  // A map the method cannot fit (too few configurations, degenerate data) is skipped with its reason, in the
  // file and on stderr; the command fails only when no map could be fitted.
  const maps: ModelsFile["maps"] = [];
  const skipped: NonNullable<ModelsFile["skipped"]> = [];
  for (const m of data.maps) {
    const inputs = mapInputScaling(guard?.inputs ? rawNormalization(m.X, m.rows, m.inputNames.length) : m.normalization);
    const model = createPredictor(method, { ...hyper, inputs, response });
    try {
      const X = matrix(m.X, m.rows, m.inputNames.length);
      model.fit(X, m.y, m.yVar);
      const conformal =
        folds === undefined
          ? undefined
          : groupCols
            ? calibrateForGroups(method, { ...hyper, inputs, response }, X, m.y, m.inputNames, groupCols, folds, 0, m.yVar, model)
            : calibrate(method, { ...hyper, inputs, response }, X, m.y, folds, 0, m.yVar, model);
      maps.push({ key: m.key, rows: m.rows, inputs: m.inputNames, model: model.toJSON(), ...(conformal ? { conformal } : {}) });
    } catch (e) {
      if (!(e instanceof VarmapError)) throw e;
      if (data.maps.length === 1) {
        process.stderr.write(`varmap: while fitting ${method} to map ${describeKey(m.key)} of ${file}:\n`);
        throw e;
      }
      skipped.push({ key: m.key, rows: m.rows, code: e.code, reason: e.message });
      if (!options.quiet) process.stderr.write(`varmap: skipped map ${describeKey(m.key)} (${m.rows} configurations): [${e.code}] ${e.detail}\n`);
    }
  }
  if (!maps.length)
    throw new VarmapError("E_NOTHING_FITTED", `${method} could fit none of the ${data.maps.length} maps of ${file}`, {
      location: { file },
      remedy: `see the reasons above; e.g. use a method that needs fewer configurations (lr needs inputs + 1, lsp inputs + 2)`,
    });
  const models: ModelsFile = {
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
  if (options.out) {
    await writeJsonAtomic(options.out, models);
    if (!options.quiet)
      process.stderr.write(
        `varmap: fitted ${maps.length} ${method} model(s) into ${options.out}${skipped.length ? `; ${skipped.length} map(s) skipped (listed under "skipped")` : ""}\n`,
      );
  }
  return { models };
}
