// What `varmap <verb> --help` ends with: one or two examples and the user's-guide page that explains the verb
// (issue 40). One table keyed by verb name, hooked once over every command in program.ts, so command files need
// not change when examples do; test/cli/help-examples.test.ts checks every verb has an entry whose flags exist
// and whose page is there.
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Command } from "commander";
import { packageRoot } from "../package-root.js";

export interface HelpExamples {
  /** Commands as a user types them, `varmap <verb> …` (a preceding `varmap synth` line is allowed). */
  examples: string[];
  /** The guide page, relative to the package root. */
  guide: string;
}

const NEW_AT = "new.csv (the factor and input columns of the configurations to predict)";

export const HELP_EXAMPLES: Record<string, HelpExamples> = {
  doctor: { examples: ["varmap doctor", "VARMAP_BACKEND=wasm varmap doctor --json"], guide: "docs/guide/backends.md" },
  summarize: {
    examples: [
      "varmap summarize runs.csv --preset moana --out configs.csv",
      "varmap summarize runs.csv --factors host,mode --inputs threads,size_kb --response mbps --run run --stat sd --json",
    ],
    guide: "docs/guide/data.md",
  },
  synth: {
    examples: ["varmap synth --design moana --maps 1 --out runs.csv", "varmap synth --design interference --seed 1 --out pairs-runs.csv"],
    guide: "docs/guide/data.md",
  },
  fit: {
    examples: [
      "varmap fit runs.csv --preset moana --conformal-folds 10 --out models.json",
      "varmap fit runs.csv --preset moana --target distribution --out dist-models.json",
    ],
    guide: "docs/guide/predict.md",
  },
  predict: {
    examples: [
      `varmap predict models.json --at new.csv --interval 0.9 --out predictions.csv     # ${NEW_AT}`,
      "varmap predict dist-models.json --at new.csv --output quantiles --levels 20 --out quantiles.csv",
    ],
    guide: "docs/guide/predict.md",
  },
  summary: { examples: ["varmap summary models.json --data runs.csv --preset moana"], guide: "docs/guide/predict.md" },
  cv: {
    examples: ["varmap cv runs.csv --preset moana --p 0.5,0.9 --reps 5 --out cv/", "varmap cv runs.csv --preset moana --paper --reps 200 --out cv-paper/"],
    guide: "docs/guide/cv.md",
  },
  refit: { examples: ["varmap refit runs.csv --preset moana --conformal-folds 10 --out results/"], guide: "docs/guide/cv.md" },
  demo: { examples: ["varmap demo", "varmap demo --full"], guide: "docs/guide/cv.md" },
  mixture: {
    examples: [
      "varmap mixture runs.csv --preset moana --out fits.csv",
      "varmap mixture runs.csv --preset iozone --validate --split odd-even --validate-out val.csv",
    ],
    guide: "docs/guide/mixtures.md",
  },
  import: {
    examples: [
      "varmap import hyperfine results.json --out runs.parquet      # hyperfine --export-json results.json --parameter-scan …",
      "varmap import fio run-*.json --out runs.parquet      # one fio --output-format=json file per run",
    ],
    guide: "docs/guide/import.md",
  },
  screen: {
    examples: ["varmap screen runs.csv --preset moana --out screen.csv --maps-out screen-maps.csv"],
    guide: "docs/guide/explain.md",
  },
  effects: {
    examples: [
      "varmap effects runs.csv --preset moana --combine fsize_kb+rsize_kb --out anova.csv",
      "varmap effects runs.csv --preset moana --models models.json --importance-out importance.csv --pd-out pd.csv --out anova.csv",
    ],
    guide: "docs/guide/explain.md",
  },
  plan: {
    examples: [
      'varmap plan --grid "threads=1,2,4,8,16;rsize_kb=4,64,1024" --budget-runs 300 --min-runs 5 --out batch.csv',
      "varmap plan --replay runs.csv --preset moana --reps 3 --out curves.csv",
    ],
    guide: "docs/guide/plan.md",
  },
  samplesize: { examples: ["varmap samplesize runs.csv --preset iozone --out ss.csv --curves ss-curves.csv"], guide: "docs/guide/runs-needed.md" },
  convergence: { examples: ["varmap convergence runs.csv --preset moana --out conv.csv --curves conv-curves.csv"], guide: "docs/guide/runs-needed.md" },
  gev: { examples: ["varmap gev runs.csv --preset moana --out gev.csv --diagnostics diag.csv"], guide: "docs/guide/gev.md" },
  interference: {
    examples: [
      "varmap interference runs.csv --experiment experiment --app app --instance instance --factors fs,chunk_mib,procs --run rep --response bw_gbps --metric throughput --out pairs.csv",
    ],
    guide: "docs/guide/interference.md",
  },
  whatif: {
    examples: [
      'varmap whatif --mean mean.json --spread sd.json --grid "threads=1,4,16,64" --fix mode=fread,fsize_kb=1024 --objective max-mean --top 5 --out whatif.csv',
      "varmap whatif runs.csv --preset moana --holdout 0.5 --seed 1 --out whatif.csv",
      "varmap whatif runs.csv --preset moana --holdout 0.3 --leave-out fsize_kb,rsize_kb --out whatif.csv",
    ],
    guide: "docs/guide/whatif.md",
  },
  plot: {
    examples: ["varmap plot heatmap runs.csv --preset moana --x threads --y freq_khz --out heatmap.png", "varmap plot are cv/are.csv --out are.svg"],
    guide: "docs/guide/plots.md",
  },
  report: { examples: ["varmap report cv --data runs.csv --preset moana --out report.html"], guide: "docs/guide/plots.md" },
  merge: { examples: ["varmap merge shards/1 shards/2 --out merged"], guide: "docs/guide/cluster.md" },
  slurm: {
    examples: [
      "varmap slurm submit cv runs.csv --preset moana --reps 200 --shards 16 --max-running 8 --cpus-per-task 4 --time 2:00:00 --out cv-run",
      "varmap slurm wait cv-run    # blocks until merged; `varmap slurm status cv-run` says where it is",
    ],
    guide: "docs/guide/cluster.md",
  },
  bench: { examples: ["varmap bench --kernels sqdist,knn --max-time 1"], guide: "docs/guide/backends.md" },
};

/** The verb a command belongs to: its top-level ancestor below the program (`plot heatmap` → `plot`). */
export function verbOf(cmd: Command): string {
  let c = cmd;
  while (c.parent?.parent) c = c.parent;
  return c.name();
}

/** The text after a command's help: its verb's examples and the guide page (an absolute path, to open). */
export function helpExamplesText(verb: string): string {
  const entry = HELP_EXAMPLES[verb];
  if (!entry) return "";
  const page = join(packageRoot(), entry.guide);
  return `\nExamples:\n${entry.examples.map((e) => `  ${e}`).join("\n")}\n\nGuide: ${existsSync(page) ? page : entry.guide}`;
}

/** Hooks the examples into the help of every command below `program` (sub-commands get their verb's), and the
 * guide's index into the program's own help. */
export function addHelpExamples(program: Command): void {
  program.addHelpText("after", () => `\nEvery verb's examples: varmap <verb> --help. The user's guide: ${join(packageRoot(), "docs", "guide", "README.md")}`);
  const visit = (cmd: Command): void => {
    for (const sub of cmd.commands) {
      const verb = verbOf(sub);
      if (HELP_EXAMPLES[verb]) sub.addHelpText("after", () => helpExamplesText(verb));
      visit(sub);
    }
  };
  visit(program);
}
