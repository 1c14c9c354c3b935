// The catalogue of every error code varmap raises: adding a code is one entry here (docs/errors.md is generated
// from this list by `npm run docs:errors`, and test/errors/catalogue.test.ts checks that every "E_…" literal in
// ts/ is listed). The message at a throw site says what and where; the remedy there is specific. The remedy here
// is the general one, printed in docs/errors.md.

/** Exit status of the CLI: 2 for bad input or usage (the user can fix it). Internal errors (bugs) exit 1. */
export type ExitStatus = 2;

export interface ErrorCodeEntry<C extends string = string> {
  code: C;
  exit: ExitStatus;
  /** One line: what went wrong. */
  meaning: string;
  /** What the user does about it (a site's remedy may be more specific). */
  remedy: string;
  /** Where it arises, to group docs/errors.md. */
  area: ErrorArea;
}

export type ErrorArea = "usage" | "input data" | "models and predictions" | "kernels" | "jobs and outputs" | "mixtures" | "extreme values" | "environment";
export const ERROR_AREAS: readonly ErrorArea[] = [
  "usage",
  "input data",
  "models and predictions",
  "kernels",
  "mixtures",
  "extreme values",
  "jobs and outputs",
  "environment",
];

const e = <C extends string>(area: ErrorArea, code: C, meaning: string, remedy: string): ErrorCodeEntry<C> => ({ code, exit: 2, meaning, remedy, area });

export const ERROR_CATALOGUE = [
  // usage: flags and options
  e(
    "usage",
    "E_USAGE",
    "a command-line flag is missing, malformed or out of range, or two flags conflict",
    "read the message for the flag and its allowed values; `varmap <verb> --help` lists them",
  ),
  e(
    "usage",
    "E_OPTION",
    "a predictor option (a hyperparameter) is out of its range",
    "pass a value in the range the message gives, or leave the option out for its default",
  ),
  e("usage", "E_METHOD", "an unknown prediction method was named", "use one of the methods `varmap fit --help` lists"),
  e(
    "usage",
    "E_BACKEND",
    "the requested compute backend is unknown or unavailable",
    "set the environment variable VARMAP_BACKEND to auto, native or wasm (the API takes a `backend` option); build the native addon with `npm run build:native`",
  ),
  // input data
  e("input data", "E_FILE_NOT_FOUND", "the input file cannot be read", "check the path"),
  e("input data", "E_EMPTY_FILE", "the input file is empty or has no data rows", "give a CSV with a header row and one row per run, or a Parquet file"),
  e(
    "input data",
    "E_BAD_FILE",
    "the file is neither readable CSV nor Parquet",
    "check the file format (CSV with a header row, or Parquet; the extension decides)",
  ),
  e(
    "input data",
    "E_IMPORT_JSON",
    "a benchmark tool's JSON output is malformed or cut short (varmap import, --format)",
    "write the file again with the tool (the message names the line and JSON path where reading stopped)",
  ),
  e(
    "input data",
    "E_IMPORT_FORMAT",
    "a benchmark tool's output lacks a field its format has, at the JSON path named (varmap import, --format)",
    "give the tool's own output, written with the options the message names",
  ),
  e(
    "input data",
    "E_IMPORT_RUN_FAILED",
    "a benchmark tool's output records a failed run (a fio job with an error, a Google Benchmark error)",
    "fix the failing job and run it again, or leave that file out",
  ),
  e(
    "input data",
    "E_IMPORT_NO_RUNS",
    "a benchmark tool's output has no per-run values (only aggregates or statistics)",
    "run the tool so that it writes every run (hyperfine times, --benchmark_repetitions without aggregates only, --benchmark-save-data)",
  ),
  e("input data", "E_IMPORT_MIXED", "files of another tool were given to `varmap import <tool>`", "import each tool's files with its own call"),
  e(
    "input data",
    "E_IMPORT_SELECTOR",
    "a result selector names no number in a tool's output",
    "give a JSON path to a number, or a column `varmap import` writes",
  ),
  e("input data", "E_BAD_CSV", "a CSV row is malformed (wrong number of fields, bad quoting)", "give every row the header's number of comma-separated fields"),
  e("input data", "E_READ", "a configurations file for prediction cannot be read", "give a CSV file with a header line, or a Parquet file"),
  e(
    "input data",
    "E_MISSING_COLUMN",
    "a column named by a flag or preset is not in the file",
    "name existing columns with --factors/--inputs/--response/--run/--id, or pick the right --preset",
  ),
  e(
    "input data",
    "E_COLUMN",
    "a column the models file needs is missing from the configurations to predict",
    "give every factor and input column the models were fitted with",
  ),
  e(
    "input data",
    "E_BAD_WHERE",
    "the --where predicate is not valid SQL over the file",
    'write a SQL boolean expression over the file\'s columns, e.g. --where "threads >= 8"',
  ),
  e("input data", "E_EMPTY_SELECTION", "--where selects no rows", "loosen the --where predicate"),
  e("input data", "E_EMPTY", "the data yield no variability maps", "check --where and the column flags"),
  e("input data", "E_NO_DATA", "no configuration has enough runs for the analysis", "give at least 2 runs per configuration"),
  e("input data", "E_BAD_RESPONSE", "a response value is not a finite number", "fix or remove the row, or exclude it with --where"),
  e(
    "input data",
    "E_NON_NUMERIC",
    "an input or run index is not a number",
    "fix the value, exclude the row with --where, or declare the column a factor with --factors",
  ),
  e(
    "input data",
    "E_EMPTY_FACTOR",
    "a factor value is empty, which would silently become a level of its own",
    "fill the value in, or exclude the row with --where (e.g. --where \"<factor> <> ''\")",
  ),
  e("input data", "E_NONFINITE", "a value is NaN or infinite where a finite number is needed", "remove or impute non-finite values"),
  e(
    "input data",
    "E_NONPOSITIVE_RESPONSE",
    "a response is zero or negative but a log scale or positive family needs it > 0",
    'remove or fix non-positive responses (e.g. --where "<response> > 0"), or use a scale or family that allows them',
  ),
  e(
    "input data",
    "E_NONPOSITIVE_INPUT",
    "an input listed in --log-inputs is zero or negative",
    "remove the column from --log-inputs, or exclude non-positive values with --where",
  ),
  e("input data", "E_LOG_INPUT", "a log2-scaled input column has a non-positive value", "log-scale only columns whose values are all positive"),
  e("input data", "E_LOG_RESPONSE", "a response is not positive but the response is log-scaled", "drop --log-response, or remove non-positive responses"),
  e("input data", "E_DUPLICATE_RUN", "a run index appears twice in one configuration", "give each run of a configuration its own index, or drop --run"),
  e(
    "input data",
    "E_DUPLICATE_CONFIGURATION",
    "a map table has several rows for one configuration",
    "aggregate the runs first, or drop --map to read one row per run",
  ),
  e(
    "input data",
    "E_TOO_FEW_RUNS",
    "every configuration has fewer runs than the chosen statistic needs",
    "give at least 2 runs per configuration, or use --stat mean",
  ),
  e(
    "input data",
    "E_SPLITS",
    "a splits file is unreadable or names rows the data do not have",
    'give a JSON file {"splits": [{"train": [...], "test": [...]}, ...]} whose indices are the map\'s --id values',
  ),
  e(
    "input data",
    "E_SHAPE",
    "a matrix or response vector has the wrong number of values",
    "give row-major data whose length is rows × cols and one response per row",
  ),
  // models and predictions
  e(
    "models and predictions",
    "E_MODEL_FORMAT",
    "a models file or a saved model state is not what varmap wrote",
    "pass the JSON file `varmap fit --out` (or toJSON()) wrote",
  ),
  e(
    "models and predictions",
    "E_MODEL_STATE",
    "a saved model state is inconsistent (e.g. a radius that is not positive)",
    "refit the model; the saved state is corrupt",
  ),
  e("models and predictions", "E_NOT_FITTED", "a model was asked to predict before it was fitted", "call fit(X, y) first"),
  e(
    "models and predictions",
    "E_NO_INPUTS",
    "no input varies among the training points: every input column is constant",
    "check --inputs and --where; a map whose configurations all share their inputs has nothing to predict from",
  ),
  e(
    "models and predictions",
    "E_NOTHING_FITTED",
    "the method could fit none of the maps (each was skipped with its reason)",
    "see the reasons printed above; use a method that needs fewer configurations, or more data",
  ),
  e(
    "models and predictions",
    "E_UNKNOWN_MAP",
    "a configuration to predict belongs to a map the models file has no model for",
    "predict only maps the models file has",
  ),
  e(
    "models and predictions",
    "E_TOO_FEW_POINTS",
    "too few training points for the method in this many dimensions",
    "add configurations to the training set, use fewer inputs, or ask for fewer neighbours",
  ),
  e(
    "models and predictions",
    "E_DUPLICATE_POINTS",
    "two training points have the same inputs",
    "aggregate repeated configurations into one row before fitting",
  ),
  e(
    "models and predictions",
    "E_DEGENERATE_DATA",
    "the training points lie in a lower-dimensional subspace of the inputs",
    "drop inputs that are constant or linear combinations of others, or add configurations that vary them",
  ),
  e(
    "models and predictions",
    "E_NO_CONVERGENCE",
    "an iterative search (Delaunay walk) did not converge",
    "rescale the inputs (e.g. --log-inputs) or remove nearly coincident points",
  ),
  e("models and predictions", "E_MARS_SINGULAR", "the MARS pruning regression is singular", "remove duplicated or constant inputs, or lower nk"),
  e(
    "models and predictions",
    "E_LSTSQ_NO_CONVERGENCE",
    "the SVD of a least-squares problem did not converge",
    "please report this with the input that triggers it",
  ),
  // kernels
  e(
    "kernels",
    "E_KERNEL_ARGUMENT",
    "inconsistent sizes or offsets were passed to a kernel (a bug in the caller)",
    "please report it with the command line that triggers it",
  ),
  e(
    "kernels",
    "E_ARGUMENT",
    "a kernel wrapper was called with arguments that do not fit together (a bug in the caller)",
    "please report it with the command line that triggers it",
  ),
  e("kernels", "E_NO_MEMORY", "a kernel ran out of memory", "process the data in smaller batches or use a machine with more memory"),
  e("kernels", "E_KERNEL_INTERNAL", "a kernel failed unexpectedly", "please report it with the input that triggers it"),
  e(
    "kernels",
    "E_KERNEL_STATUS",
    "a kernel returned a status code varmap does not know",
    "please report it (the native and wasm builds may be out of step: rebuild with `npm run build`)",
  ),
  // mixtures
  e("mixtures", "E_MIXTURE_NONPOSITIVE", "a run is zero or negative, but mixtures are fitted to positive measurements", "remove or correct non-positive runs"),
  e(
    "mixtures",
    "E_MIXTURE_MODEL",
    "a mixture family code or number of components is out of range",
    "use the families `varmap mixture --help` lists and k between 1 and 16",
  ),
  e("mixtures", "E_MIXTURE_TOO_FEW", "a configuration has fewer than 2 runs", "drop configurations with a single run before fitting mixtures"),
  // extreme values
  e("extreme values", "E_GEV_DEGENERATE", "a configuration has fewer than 3 distinct values: no spread to fit a GEV to", "drop the configuration (--where)"),
  e(
    "extreme values",
    "E_GEV_UNBOUNDED",
    "the GEV likelihood grows without bound as ξ → −1 (runs piled at an upper endpoint)",
    "check the data, or use --tail lower",
  ),
  e(
    "extreme values",
    "E_GEV_NOT_CONVERGED",
    "the GEV fit did not converge, or its information matrix is singular at the estimate",
    "check the runs for outliers or mixed regimes",
  ),
  // jobs and outputs
  e("jobs and outputs", "E_OUT", "--out exists and is not a directory", "give a directory path for --out"),
  e(
    "jobs and outputs",
    "E_OUT_MISMATCH",
    "--out holds the results of a different job (other data, options or shard)",
    "use a new --out directory, or pass --no-resume to discard its results and start over",
  ),
  e(
    "jobs and outputs",
    "E_OUT_DAMAGED",
    "--out holds a damaged manifest, so its results cannot be trusted to belong to this job",
    "pass --no-resume to discard them and start over, or use a new --out directory",
  ),
  e(
    "jobs and outputs",
    "E_MERGE",
    "the directories given to `varmap merge` are not the complete shards of one job",
    "pass the --out directories of all shard runs of one job, run with identical options",
  ),
  // environment: the operating system refused (mapped from its error codes in cli/program.ts)
  e(
    "environment",
    "E_NOT_FOUND",
    "a file or directory does not exist, or a part of its path is not a directory",
    "check the path (relative paths start from the current directory)",
  ),
  e(
    "environment",
    "E_PERMISSION",
    "permission denied, or the file system is read-only",
    "check the file's and its directory's permissions, or write elsewhere",
  ),
  e(
    "environment",
    "E_DISK_FULL",
    "the disk (or the quota) is full",
    "free some space or write to another file system, then run the same command again (jobs resume)",
  ),
  e("environment", "E_RESOURCES", "too many open files", "raise the limit (ulimit -n) or use fewer --workers"),
  // added with the verbs of the seed capabilities (samplesize, distributions, interference, plots, Slurm)
  e("kernels", "E_INTERNAL", "an internal consistency check failed", "this is a bug in varmap; please report it with the command and input"),
  e(
    "mixtures",
    "E_SINGULAR_INFORMATION",
    "the Fisher information of the chosen mixture is singular, so Γ_q(n) is undefined",
    "choose another model (--model FAMILY:K or best-unfloored), or use --method order-statistic",
  ),
  e(
    "mixtures",
    "E_FITS",
    "a fits table (from varmap mixture or refit) lacks a fit the command needs",
    "give the fits table the same data was fitted into, with the families and k it needs",
  ),
  e(
    "input data",
    "E_TRUTH",
    "a row of a --truth file (from varmap synth --truth) is not a valid mixture component",
    "give the file `varmap synth --truth` wrote for the same design and seed",
  ),
  e(
    "mixtures",
    "E_FITS_FORMAT",
    "the --fits file is not a fits table of varmap mixture or refit",
    "pass the --out table of `varmap mixture` or the distributions.csv of `varmap refit`",
  ),
  e("input data", "E_BAD_VALUE", "a value in an interference run or slice table is missing or not a valid number", "fix or remove the row the message names"),
  e(
    "input data",
    "E_NO_STANDALONE",
    "an interfered run has no standalone (alone) run of the same probe to compare with",
    "add the probe's standalone runs, or exclude the pair",
  ),
  e(
    "input data",
    "E_SLICES_MISSING",
    "time-slice analysis was asked for runs that have no slices",
    "give --slices a table with the runs' time slices, or drop the slice options",
  ),
  e("input data", "E_SLICES_UNMATCHED", "time slices name runs that are not in the run table", "give slices whose run ids appear in the run table"),
  e(
    "jobs and outputs",
    "E_OUT_LOCKED",
    "another varmap process is writing into the same output directory",
    "wait for it to finish, or use another --out; a lock left by a dead process is taken over automatically",
  ),
  e(
    "usage",
    "E_SHARD_INDEX",
    "the shard index from --shard or the scheduler's environment is outside 1..N",
    "give --shard i/N with 1 ≤ i ≤ N, or --shard auto with --shards N under an array job numbered from 1 (0 for Kubernetes)",
  ),
  e("usage", "E_NOT_SHARDABLE", "the verb given to `varmap slurm submit` cannot run as shards", "submit a verb that takes --shard (cv, refit, gev, …)"),
  e(
    "environment",
    "E_NO_SBATCH",
    "sbatch is not on PATH",
    "install Slurm's client (slurm-client) or run on a login node; --dry-run writes the scripts without submitting",
  ),
  e("environment", "E_SBATCH", "sbatch refused the job", "read sbatch's message; check the partition, time and memory options"),
  e(
    "environment",
    "E_INSTALL",
    "a file of the varmap installation is missing: the built CLI the job scripts call, a worker script, a .wasm module",
    "build varmap (npm run build) where it runs (for Slurm: on a file system the compute nodes see), then run the command again",
  ),
  e(
    "jobs and outputs",
    "E_SLURM_JOB",
    "the directory is not a `varmap slurm submit` output, or its job.json is damaged",
    "pass the --out directory of `varmap slurm submit`",
  ),
  e(
    "jobs and outputs",
    "E_SHARDS_INCOMPLETE",
    "some shards of a submitted job are not done, so they cannot be merged",
    "resubmit the shards `varmap slurm status` lists, then merge",
  ),
  e("usage", "E_PLOT_COLUMNS", "the table given to `varmap plot` lacks the columns the plot kind needs", "give the table the verb the message names writes"),
  e("usage", "E_PLOT_EMPTY", "the table has no rows to plot (after the selection flags)", "check the table and the selection flags"),
  e("usage", "E_PLOT_JOIN", "two tables of a plot do not share the keys that join them", "give tables written from the same data"),
  e("usage", "E_PLOT_CELLS", "the heatmap's axes do not identify single cells", "choose axes (and fixed values) that leave one value per cell"),
  e(
    "jobs and outputs",
    "E_REPORT_DIR",
    "the directory is not an output directory of refit, cv or demo",
    "pass the --out directory of varmap refit, cv or demo",
  ),
  e("kernels", "E_SYMEIG_NO_CONVERGENCE", "the symmetric eigendecomposition did not converge", "please report this with the input that triggers it"),
  e(
    "models and predictions",
    "E_TOO_MANY_POINTS",
    "the method's dense solve is limited in size and the map has more training points",
    "leave the local variant on (--gp-local, --rbf-local: the default above the exact limit), use lsp, delaunay or mars, or subsample",
  ),
  e(
    "models and predictions",
    "E_RBF_ILL_CONDITIONED",
    "the spline's linear system is singular or not finite even with smoothing",
    "remove duplicate configurations or rescale the inputs; or use another method",
  ),
  e(
    "kernels",
    "E_GP_NOT_POSITIVE_DEFINITE",
    "the Gaussian-process covariance matrix is not positive definite in floating point",
    "raise the nugget (--gp-nugget-min) or remove duplicate configurations",
  ),
  e("kernels", "E_GP_SINGULAR_MEAN", "the Gaussian-process mean basis is singular on the training set", "use --gp-mean constant"),
  e(
    "models and predictions",
    "E_GP_FIT_FAILED",
    "no start of the Gaussian-process hyperparameter search gave a positive definite covariance",
    "raise --gp-nugget-min, remove duplicate configurations, or use another method",
  ),
  e(
    "models and predictions",
    "E_NO_CALIBRATION",
    "predict --interval needs conformal residuals the models file does not have",
    "fit with --conformal-folds 10 (gp models give their own interval without it)",
  ),
  e(
    "input data",
    "E_LEAVE_OUT",
    "cv --leave-out names a column that is neither an input nor a factor of the data (or names none, or one twice)",
    "name the inputs or factors whose combinations to hold out, e.g. --leave-out fsize_kb,rsize_kb",
  ),
  e(
    "input data",
    "E_GROUP_FOLDS",
    "cv --group-folds asks for more folds than a map has groups",
    "use at most as many folds as groups, or leave --group-folds out for one division per group",
  ),
  // plan (issue 43): experiment campaigns
  e(
    "usage",
    "E_PLAN_EMPTY_SPACE",
    "the configuration space of `varmap plan` (--grid or --at) has no configuration",
    "give at least one value per column in --grid, or candidate rows in --at",
  ),
  e(
    "usage",
    "E_PLAN_BUDGET",
    "the budget of `varmap plan` is smaller than the first (space-filling) batch",
    "raise --budget-runs (or --budget-seconds), lower --min-runs, or narrow the space",
  ),
  e(
    "usage",
    "E_PLAN_TEMPLATE",
    "the --exec command template names a column that is not in the configuration space, or has no placeholder",
    "use {column} placeholders of the space's columns (and {run}, {seed})",
  ),
  e(
    "input data",
    "E_PLAN_SPACE_MISMATCH",
    "the runs file of a campaign holds configurations or columns that are not in the planned space",
    "give the runs file of this space, or the space those runs were measured on",
  ),
  e(
    "jobs and outputs",
    "E_PLAN_JOURNAL",
    "the campaign journal beside the runs file belongs to another campaign or is unreadable",
    "use a new --runs file for a new campaign, or remove the journal to start this one over",
  ),
  // slurm (issue 44 items 10, 12)
  e(
    "jobs and outputs",
    "E_SLURM_MOVED",
    "a `varmap slurm` job directory was moved or copied after submit: its scripts and queued tasks still write into the original",
    "resubmit from the original directory, or submit again into a new --out (status and merge read the directory given)",
  ),
  e(
    "jobs and outputs",
    "E_SLURM_WAIT_TIMEOUT",
    "`varmap slurm wait` (or submit --wait) gave up before the job was merged",
    "the job goes on in Slurm: wait again, or follow it with `varmap slurm status DIR`",
  ),
  e(
    "jobs and outputs",
    "E_DATA_MISMATCH",
    "`report --data` names runs that are not the ones the job directory was computed from (other maps or configuration counts)",
    "pass the job's own data file with the same column flags and --where the job was run with",
  ),
] as const satisfies readonly ErrorCodeEntry[];

/** Every code of the catalogue: a VarmapError takes one of these (the compiler checks each throw site). */
export type ErrorCode = (typeof ERROR_CATALOGUE)[number]["code"];

const BY_CODE = new Map<string, ErrorCodeEntry>(ERROR_CATALOGUE.map((entry) => [entry.code, entry]));

/** The catalogue entry of a code, or undefined for a code not (yet) catalogued. */
export function errorCode(code: string): ErrorCodeEntry | undefined {
  return BY_CODE.get(code);
}

/** The CLI's exit status for a VarmapError code (2 for any code: every VarmapError is bad input or usage). */
export function exitStatusOf(code: string): number {
  return BY_CODE.get(code)?.exit ?? 2;
}

/** docs/errors.md, generated from the catalogue. */
export function renderErrorsMarkdown(): string {
  const esc = (s: string) => s.replace(/\|/g, "\\|");
  const lines = [
    "# Error codes",
    "",
    "<!-- Generated from ts/errors/catalogue.ts by `npm run docs:errors`; do not edit by hand. -->",
    "",
    "Every failure a user can cause is reported as `varmap: error [E_CODE]: <where>: <what>. How to fix: <remedy>`",
    "and the command exits with the status below (2: bad input or usage). Any other failure is a bug in varmap: it",
    "prints `internal error` with a stack trace and exits 1.",
    "",
  ];
  for (const area of ERROR_AREAS) {
    const entries = ERROR_CATALOGUE.filter((x) => x.area === area);
    if (!entries.length) continue;
    lines.push(`## ${area[0].toUpperCase()}${area.slice(1)}`, "", "| Code | Exit | Meaning | Remedy |", "| --- | --- | --- | --- |");
    for (const x of entries) lines.push(`| \`${x.code}\` | ${x.exit} | ${esc(x.meaning)} | ${esc(x.remedy)} |`);
    lines.push("");
  }
  return lines.join("\n");
}
