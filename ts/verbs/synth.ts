// `synth`: full-scale synthetic datasets (MOANA and mixture designs, and seed 003's interference runs), streamed to
// CSV, TSV or Parquet; moana/mixture also their true mixtures. The CLI (ts/cli/commands/synth.ts) parses the flags
// into SynthOptions.
import { availableParallelism } from "node:os";
import { VarmapError } from "../errors.js";
import { writeSynth, writeSynthTruth, type DesignName } from "../data/synth.js";
import { tableFormat } from "../data/write.js";
import { writeInterferenceSynth } from "../interference/synth.js";
import { parseSeedText, seedKey } from "../data/option-values.js";
import { countProgress } from "../pool/progress.js";
import { writeSynthParts } from "../jobs/synth.js";

export interface SynthOptions {
  design: DesignName | "interference";
  /** The output file: .csv, .tsv or .parquet. */
  out: string;
  /** Seed of the deterministic generator (default "1"; integer text keys as the number). */
  seed?: string | number;
  /** Only the first K maps (moana). */
  maps?: number;
  /** moana/mixture: every configuration's true mixture (.csv, .tsv, .json or .parquet). */
  truth?: string;
  /** Worker threads (default: one per core); the output does not depend on it. */
  workers?: number;
  /** No progress on stderr. */
  quiet?: boolean;
}

export interface SynthSummary {
  out: string;
  design: DesignName | "interference";
  seed: string | number;
  rows: number;
  [more: string]: unknown;
}

export async function runSynth(options: SynthOptions): Promise<SynthSummary> {
  const out = options.out;
  if (!out) throw new VarmapError("E_USAGE", "synth needs --out", { remedy: "e.g. varmap synth --design moana --out moana.csv" });
  const maps = options.maps;
  const seed = seedKey(parseSeedText(options.seed));
  const workers = options.workers ?? availableParallelism();
  if (!(Number.isInteger(workers) && workers >= 1))
    throw new VarmapError("E_USAGE", `--workers must be a positive integer (got ${options.workers})`, { remedy: "e.g. --workers 2" });
  if (options.truth !== undefined) {
    if (options.design === "interference")
      throw new VarmapError("E_USAGE", "--truth applies to the moana and mixture designs", { remedy: "drop --truth, or use --design moana|mixture" });
    tableFormat(options.truth, "--truth");
    if (!/\.(csv|tsv|tab|parquet)$/i.test(out))
      throw new VarmapError("E_USAGE", `cannot tell the output format of '${out}'`, { remedy: "end --out in .csv, .tsv or .parquet" });
  }
  const t0 = performance.now();
  if (options.design === "interference") {
    const res = await writeInterferenceSynth(out, seed);
    if (!options.quiet) process.stderr.write(`varmap synth: wrote ${res.rows} rows (${res.executions} executions) to ${out}\n`);
    return { out, design: options.design, seed, ...res };
  }
  // \r redraws only on a terminal: a batch log gets plain lines (countProgress).
  const counter = countProgress("varmap synth", "configurations");
  const res = await writeSynth(out, {
    design: options.design,
    seed,
    maps,
    workers,
    progress: options.quiet ? undefined : (done, total) => counter.update(done, total),
    writeParts: (parts, done) => writeSynthParts(parts, workers, done),
  });
  const truth = options.truth ? await writeSynthTruth(options.truth, { design: options.design, seed, maps }) : undefined;
  if (truth && !options.quiet) process.stderr.write(`\nvarmap synth: wrote the true mixtures (${truth.rows} components) to ${options.truth}`);
  const seconds = (performance.now() - t0) / 1000;
  if (!options.quiet) counter.end();
  if (!options.quiet)
    process.stderr.write(
      `varmap synth: wrote ${res.rows} rows (${res.maps} maps, ${res.configurations} configurations) to ${out} in ${seconds.toFixed(1)} s\n`,
    );
  return { out, design: options.design, seed, ...res, ...(truth ? { truth: options.truth, truthRows: truth.rows } : {}), seconds };
}
