// `varmap synth`: full-scale synthetic datasets (MOANA and mixture designs), streamed to CSV, TSV or Parquet.
import { Option, type Command } from "commander";
import { availableParallelism } from "node:os";
import { VarmapError } from "../../errors.js";
import { writeSynth, writeSynthTruth, type DesignName } from "../../data/synth.js";
import { tableFormat } from "../../data/write.js";
import { writeInterferenceSynth } from "../../interference/synth.js";
import { parseSeedText, seedKey } from "../../data/option-values.js";
import { countProgress } from "../../pool/progress.js";

export function register(program: Command): void {
  program
    .command("synth")
    .description("full-scale synthetic datasets (MOANA and mixture designs)")
    .addOption(
      new Option(
        "--design <name>",
        "moana: 117 maps × 810 configurations × 40 runs; mixture: 22,734 configurations × 150 runs; interference: seed-003 probe/signal runs with known degradations",
      )
        .choices(["moana", "mixture", "interference"])
        .makeOptionMandatory(),
    )
    .option("--seed <s>", "seed of the deterministic generator", "1")
    .option("--maps <k>", "only the first K maps (small datasets for demos and tests)")
    .option("--out <path>", "output file: .csv, .tsv or .parquet")
    .option(
      "--truth <path>",
      "moana/mixture: also write every configuration's true mixture (one row per component; .csv, .tsv, .json or .parquet) for `cv --target distribution --truth`",
    )
    .option("--workers <n>", "worker threads (default: one per core); the output does not depend on it")
    .option("--json", "print a machine-readable summary on stdout")
    .option("--quiet", "no progress on stderr")
    .action(
      async (opts: {
        design: DesignName | "interference";
        seed: string;
        maps?: string;
        out?: string;
        truth?: string;
        workers?: string;
        json?: boolean;
        quiet?: boolean;
      }) => {
        if (!opts.out) throw new VarmapError("E_USAGE", "synth needs --out", { remedy: "e.g. varmap synth --design moana --out moana.csv" });
        const maps = opts.maps === undefined ? undefined : Number(opts.maps);
        const seed = seedKey(parseSeedText(opts.seed));
        const workers = opts.workers === undefined ? availableParallelism() : Number(opts.workers);
        if (!(Number.isInteger(workers) && workers >= 1))
          throw new VarmapError("E_USAGE", `--workers must be a positive integer (got ${opts.workers})`, { remedy: "e.g. --workers 2" });
        if (opts.truth !== undefined) {
          if (opts.design === "interference")
            throw new VarmapError("E_USAGE", "--truth applies to the moana and mixture designs", { remedy: "drop --truth, or use --design moana|mixture" });
          tableFormat(opts.truth, "--truth");
          if (!/\.(csv|tsv|tab|parquet)$/i.test(opts.out))
            throw new VarmapError("E_USAGE", `cannot tell the output format of '${opts.out}'`, { remedy: "end --out in .csv, .tsv or .parquet" });
        }
        const t0 = performance.now();
        if (opts.design === "interference") {
          const res = await writeInterferenceSynth(opts.out, seed);
          if (!opts.quiet) process.stderr.write(`varmap synth: wrote ${res.rows} rows (${res.executions} executions) to ${opts.out}\n`);
          if (opts.json) process.stdout.write(JSON.stringify({ out: opts.out, design: opts.design, seed, ...res }) + "\n");
          return;
        }
        // \r redraws only on a terminal: a batch log gets plain lines (countProgress).
        const counter = countProgress("varmap synth", "configurations");
        const res = await writeSynth(opts.out, {
          design: opts.design,
          seed,
          maps,
          workers,
          progress: opts.quiet ? undefined : (done, total) => counter.update(done, total),
        });
        const truth = opts.truth ? await writeSynthTruth(opts.truth, { design: opts.design, seed, maps }) : undefined;
        if (truth && !opts.quiet) process.stderr.write(`\nvarmap synth: wrote the true mixtures (${truth.rows} components) to ${opts.truth}`);
        const seconds = (performance.now() - t0) / 1000;
        if (!opts.quiet) counter.end();
        if (!opts.quiet)
          process.stderr.write(
            `varmap synth: wrote ${res.rows} rows (${res.maps} maps, ${res.configurations} configurations) to ${opts.out} in ${seconds.toFixed(1)} s\n`,
          );
        if (opts.json)
          process.stdout.write(
            JSON.stringify({ out: opts.out, design: opts.design, seed, ...res, ...(truth ? { truth: opts.truth, truthRows: truth.rows } : {}), seconds }) +
              "\n",
          );
      },
    );
}
