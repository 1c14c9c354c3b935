// Every verb, in the order `varmap --help` lists them: its command file (imported on demand, so a run of one verb
// loads only that verb's module graph: module loading was most of a short command's CPU time, issue 44), and what
// `varmap <verb> --help` ends with (issue 40): one or two examples and the user's-guide page that explains it
// (test/cli/help-examples.test.ts checks the examples' flags exist and the page is there). A new verb is one entry.
import type { Command } from "commander";
import type { HelpExamples } from "../help-examples.js";

/** One verb's command file: it adds its command, flags and action to the program. */
export interface CommandFile {
  register(program: Command): void;
}

export interface VerbEntry extends HelpExamples {
  file: () => Promise<CommandFile>;
}

const NEW_AT = "new.csv (the factor and input columns of the configurations to predict)";

export const VERBS: Readonly<Record<string, VerbEntry>> = {
  doctor: { file: () => import("./doctor.js"), examples: ["varmap doctor", "VARMAP_BACKEND=wasm varmap doctor --json"], guide: "docs/guide/backends.md" },
  summarize: {
    file: () => import("./summarize.js"),
    examples: [
      "varmap summarize runs.csv --preset moana --out configs.csv",
      "varmap summarize runs.csv --factors host,mode --inputs threads,size_kb --response mbps --run run --stat sd --json",
    ],
    guide: "docs/guide/data.md",
  },
  synth: {
    file: () => import("./synth.js"),
    examples: ["varmap synth --design moana --maps 1 --out runs.csv", "varmap synth --design interference --seed 1 --out pairs-runs.csv"],
    guide: "docs/guide/data.md",
  },
  fit: {
    file: () => import("./fit.js"),
    examples: [
      "varmap fit runs.csv --preset moana --conformal-folds 10 --out models.json",
      "varmap fit runs.csv --preset moana --target distribution --out dist-models.json",
    ],
    guide: "docs/guide/predict.md",
  },
  predict: {
    file: () => import("./predict.js"),
    examples: [
      `varmap predict models.json --at new.csv --interval 0.9 --out predictions.csv     # ${NEW_AT}`,
      "varmap predict dist-models.json --at new.csv --output quantiles --levels 20 --out quantiles.csv",
    ],
    guide: "docs/guide/predict.md",
  },
  cv: {
    file: () => import("./cv.js"),
    examples: ["varmap cv runs.csv --preset moana --p 0.5,0.9 --reps 5 --out cv/", "varmap cv runs.csv --preset moana --paper --reps 200 --out cv-paper/"],
    guide: "docs/guide/cv.md",
  },
  mixture: {
    file: () => import("./mixture.js"),
    examples: [
      "varmap mixture runs.csv --preset moana --out fits.csv",
      "varmap mixture runs.csv --preset iozone --validate --split odd-even --validate-out val.csv",
    ],
    guide: "docs/guide/mixtures.md",
  },
  refit: {
    file: () => import("./refit.js"),
    examples: ["varmap refit runs.csv --preset moana --conformal-folds 10 --out results/"],
    guide: "docs/guide/cv.md",
  },
  demo: { file: () => import("./demo.js"), examples: ["varmap demo", "varmap demo --full"], guide: "docs/guide/cv.md" },
  merge: { file: () => import("./merge.js"), examples: ["varmap merge shards/1 shards/2 --out merged"], guide: "docs/guide/cluster.md" },
  summary: { file: () => import("./summary.js"), examples: ["varmap summary models.json --data runs.csv --preset moana"], guide: "docs/guide/predict.md" },
  bench: { file: () => import("./bench.js"), examples: ["varmap bench --kernels sqdist,knn --max-time 1"], guide: "docs/guide/backends.md" },
  whatif: {
    file: () => import("./whatif.js"),
    examples: [
      'varmap whatif --mean mean.json --spread sd.json --grid "threads=1,4,16,64" --fix mode=fread,fsize_kb=1024 --objective max-mean --top 5 --out whatif.csv',
      "varmap whatif runs.csv --preset moana --holdout 0.3 --leave-out fsize_kb,rsize_kb --out whatif.csv",
    ],
    guide: "docs/guide/whatif.md",
  },
  gev: { file: () => import("./gev.js"), examples: ["varmap gev runs.csv --preset moana --out gev.csv --diagnostics diag.csv"], guide: "docs/guide/gev.md" },
  slurm: {
    file: () => import("./slurm.js"),
    examples: [
      "varmap slurm submit cv runs.csv --preset moana --reps 200 --shards 16 --max-running 8 --cpus-per-task 4 --time 2:00:00 --out cv-run",
      "varmap slurm wait cv-run    # blocks until merged; `varmap slurm status cv-run` says where it is",
    ],
    guide: "docs/guide/cluster.md",
  },
  interference: {
    file: () => import("./interference.js"),
    examples: [
      "varmap interference runs.csv --experiment experiment --app app --instance instance --factors fs,chunk_mib,procs --run rep --response bw_gbps --metric throughput --out pairs.csv",
      "varmap interference synth-runs.csv --preset interference --aggregate median --out pairs.csv     # roles of `varmap synth --design interference`",
    ],
    guide: "docs/guide/interference.md",
  },
  samplesize: {
    file: () => import("./samplesize.js"),
    examples: ["varmap samplesize runs.csv --preset iozone --out ss.csv --curves ss-curves.csv"],
    guide: "docs/guide/runs-needed.md",
  },
  convergence: {
    file: () => import("./convergence.js"),
    examples: ["varmap convergence runs.csv --preset moana --out conv.csv --curves conv-curves.csv"],
    guide: "docs/guide/runs-needed.md",
  },
  plot: {
    file: () => import("./plot.js"),
    examples: ["varmap plot heatmap runs.csv --preset moana --x threads --y freq_khz --out heatmap.png", "varmap plot are cv/are.csv --out are.svg"],
    guide: "docs/guide/plots.md",
  },
  report: { file: () => import("./report.js"), examples: ["varmap report cv --data runs.csv --preset moana --out report.html"], guide: "docs/guide/plots.md" },
  import: {
    file: () => import("./import.js"),
    examples: [
      "varmap import hyperfine results.json --out runs.parquet      # hyperfine --export-json results.json --parameter-scan …",
      "varmap import fio run-*.json --out runs.parquet      # one fio --output-format=json file per run",
    ],
    guide: "docs/guide/import.md",
  },
  screen: {
    file: () => import("./screen.js"),
    examples: ["varmap screen runs.csv --preset moana --out screen.csv --maps-out screen-maps.csv"],
    guide: "docs/guide/explain.md",
  },
  effects: {
    file: () => import("./effects.js"),
    examples: [
      "varmap effects runs.csv --preset moana --combine fsize_kb+rsize_kb --out anova.csv",
      "varmap effects runs.csv --preset moana --models models.json --importance-out importance.csv --pd-out pd.csv --out anova.csv",
    ],
    guide: "docs/guide/explain.md",
  },
  quantiles: {
    file: () => import("./quantiles.js"),
    examples: [
      "varmap quantiles runs.csv --preset moana --probs 0.5,0.99 --out quantiles.csv",
      "varmap quantiles runs.csv --preset moana --workers 2 --out quantiles/",
    ],
    guide: "docs/guide/runs-needed.md",
  },
  plan: {
    file: () => import("./plan.js"),
    examples: [
      'varmap plan --grid "threads=1,2,4,8,16;rsize_kb=4,64,1024" --budget-runs 300 --min-runs 5 --out batch.csv',
      "varmap plan --replay runs.csv --preset moana --reps 3 --out curves.csv",
    ],
    guide: "docs/guide/plan.md",
  },
};

/** The registrations of `verb` alone when it names one, else of every verb (help, a typo's "did you mean"). */
export async function loadCommands(verb?: string): Promise<CommandFile["register"][]> {
  const names = verb !== undefined && Object.hasOwn(VERBS, verb) ? [verb] : Object.keys(VERBS);
  const files = await Promise.all(names.map((name) => VERBS[name].file()));
  return files.map((f) => f.register);
}
