// `varmap cv` as a job: tasks are chunks of divisions of one (map, method, p); a task's result is the ARE of each
// division. The writer gives per (map, method, p) the mean and sd of ARE over repetitions, and the Table 2
// summary (seed 000: ARE per training fraction and method, averaged over maps) as Markdown and CSV.
import { createHash } from "node:crypto";
import { join } from "node:path";
import { isVarmapError, VarmapError } from "../errors.js";
import { calibrate, conformalHalfWidth, conformalInterval, coverage, CV_CONFORMAL_FOLDS } from "../predict/conformal.js";
import { matrix, takeRows } from "../predict/matrix.js";
import { createPredictor } from "../predict/registry.js";
import { detailsOf, gatherValues, mapInputScaling } from "../cv/split.js";
import { csvRow, csvText, formatValue, roundResult, writeFileAtomic } from "../data/write.js";
import type { JobContext, JobDefinition } from "../pool/job.js";
import type { SplitsFile } from "../cv/splits.js";
import type { CellValue, Column } from "../data/write.js";
import { mapLabel, mapView, type SharedMaps } from "../data/shared-maps.js";
import { divisionStream, randomDivision } from "../cv/divisions.js";
import { mapSplitPredictor, scoreSplits, SplitPredictorCache, type MapData, type ScoredSplit, type SplitTrust } from "../cv/scoring.js";
import { cellReason, failedCount, honestTable2, skippedCount, type Table2Cell } from "../cv/table2.js";
import { mapsPlanBase, type MapsPlan } from "./maps-plan.js";
import { isNonNegativeStat, trustWarnings, type TrustCounts } from "../predict/trust.js";
import { isMoanaDesign, moanaComparison } from "../cv/paper.js";
import { guardedScales, scaleGuards, type ScaleGuard } from "../cv/scale-guard.js";
import { GROUP_CHUNK, groupedPlan, groupRows, runGroupTask, writeGrouped, type GroupedPlan } from "./cv-groups.js";

export interface CvPlan extends MapsPlan {
  verb: "cv";
  /** Generated divisions: for each p, reps random divisions keyed by (seed, map, p, rep). */
  generated?: { ps: number[]; reps: number; seed: string; repChunk: number };
  /** Given divisions (--splits): their (p, rep) labels; the training indices travel to the workers separately. */
  given?: { source: string; hash: string; labels: { p: number; rep: number }[]; chunk: number; predictions: boolean };
  /** Conformal interval level (`--interval`): each division also reports the coverage of its held-out points. */
  interval?: number;
  /** Group-out divisions (`--leave-out COLS`, issue 41): one per group (or fold of groups) of each map. */
  grouped?: GroupedPlan;
  /** Methods that set aside automatic transforms (ts/cv/scale-guard.ts): which ones. */
  scaleGuards?: Record<string, ScaleGuard>;
}

export type CvTask =
  | { id: string; kind: "cv-gen"; map: number; method: string; pIndex: number; r0: number; r1: number }
  | { id: string; kind: "cv-given"; map: number; method: string; s0: number; s1: number }
  | { id: string; kind: "cv-group"; map: number; method: string; d0: number; d1: number };

export interface CvContext extends JobContext<CvPlan> {
  maps: SharedMaps;
  /** Given splits (--splits): training row positions per map and split. */
  givenTrain?: number[][][];
  /** Row ids (the --id column) per map, for predictions.csv; default the row positions. */
  ids?: (number | string)[][];
}

export interface CvResult {
  /** ARE per repetition (or given split), rounded as files.ts documents; null where the method failed. */
  are: (number | null)[];
  /** Error codes of failed repetitions, by position in `are`. */
  errors?: Record<string, string>;
  /** One message per error code of this task (the first seen), for the reasons Table 2 lists. */
  messages?: Record<string, string>;
  /** Divisions not scored (empty training or test set), by position in `are`: the reason. Neither failed nor scored. */
  skipped?: Record<string, string>;
  /** Given splits with predictions requested: predictions at each split's test rows, rounded likewise. */
  pred?: number[][];
  /** The test rows' ids matching `pred`. */
  rows?: (number | string)[][];
  /** Per repetition (parallel to `are`; 0 where the method failed): test predictions, how many were extrapolated. */
  n?: number[];
  ext?: number[];
  /** Nonnegative statistic: negative predictions per repetition, and the ARE with them set to 0 (ts/predict/trust.ts). */
  neg?: number[];
  areClamped?: (number | null)[];
  /** Log response: predictions cut to the safe log range, per repetition. */
  log?: number[];
  /** With predictions: per split and test row, extrapolated (0/1), distance to the nearest training row, clamped (0/1). */
  pext?: number[][];
  pdist?: number[][];
  pclamp?: number[][];
  /** With an interval level: per division, the fraction of held-out truths inside its conformal interval (null: failed). */
  cover?: (number | null)[];
  /** Per division: 1 when its interval was unbounded (too few training points for the level: [0, ∞)), left out of cover. */
  unbounded?: number[];
  /** Per division: the median over its held-out points of hi/lo (null: none finite). */
  ratio?: (number | null)[];
}

/** Repetitions per task: enough work per task to amortize dispatch, small enough to balance and checkpoint often. */
export const REP_CHUNK = 25;
export const SPLIT_CHUNK = 20;
export const MAX_REPS = 100_000;
export const MAX_DIVISIONS = 50_000_000;

export type GivenSplits = SplitsFile;

export interface CvOptions {
  methods: string[];
  /** The map statistic (sd, var, …): a nonnegative one has its negative predictions counted and also scored clamped to 0. */
  stat?: string;
  methodOptions?: Record<string, Record<string, unknown>>;
  response: "linear" | "log";
  ps?: number[];
  reps?: number;
  seed?: string;
  splits?: GivenSplits;
  predictions?: boolean;
  /** Per map, the row ids the given splits refer to (the --id column); default the row positions. */
  ids?: (number | string)[][];
  /** Conformal interval level whose coverage each division reports (CV-conformal, CV_CONFORMAL_FOLDS inner folds). */
  interval?: number;
  /** Leave-one-group-out divisions by these columns (inputs or factors), optionally K folds of whole groups. */
  leaveOut?: string[];
  groupFolds?: number;
  /** Which transforms were chosen automatically (--log-inputs/--log-response auto): guarded methods set them aside. */
  autoTransforms?: ScaleGuard;
}

export function cvPlan(maps: SharedMaps, o: CvOptions): { plan: CvPlan; givenTrain?: number[][][] } {
  if (o.interval !== undefined && !(o.interval > 0 && o.interval < 1))
    throw new VarmapError("E_USAGE", `--interval ${o.interval} is not a coverage level in (0, 1)`, { remedy: "e.g. --interval 0.9" });
  const guards = o.autoTransforms && scaleGuards(o.methods, o.autoTransforms);
  const base = {
    ...mapsPlanBase(maps, o),
    verb: "cv" as const,
    ...(o.interval !== undefined ? { interval: o.interval } : {}),
    ...(guards ? { scaleGuards: guards } : {}),
  };
  if (o.leaveOut) {
    if (o.splits) throw new VarmapError("E_USAGE", "--leave-out and --splits both give the divisions", { remedy: "give one of them" });
    return { plan: { ...base, grouped: groupedPlan(maps, base.factors, o.leaveOut, o.groupFolds, o.seed ?? "1") } };
  }
  if (o.groupFolds !== undefined)
    throw new VarmapError("E_USAGE", "--group-folds needs --leave-out", { remedy: "name the group columns with --leave-out COLS" });
  if (!o.splits) {
    const reps = o.reps ?? 200;
    if (!Number.isInteger(reps) || reps < 1) throw new VarmapError("E_USAGE", `--reps ${reps} is not a positive integer`, { remedy: "e.g. --reps 200" });
    // The task list is held in memory: bound it (200 reps × 9 p × 117 maps × 4 methods is 842,400 divisions).
    const divisions = reps * (o.ps?.length ?? 1) * Math.max(1, maps.meta.length) * o.methods.length;
    if (reps > MAX_REPS || divisions > MAX_DIVISIONS)
      throw new VarmapError(
        "E_USAGE",
        `--reps ${reps} asks for ${divisions.toLocaleString("en")} divisions (at most ${MAX_REPS.toLocaleString("en")} per p and ${MAX_DIVISIONS.toLocaleString("en")} in all)`,
        {
          remedy: "use fewer repetitions; past a few hundred the mean ARE no longer moves (its standard error falls as 1/√reps)",
        },
      );
    return { plan: { ...base, generated: { ps: o.ps ?? [], reps, seed: o.seed ?? "1", repChunk: REP_CHUNK } } };
  }
  const sp = o.splits;
  const givenTrain = maps.meta.map((m, mi) => {
    const ids = o.ids?.[mi];
    const pos = new Map<string, number>();
    for (let r = 0; r < m.rows; r++) pos.set(String(ids ? ids[r] : r), r);
    return sp.splits.map((s, si) =>
      s.train.map((id) => {
        const r = pos.get(String(id));
        if (r === undefined)
          throw new VarmapError("E_SPLITS", `split ${si} (p=${s.p}, rep=${s.rep}) names row ${id}, which map ${mi + 1} of ${m.rows} rows does not have`, {
            location: { file: sp.source },
            remedy: "give splits whose indices are the map's --id values (or row positions 0..n−1 without --id)",
          });
        return r;
      }),
    );
  });
  const hash = createHash("sha256").update(JSON.stringify(sp.splits)).digest("hex").slice(0, 32);
  return {
    plan: {
      ...base,
      given: { source: sp.source, hash, labels: sp.splits.map((s) => ({ p: s.p, rep: s.rep })), chunk: SPLIT_CHUNK, predictions: !!o.predictions },
    },
    givenTrain,
  };
}

interface Cell extends Table2Cell {
  counts: TrustCounts;
}

/** Whether the plan's negative predictions are clamped (and scored both ways): a nonnegative statistic on a linear scale. */
export function clampsNegative(plan: CvPlan): boolean {
  return plan.response === "linear" && isNonNegativeStat(plan.stat);
}

/** The ARE values of every (map, method, p), in task order, from the tasks' results. */
function cells(plan: CvPlan, results: ReadonlyMap<string, unknown>): Cell[] {
  const byKey = new Map<string, Cell>();
  const out: Cell[] = [];
  const cell = (map: number, method: string, p: number): Cell => {
    const k = `${map}\u0000${method}\u0000${p}`;
    let c = byKey.get(k);
    if (!c)
      byKey.set(
        k,
        (c = {
          map,
          method,
          p,
          values: [],
          clamped: [],
          errors: {},
          messages: {},
          skipped: {},
          counts: { predictions: 0, extrapolated: 0, negative: 0, logClamped: 0, missing: 0 },
        }),
      ),
        out.push(c);
    return c;
  };
  // One repetition's value and warning counts into its cell (results written before the counts existed count 0).
  const add = (c: Cell, r: CvResult, i: number): void => {
    const v = r.are[i];
    const skip = r.skipped?.[String(i)];
    if (skip !== undefined) return void (c.skipped[skip] = (c.skipped[skip] ?? 0) + 1);
    if (v === null) {
      // Results written before codes were kept count as failures of an unknown kind.
      const code = r.errors?.[String(i)] ?? "failed";
      c.errors[code] = (c.errors[code] ?? 0) + 1;
      const message = r.messages?.[code];
      if (message !== undefined && c.messages[code] === undefined) c.messages[code] = message;
      return;
    }
    c.values.push(v);
    c.clamped.push(r.areClamped?.[i] ?? v);
    c.counts.predictions += r.n?.[i] ?? 0;
    c.counts.extrapolated += r.ext?.[i] ?? 0;
    c.counts.negative += r.neg?.[i] ?? 0;
    c.counts.logClamped += r.log?.[i] ?? 0;
  };
  for (const t of cvTasks(plan)) {
    const r = results.get(t.id) as CvResult | undefined;
    if (!r) throw new Error(`internal: no result for task ${t.id}`);
    if (t.kind === "cv-gen") {
      const c = cell(t.map, t.method, plan.generated!.ps[t.pIndex]);
      r.are.forEach((_, i) => add(c, r, i));
    } else if (t.kind === "cv-given") {
      r.are.forEach((_, i) => add(cell(t.map, t.method, plan.given!.labels[t.s0 + i].p), r, i));
    }
  }
  // Given splits may list p values in any order: report them ascending, as generated ones are.
  return out.sort((a, b) => a.map - b.map || plan.methods.indexOf(a.method) - plan.methods.indexOf(b.method) || a.p - b.p);
}

function sum(mask: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < mask.length; i++) n += mask[i];
  return n;
}

function mean(v: readonly number[]): number {
  let s = 0;
  for (const x of v) s += x;
  return v.length ? s / v.length : NaN;
}

function sd(v: readonly number[]): number {
  if (v.length < 2) return NaN;
  const m = mean(v);
  let s = 0;
  for (const x of v) s += (x - m) * (x - m);
  return Math.sqrt(s / (v.length - 1));
}

export const CV_FILES = ["are.csv", "table2.csv", "table2.md"];

export const job: JobDefinition<CvPlan, CvTask, CvContext> = {
  verb: "cv",
  module: import.meta.url,
  tasks: cvTasks,
  run: runCvTask,
  files(plan) {
    if (plan.grouped) return CV_FILES;
    return [...CV_FILES, ...(plan.given?.predictions ? ["predictions.csv"] : []), ...(plan.interval !== undefined ? ["coverage.csv"] : [])];
  },
  write(plan, results, dir) {
    if (plan.grouped) {
      const factorsOf = (map: number) => Object.fromEntries(plan.factors.map((f, i) => [f, plan.maps[map].values[i]]));
      const tasks = cvTasks(plan).filter((t): t is CvTask & { kind: "cv-group" } => t.kind === "cv-group");
      const rows = groupRows(plan.grouped, plan.methods, tasks, results, (m) => mapLabel(factorsOf(m)));
      return {
        ...writeGrouped(
          plan.grouped,
          {
            methods: plan.methods,
            factors: plan.factors,
            mapValues: plan.maps.map((m) => m.values),
            interval: plan.interval,
            clamps: clampsNegative(plan),
            stat: plan.stat,
          },
          rows,
          dir,
        ),
        methodList: plan.methods,
      };
    }
    const cs = cells(plan, results);
    // are_mean/are_sd are the papers' figures (negative predictions scored as they are); the columns after them are
    // the trust counts and the ARE with negative predictions of a nonnegative statistic set to 0.
    const rows = cs.map((c) => [
      ...plan.maps[c.map].values,
      c.method,
      c.p,
      c.values.length,
      failedCount(c),
      mean(c.values),
      sd(c.values),
      c.counts.predictions,
      c.counts.extrapolated,
      c.counts.negative + c.counts.logClamped,
      mean(c.clamped),
      sd(c.clamped),
      skippedCount(c),
      cellReason(c) || (infiniteAre(c.values) ? INFINITE_ARE_REASON : ""),
    ]);
    writeFileAtomic(
      join(dir, "are.csv"),
      csvText(
        [
          ...plan.factors,
          "method",
          "p",
          "reps",
          "failed",
          "are_mean",
          "are_sd",
          "predictions",
          "extrapolated",
          "clamped",
          "are_clamped_mean",
          "are_clamped_sd",
          "skipped",
          "reason",
        ],
        rows,
      ),
    );

    // Table 2: for each p and method, the mean over maps of the per-map mean ARE, over the same maps for every method
    // (ts/cv/table2.ts: a map where some method failed every division is left out of the row and listed). Beside it,
    // the median and quartiles of the ARE of every division of those maps (the spread a single mean hides), and with
    // a nonnegative statistic the mean ARE with negative predictions clamped to 0.
    const clamps = clampsNegative(plan);
    const honest = honestTable2(cs, plan.methods);
    const table = honest.rows.map((h) => {
      const row: Record<string, number> = { p: h.p };
      for (const m of plan.methods) {
        const f = h.methods[m];
        row[m] = f.are;
        row[`${m}\u0000median`] = f.median;
        row[`${m}\u0000q25`] = f.q25;
        row[`${m}\u0000q75`] = f.q75;
        row[`${m}\u0000clamped`] = f.clamped;
      }
      return row;
    });
    const extra = (m: string): string[] => [`${m}\u0000median`, `${m}\u0000q25`, `${m}\u0000q75`, ...(clamps ? [`${m}\u0000clamped`] : [])];
    // Named <what>_are_<method>: readers that take every are_<method> column for a method (the report, plot are) are unaffected.
    const csvName = (k: string): string => {
      const [m, what] = k.split("\u0000");
      return `${what}_are_${m}`;
    };
    // After the figures, how each row was made: maps averaged, maps left out, divisions skipped (empty training or
    // test set), and per method its failed maps and divisions (names without the are_ prefix the readers key on).
    const counts = (m: string): string[] => [`failed_maps_${m}`, `failed_divisions_${m}`];
    writeFileAtomic(
      join(dir, "table2.csv"),
      csvText(
        [
          "p",
          ...plan.methods.map((m) => `are_${m}`),
          ...plan.methods.flatMap((m) => extra(m).map(csvName)),
          "maps",
          "maps_left_out",
          "skipped_divisions",
          ...plan.methods.flatMap(counts),
        ],
        table.map((r, i) => {
          const h = honest.rows[i];
          return [
            r.p,
            ...plan.methods.map((m) => r[m]),
            ...plan.methods.flatMap((m) => extra(m).map((k) => r[k])),
            h.maps,
            h.leftOut,
            h.skippedDivisions,
            ...plan.methods.flatMap((m) => [h.methods[m].failedMaps, h.methods[m].failedDivisions]),
          ];
        }),
      ),
    );
    const reps = plan.generated
      ? `${plan.generated.reps} random divisions per p (seed ${plan.generated.seed})`
      : `the ${plan.given!.labels.length} divisions of ${plan.given!.source}`;
    const pct = (x: number): string => (Number.isFinite(x) ? (100 * x).toFixed(2) : "—");
    const warnings = Object.fromEntries(
      plan.methods.map((m) => [
        m,
        cs
          .filter((c) => c.method === m)
          .reduce<TrustCounts>(
            (a, c) => {
              a.predictions += c.counts.predictions;
              a.extrapolated += c.counts.extrapolated;
              a.negative += c.counts.negative;
              a.logClamped += c.counts.logClamped;
              a.missing += c.counts.missing;
              return a;
            },
            { predictions: 0, extrapolated: 0, negative: 0, logClamped: 0, missing: 0 },
          ),
      ]),
    );
    const warningLines = plan.methods.flatMap((m) => trustWarnings(warnings[m], m));
    // A held-out configuration whose measured statistic is 0 (sd 0: all its runs equal) has an infinite relative
    // error: every such ARE is Infinity with nothing failed. Said once, with the cells it touches (issue 44).
    const infinite = cs.filter((c) => infiniteAre(c.values));
    if (infinite.length)
      warningLines.push(
        `${infinite.length} of ${cs.length} cell(s) of are.csv have an infinite ARE with no division failed: ${INFINITE_ARE_REASON} (maps ${[
          ...new Set(infinite.map((c) => mapLabel(Object.fromEntries(plan.factors.map((f, i) => [f, plan.maps[c.map].values[i]]))) || `map ${c.map + 1}`)),
        ]
          .slice(0, 5)
          .join("; ")}); drop those configurations (--where) or fit another statistic`,
      );
    const baselines = plan.methods.includes("mean")
      ? ["`mean` is the constant baseline (every held-out configuration predicted by the training mean), not an average of the other columns."]
      : [];
    const md = [
      `# Cross-validated ARE (Table 2)`,
      ``,
      `Mean absolute relative error of predicting the held-out configurations, in percent, averaged over ${plan.maps.length} map(s) and ${reps}. Training fraction p. (are.csv and table2.csv hold the same errors as fractions — 0.1436 there is 14.36 here; every column: docs/guide/output-columns.md.)`,
      ``,
      `| p | ${plan.methods.join(" | ")} |`,
      `|---|${plan.methods.map(() => "---:").join("|")}|`,
      ...table.map((r) => `| ${formatValue(r.p)} | ${plan.methods.map((m) => pct(r[m])).join(" | ")} |`),
      ``,
      `## Spread: median [q25 – q75] of the ARE of every division of every map, in percent`,
      ``,
      `| p | ${plan.methods.join(" | ")} |`,
      `|---|${plan.methods.map(() => "---:").join("|")}|`,
      ...table.map(
        (r) =>
          `| ${formatValue(r.p)} | ${plan.methods.map((m) => (Number.isFinite(r[`${m}\u0000median`]) ? `${pct(r[`${m}\u0000median`])} [${pct(r[`${m}\u0000q25`])} – ${pct(r[`${m}\u0000q75`])}]` : "—")).join(" | ")} |`,
      ),
      ``,
      ...(clamps
        ? [
            `## Mean ARE with negative predictions clamped to 0, in percent`,
            ``,
            `The tables above score predictions as the methods return them (the papers' figures, kept for comparison). A negative ${plan.stat} is no answer: \`varmap predict\` sets it to 0 and flags it; scored that way:`,
            ``,
            `| p | ${plan.methods.join(" | ")} |`,
            `|---|${plan.methods.map(() => "---:").join("|")}|`,
            ...table.map((r) => `| ${formatValue(r.p)} | ${plan.methods.map((m) => pct(r[`${m}\u0000clamped`])).join(" | ")} |`),
            ``,
          ]
        : []),
      ...(isMoanaDesign(plan) ? moanaComparison(table, plan.methods, pct) : []),
      ...coverageLines(plan, honest, table),
      `## Legend`,
      ``,
      `- Each cell of the first table is the mean over maps of the map's mean ARE over its scored divisions, over the same maps for every method: a map where some method failed every division at p is left out of that row for all methods (listed above with the reason).`,
      ...baselines.map((b) => `- ${b}`),
      `- — : no value (no map was scored by every method at that p, e.g. too few training points for one of them; are.csv counts the failures and gives the reasons).`,
      `- Divisions with an empty training or test set (a small map at an extreme p) are not scored: they are skipped and counted, neither failures nor errors of 0 % or 100 %.`,
      ``,
      `## Warnings`,
      ``,
      ...(warningLines.length ? warningLines.map((l) => `- ${l}`) : ["- none: no prediction was extrapolated, clamped or missing."]),
      `- extrapolated = outside the training inputs (Delaunay: its convex hull; other methods: their bounding box). Counts per cell in are.csv.`,
      ``,
    ].join("\n");
    writeFileAtomic(join(dir, "table2.md"), md);

    if (plan.given?.predictions) writePredictions(plan, results, dir);
    const coverage = plan.interval !== undefined ? writeCoverage(plan, results, dir) : undefined;
    const perMap = plan.maps.map((m, i) => ({
      key: Object.fromEntries(plan.factors.map((f, k) => [f, m.values[k]])),
      rows: m.rows,
      methods: Object.fromEntries(
        plan.methods.map((method) => [
          method,
          cs
            .filter((c) => c.map === i && c.method === method)
            .map((c) => ({
              p: c.p,
              splits: c.values.length,
              failed: failedCount(c),
              skipped: skippedCount(c),
              are: roundResult(mean(c.values)),
              sd: roundResult(sd(c.values)),
            })),
        ]),
      ),
    }));
    // The JSON summary carries the figures as the CSV files write them (RESULT_DIGITS), not a mean's float noise.
    const table2 = table.map((r) =>
      Object.fromEntries(
        Object.entries(r)
          .filter(([k]) => !k.includes("\u0000"))
          .map(([k, v]) => [k, roundResult(v)]),
      ),
    );
    const spread = table.map((r) => ({
      p: r.p,
      ...Object.fromEntries(
        plan.methods.map((m) => [
          m,
          {
            median: roundResult(r[`${m}\u0000median`]),
            q25: roundResult(r[`${m}\u0000q25`]),
            q75: roundResult(r[`${m}\u0000q75`]),
            ...(clamps ? { clamped: roundResult(r[`${m}\u0000clamped`]) } : {}),
          },
        ]),
      ),
    }));
    const leftOut = honest.leftOut.map((l) => ({
      key: Object.fromEntries(plan.factors.map((f, k) => [f, plan.maps[l.map].values[k]])),
      p: l.p,
      reasons: Object.fromEntries(Object.entries(l.reasons).filter(([, why]) => why !== "")),
    }));
    const rowsBehind = honest.rows.map((h) => ({
      p: h.p,
      maps: h.maps,
      leftOut: h.leftOut,
      skippedDivisions: h.skippedDivisions,
      failed: Object.fromEntries(plan.methods.map((m) => [m, { maps: h.methods[m].failedMaps, divisions: h.methods[m].failedDivisions }])),
    }));
    return {
      table2,
      spread,
      rows: rowsBehind,
      leftOut,
      skippedDivisions: cs.filter((c) => c.method === plan.methods[0]).reduce((s, c) => s + skippedCount(c), 0),
      maps: perMap,
      methods: plan.methods,
      failedSplits: cs.reduce((s, c) => s + failedCount(c), 0),
      warnings,
      warningLines,
      ...(coverage ? { interval: plan.interval, coverage } : {}),
    };
  },
};

const INFINITE_ARE_REASON = "a held-out configuration's measured statistic is 0 (e.g. sd 0: all its runs equal), so its relative error is infinite";

/** Some scored division's ARE is ±Infinity (a zero truth; not a failure). */
function infiniteAre(values: readonly (number | null)[]): boolean {
  return values.some((v) => v !== null && !Number.isFinite(v) && !Number.isNaN(v));
}

/** Table 2's accounting in Markdown: maps and divisions behind each row, and the maps left out with their reasons. */
function coverageLines(plan: CvPlan, honest: ReturnType<typeof honestTable2>, table: readonly Record<string, number>[]): string[] {
  const name = (map: number): string => mapLabel(Object.fromEntries(plan.factors.map((f, i) => [f, plan.maps[map].values[i]]))) || `map ${map + 1}`;
  const shown = honest.leftOut.slice(0, LEFT_OUT_SHOWN);
  return [
    `## Maps and divisions behind each row`,
    ``,
    `| p | maps averaged | maps left out | skipped divisions | ${plan.methods.map((m) => `${m} failed maps / divisions`).join(" | ")} |`,
    `|---|---:|---:|---:|${plan.methods.map(() => "---:").join("|")}|`,
    ...honest.rows.map(
      (h, i) =>
        `| ${formatValue(table[i].p)} | ${h.maps} | ${h.leftOut} | ${h.skippedDivisions} | ${plan.methods.map((m) => `${h.methods[m].failedMaps} / ${h.methods[m].failedDivisions}`).join(" | ")} |`,
    ),
    ``,
    ...(honest.leftOut.length
      ? [
          `### Maps left out`,
          ``,
          `| map | p | ${plan.methods.join(" | ")} |`,
          `|---|---:|${plan.methods.map(() => "---").join("|")}|`,
          ...shown.map(
            (l) => `| ${name(l.map)} | ${formatValue(l.p)} | ${plan.methods.map((m) => (l.reasons[m] || "scored").replaceAll("|", "\\|")).join(" | ")} |`,
          ),
          ...(honest.leftOut.length > shown.length ? [``, `… and ${honest.leftOut.length - shown.length} more (are.csv: column reason).`] : []),
          ``,
        ]
      : []),
  ];
}

/** Rows of the left-out list in table2.md (all of them are in are.csv and the JSON summary). */
const LEFT_OUT_SHOWN = 50;

/**
 * Predictions for given splits as columns: [factor columns,] p, rep, index (the test row's id), [method,] prediction;
 * splits in file order, test rows ascending — the format of `varmap cv --splits … --predictions`.
 */
export function predictionColumns(plan: CvPlan, results: ReadonlyMap<string, unknown>): Column[] {
  const methodCol = plan.methods.length > 1;
  const f: string[][] = plan.factors.map(() => []);
  const p: number[] = [],
    rep: number[] = [],
    index: CellValue[] = [],
    method: string[] = [],
    pred: number[] = [],
    ext: number[] = [],
    dist: number[] = [],
    clamp: number[] = [];
  for (const t of cvTasks(plan)) {
    if (t.kind !== "cv-given") continue;
    const r = results.get(t.id) as CvResult;
    r.pred!.forEach((values, i) => {
      const lab = plan.given!.labels[t.s0 + i];
      values.forEach((v, j) => {
        plan.factors.forEach((_, k) => f[k].push(plan.maps[t.map].values[k]));
        p.push(lab.p);
        rep.push(lab.rep);
        index.push(r.rows![i][j]);
        method.push(t.method);
        pred.push(v);
        ext.push(r.pext?.[i]?.[j] ?? 0);
        dist.push(r.pdist?.[i]?.[j] ?? NaN);
        clamp.push(r.pclamp?.[i]?.[j] ?? 0);
      });
    });
  }
  return [
    ...plan.factors.map((name, k) => ({ name, values: f[k], type: "string" as const })),
    { name: "p", values: p },
    { name: "rep", values: Int32Array.from(rep), type: "int" as const },
    { name: "index", values: index },
    ...(methodCol ? [{ name: "method", values: method, type: "string" as const }] : []),
    { name: "prediction", values: Float64Array.from(pred) },
    // How far to trust each (ts/predict/trust.ts). `prediction` stays as the method returned it (the papers score it so);
    // clamped = 1 marks a negative value of a nonnegative statistic (predict would give 0) or a log-range cut (applied).
    { name: "extrapolated", values: Int32Array.from(ext), type: "int" as const },
    { name: "distance", values: Float64Array.from(dist) },
    { name: "clamped", values: Int32Array.from(clamp), type: "int" as const },
  ];
}

/**
 * coverage.csv: per (map, method, p) the mean over divisions of the fraction of held-out truths inside the
 * conformal interval; returns the same averaged over maps, per method and p (the summary's `coverage`).
 */
function writeCoverage(
  plan: CvPlan,
  results: ReadonlyMap<string, unknown>,
  dir: string,
): { method: string; p: number; coverage: number; divisions: number; unbounded: number }[] {
  const byKey = new Map<string, { map: number; method: string; p: number; values: number[]; unbounded: number; ratios: number[] }>();
  const add = (map: number, method: string, p: number, v: number | null, unbounded: number, ratio: number | null) => {
    const k = `${map}\u0000${method}\u0000${p}`;
    let c = byKey.get(k);
    if (!c) byKey.set(k, (c = { map, method, p, values: [], unbounded: 0, ratios: [] }));
    if (v !== null) c.values.push(v);
    c.unbounded += unbounded;
    if (ratio !== null) c.ratios.push(ratio);
  };
  for (const t of cvTasks(plan)) {
    if (t.kind === "cv-group") continue;
    const r = results.get(t.id) as CvResult;
    (r.cover ?? []).forEach((v, i) =>
      add(t.map, t.method, t.kind === "cv-gen" ? plan.generated!.ps[t.pIndex] : plan.given!.labels[t.s0 + i].p, v, r.unbounded?.[i] ?? 0, r.ratio?.[i] ?? null),
    );
  }
  const med = (v: number[]): number | string => {
    if (!v.length) return "";
    const s = [...v].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) / 2] : 0.5 * (s[s.length / 2 - 1] + s[s.length / 2]);
  };
  const cs = [...byKey.values()].sort((a, b) => a.map - b.map || plan.methods.indexOf(a.method) - plan.methods.indexOf(b.method) || a.p - b.p);
  writeFileAtomic(
    join(dir, "coverage.csv"),
    csvText(
      // divisions/coverage: the divisions with a bounded interval; unbounded: those whose interval was [0, ∞) (too few
      // training points for the level), apart; median_hi_lo_ratio: the median over divisions of their median hi/lo.
      [...plan.factors, "method", "p", "level", "divisions", "coverage", "unbounded", "median_hi_lo_ratio"],
      cs.map((c) => [...plan.maps[c.map].values, c.method, c.p, plan.interval!, c.values.length, mean(c.values), c.unbounded, med(c.ratios)]),
    ),
  );
  const out: { method: string; p: number; coverage: number; divisions: number; unbounded: number }[] = [];
  for (const method of plan.methods)
    for (const p of [...new Set(cs.map((c) => c.p))].sort((a, b) => a - b)) {
      const these = cs.filter((c) => c.method === method && c.p === p);
      const values = these.flatMap((c) => c.values);
      out.push({ method, p, coverage: mean(values), divisions: values.length, unbounded: these.reduce((a, c) => a + c.unbounded, 0) });
    }
  return out;
}

function writePredictions(plan: CvPlan, results: ReadonlyMap<string, unknown>, dir: string): void {
  const cols = predictionColumns(plan, results);
  const n = cols[0].values.length;
  const lines = [csvRow(cols.map((c) => c.name))];
  for (let i = 0; i < n; i++) lines.push(csvRow(cols.map((c) => c.values[i] as string | number)));
  writeFileAtomic(join(dir, "predictions.csv"), lines.join("\n") + "\n");
}

export function cvTasks(plan: CvPlan): CvTask[] {
  const tasks: CvTask[] = [];
  plan.maps.forEach((_, map) => {
    for (const method of plan.methods) {
      if (plan.grouped) {
        const n = plan.grouped.maps[map].divisions;
        for (let d0 = 0; d0 < n; d0 += GROUP_CHUNK)
          tasks.push({ id: `cvg/${map}/${method}/${d0}`, kind: "cv-group", map, method, d0, d1: Math.min(n, d0 + GROUP_CHUNK) });
      } else if (plan.generated) {
        const { ps, reps, repChunk } = plan.generated;
        ps.forEach((_p, pIndex) => {
          for (let r0 = 0; r0 < reps; r0 += repChunk)
            tasks.push({ id: `cv/${map}/${method}/${pIndex}/${r0}`, kind: "cv-gen", map, method, pIndex, r0, r1: Math.min(reps, r0 + repChunk) });
        });
      } else if (plan.given) {
        const n = plan.given.labels.length;
        for (let s0 = 0; s0 < n; s0 += plan.given.chunk)
          tasks.push({ id: `cvs/${map}/${method}/${s0}`, kind: "cv-given", map, method, s0, s1: Math.min(n, s0 + plan.given.chunk) });
      }
    }
  });
  return tasks;
}

// Per worker context, its recent split predictors (LSP's neighbour table of a map serves all its tasks).
const predictorCaches = new WeakMap<CvContext, SplitPredictorCache>();

function cachedPredictor(ctx: CvContext, map: MapData, mapIndex: number, method: string, hyper: Record<string, unknown>, response: "linear" | "log") {
  let cache = predictorCaches.get(ctx);
  if (!cache) predictorCaches.set(ctx, (cache = new SplitPredictorCache()));
  const plan = ctx.plan;
  // Every split of this map and method in the job, across the worker's tasks.
  const splits = plan.given ? plan.given.labels.length : plan.generated!.ps.length * plan.generated!.reps;
  return cache.get(JSON.stringify([mapIndex, method, response, hyper]), () => mapSplitPredictor(map, method, response, hyper, splits));
}

// Per worker context, the divisions of its recent generated tasks by (map, p, reps): the other methods' tasks of the
// same chunk draw the same divisions, so a worker that runs several of them draws them once. Read only once drawn.
const divisionCaches = new WeakMap<CvContext, Map<string, readonly Division[]>>();
type Division = { train: Int32Array; test: Int32Array };
/** Chunks kept: a map's 9 p × 8 chunks (200 reps) for a few maps, about 80 kB each at 800 rows. */
const DIVISION_CACHE_CHUNKS = 256;

function cachedDivisions(ctx: CvContext, task: CvTask & { kind: "cv-gen" }, draw: () => Division[]): readonly Division[] {
  let cache = divisionCaches.get(ctx);
  if (!cache) divisionCaches.set(ctx, (cache = new Map()));
  const key = `${task.map}/${task.pIndex}/${task.r0}/${task.r1}`;
  let hit = cache.get(key);
  if (!hit) {
    cache.set(key, (hit = draw()));
    if (cache.size > DIVISION_CACHE_CHUNKS) cache.delete(cache.keys().next().value!);
  }
  return hit;
}

export function runCvTask(ctx: CvContext, task: CvTask): CvResult | ReturnType<typeof runGroupTask> {
  const plan = ctx.plan;
  if (task.kind === "cv-group")
    return runGroupTask(
      ctx.maps,
      plan.grouped!,
      {
        method: task.method,
        response: plan.response,
        guard: plan.scaleGuards?.[task.method],
        hyper: plan.methodOptions?.[task.method] ?? {},
        interval: plan.interval,
        clamps: isNonNegativeStat(plan.stat) && (plan.scaleGuards?.[task.method]?.response ? "linear" : plan.response) === "linear",
        factors: plan.factors,
        mapValues: plan.maps[task.map].values,
      },
      task.map,
      task.d0,
      task.d1,
    );
  // A guarded method (ts/cv/scale-guard.ts) runs on the raw scales where the transforms were automatic.
  const { map, response } = guardedScales(mapView(ctx.maps, task.map), plan.response, plan.scaleGuards?.[task.method]);
  const out: CvResult = { are: [], n: [], ext: [] };
  const clamps = response === "linear" && isNonNegativeStat(plan.stat);
  if (clamps) (out.neg = []), (out.areClamped = []);
  if (response === "log") out.log = [];
  const request = { nonNegative: clamps, distance: plan.given?.predictions === true };
  // Per repetition: its trust counts (zeros where the method failed).
  const record = (r: { pred: Float64Array; trust?: SplitTrust } | null): void => {
    const t = r?.trust;
    out.n!.push(r ? r.pred.length : 0);
    out.ext!.push(t ? sum(t.extrapolated) : 0);
    out.neg?.push(t ? sum(t.negative) : 0);
    out.areClamped?.push(t ? roundResult(t.areClamped) : null);
    out.log?.push(t ? sum(t.logClamped) : 0);
  };
  const hyper = plan.methodOptions?.[task.method] ?? {};
  const predictorFor = () => cachedPredictor(ctx, map, task.map, task.method, hyper, response);
  const fail = (i: number, code: string, message?: string): void => {
    out.are.push(null);
    (out.errors ??= {})[String(i)] = code;
    if (message !== undefined) (out.messages ??= {})[code] ??= message;
  };
  const skip = (i: number, why: string): void => {
    out.are.push(null);
    (out.skipped ??= {})[String(i)] = why;
  };
  if (task.kind === "cv-gen") {
    const g = plan.generated!;
    const p = g.ps[task.pIndex];
    const divisions = cachedDivisions(ctx, task, () => {
      const label = mapLabel(Object.fromEntries(plan.factors.map((f, i) => [f, plan.maps[task.map].values[i]])));
      const drawn = [];
      for (let rep = task.r0; rep < task.r1; rep++) {
        // Keyed by the map's name, p and rep, not by method: every method sees the same divisions (paired comparison).
        const stream = divisionStream(g.seed, label, p, rep);
        drawn.push(randomDivision(map.rows, p, stream));
      }
      return drawn;
    });
    const scores = scoreSplits(map, divisions, task.method, response, hyper, predictorFor(), request);
    scores.forEach((r, i) => {
      if ("skipped" in r) skip(i, r.skipped), record(null);
      else if ("error" in r) fail(i, r.error, r.message), record(null);
      else out.are.push(roundResult(r.are)), record(r);
    });
    if (plan.interval !== undefined)
      ({ cover: out.cover, unbounded: out.unbounded, ratio: out.ratio } = coverOf(map, divisions, scores, task.method, response, hyper, plan.interval));
    return out;
  }
  const want = plan.given!.predictions;
  if (want) (out.pred = []), (out.rows = []), (out.pext = []), (out.pdist = []), (out.pclamp = []);
  const ids = ctx.ids?.[task.map];
  const divisions = [];
  for (let s = task.s0; s < task.s1; s++) {
    const trainList = ctx.givenTrain![task.map][s];
    const inTrain = new Uint8Array(map.rows);
    for (const i of trainList) inTrain[i] = 1;
    const train = Int32Array.from(trainList).sort();
    const test = new Int32Array(map.rows - train.length);
    for (let i = 0, k = 0; i < map.rows; i++) if (!inTrain[i]) test[k++] = i;
    divisions.push({ train, test });
  }
  const scores = scoreSplits(map, divisions, task.method, response, hyper, predictorFor(), request);
  if (plan.interval !== undefined)
    ({ cover: out.cover, unbounded: out.unbounded, ratio: out.ratio } = coverOf(map, divisions, scores, task.method, response, hyper, plan.interval));
  for (let s = task.s0; s < task.s1; s++) {
    const r = scores[s - task.s0],
      test = divisions[s - task.s0].test;
    if ("skipped" in r || "error" in r) {
      if ("skipped" in r) skip(s - task.s0, r.skipped);
      else fail(s - task.s0, r.error, r.message);
      record(null);
      if (want) out.pred!.push([]), out.rows!.push([]), out.pext!.push([]), out.pdist!.push([]), out.pclamp!.push([]);
    } else {
      out.are.push(roundResult(r.are));
      record(r);
      if (want) {
        const t = r.trust!;
        out.pred!.push(Array.from(r.pred, roundResult));
        out.rows!.push(Array.from(test, (i) => (ids ? ids[i] : i)));
        out.pext!.push(Array.from(t.extrapolated));
        out.pdist!.push(Array.from(t.distance!, roundResult));
        out.pclamp!.push(Array.from(t.negative, (v, k) => v | t.logClamped[k]));
      }
    }
  }
  return out;
}

/**
 * Per division, the coverage of its conformal interval (calibrated on its training rows only), or null; whether the
 * interval was unbounded (with n training points a level-α split-conformal interval needs ⌈(n + 1)α⌉ ≤ n, i.e. n ≥ 9
 * at 0.9: below, it is [0, ∞) and covers everything — reported apart, not counted as coverage); and the median
 * hi/lo ratio of its held-out points (the width the coverage is bought with).
 */
function coverOf(
  map: MapData,
  divisions: readonly { train: Int32Array; test: Int32Array }[],
  scores: readonly ScoredSplit[],
  method: string,
  response: "linear" | "log",
  hyper: Record<string, unknown>,
  level: number,
): { cover: (number | null)[]; unbounded: number[]; ratio: (number | null)[] } {
  const X = matrix(map.X, map.rows, map.cols);
  const unbounded: number[] = [];
  const ratio: (number | null)[] = [];
  const cover = divisions.map((d, i) => {
    const r = scores[i];
    unbounded.push(0);
    ratio.push(null);
    if (!("are" in r)) return null;
    try {
      const options = { ...hyper, inputs: mapInputScaling(map.meta.normalization), response };
      const [Xt, yt, vt] = [takeRows(X, d.train), gatherValues(map.y, d.train), map.yVar && gatherValues(map.yVar, d.train)];
      // gp's fold models re-solve with the division's final hyperparameters, as `fit --conformal-folds` calibrates
      // (the scored predictions came from that same deterministic fit). That fit's gp θ (hybrid: its seen gp's),
      // recorded with its predictions, is given back, so this refit of the same rows is one solve, not a new search.
      const theta = method === "gp" || method === "hybrid" ? detailsOf(r.pred)?.gpTheta : undefined;
      const given = theta ? (method === "gp" ? { theta } : { seenTheta: theta }) : {};
      const full = method === "gp" || method === "hybrid" ? createPredictor(method, { ...options, ...given }).fit(Xt, yt, vt) : undefined;
      const cal = calibrate(method, options, Xt, yt, CV_CONFORMAL_FOLDS, 0, vt, full);
      const q = conformalHalfWidth(cal.residuals, level);
      if (!Number.isFinite(q)) {
        unbounded[i] = 1;
        return null;
      }
      const { lo, hi } = conformalInterval(r.pred, q, response);
      const ratios = Array.from(lo, (l, k) => hi[k] / l)
        .filter((v) => Number.isFinite(v) && v > 0)
        .sort((a, b) => a - b);
      if (ratios.length)
        ratio[i] = roundResult(ratios.length % 2 ? ratios[(ratios.length - 1) / 2] : 0.5 * (ratios[ratios.length / 2 - 1] + ratios[ratios.length / 2]));
      return roundResult(
        coverage(
          Float64Array.from(d.test, (j) => map.y[j]),
          lo,
          hi,
        ),
      );
    } catch (e) {
      if (isVarmapError(e)) return null;
      throw e;
    }
  });
  return { cover, unbounded, ratio };
}
