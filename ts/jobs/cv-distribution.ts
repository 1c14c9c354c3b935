// `cv --target distribution` as a job (spec E.4): the plan holds everything that determines the results (data
// fingerprint, methods, weights, divisions), tasks are one (map, division) each, a task validates every method on
// its division (distribution/report.ts's SplitKs), and the writer turns all results into ks.csv, ks-summary.csv and
// ks.md. `job` below plugs it into the engine (journal, shards, merge).
import { createHash } from "node:crypto";
import type { JobDefinition } from "../pool/job.js";
import { join } from "node:path";
import { VarmapError } from "../errors.js";
import type { Dataset } from "../data/load.js";
import { csvText, writeFileAtomic } from "../data/write.js";
import { sharedCopy } from "../pool/threads.js";
import { divisionStream, randomDivision } from "../cv/divisions.js";
import { groupDivisions, groupFolds, mapGroups } from "../cv/groups.js";
import type { SplitsFile } from "../cv/splits.js";
import { distributionMaps, mapLabel } from "../distribution/data.js";
import type { KsTest } from "../distribution/ks.js";
import type { DistName, MomentMethod, PositionsName, SmoothName } from "../distribution/methods.js";
import type { FeatureWeightsName } from "../distribution/feature-weights.js";
import {
  ksHeader,
  ksMarkdown,
  ksRows,
  splitKs,
  summarize,
  summaryHeader,
  summaryRows,
  writeCsvStream,
  type SplitKs,
  type WeightsLabel,
} from "../distribution/report.js";
import { perLevelLabel, type PerLevelSpec } from "../distribution/per-level.js";
import { mapTruth, type TruthComponent } from "../distribution/truth.js";
import { foldDivision } from "../distribution/folds.js";
import type { DistributionMap } from "../distribution/validate.js";
import type { WeightsName } from "../distribution/weights.js";
import { configKey, mapMixtures, type FitRow } from "../distribution/params.js";

export const DIST_CV_VERB = "cv-distribution" as const;
export const DIST_CV_FILES = ["ks.csv", "ks-summary.csv", "ks.md"];

export interface DistCvPlan {
  format: "varmap-job";
  version: 1;
  verb: typeof DIST_CV_VERB;
  fingerprint: string;
  source: string;
  factors: string[];
  maps: { label: string; key: Record<string, string>; rows: number }[];
  dists: DistName[];
  weights: WeightsName;
  moments: MomentMethod;
  ksTest: KsTest;
  /** --dist params: the fits file and its content hash. */
  fits?: { source: string; hash: string };
  /** --smooth pchip: `cdf` mixes PCHIP-smoothed EDFs. */
  smooth?: SmoothName;
  /** --per-level: `quantile` by per-level maps of this predictor on levels j/levels. */
  perLevel?: PerLevelSpec;
  levels?: number;
  /** --truth: the synthetic design's true laws (file and content hash); ks.csv gains ks_true. */
  truth?: { source: string; hash: string };
  /** --folds k: every configuration tested once, folds keyed by (seed, map). */
  folds?: { k: number; seed: string };
  /** --positions weibull (absent: type7). */
  positions?: PositionsName;
  /** --feature-weights lr (absent: none). */
  featureWeights?: FeatureWeightsName;
  /** Generated divisions keyed by (seed, map, p, rep), the same as scalar `cv`'s. */
  generated?: { ps: number[]; reps: number; seed: string };
  /** Given divisions (--splits): their labels; the training rows travel in the context. */
  given?: { source: string; hash: string; labels: { p: number; rep: number }[] };
  /**
   * --leave-out COLS [--group-folds K] (issue 41): per map, one division per combination of the columns' levels
   * (or K folds of whole groups); `groups[map][division]` lists the held-out groups' labels. The rows travel in
   * the context. p = (D − 1)/D for a map of D divisions, rep = the division.
   */
  leaveOut?: { cols: string[]; folds?: number; seed: string; groups: string[][][] };
}

export interface DistCvTask {
  id: string;
  map: number;
  /** Given: the split's index; generated: p's index and the repetition. */
  split?: number;
  pIndex?: number;
  rep?: number;
  /** --folds: the fold tested. */
  fold?: number;
}

export interface DistCvContext {
  plan: DistCvPlan;
  maps: DistributionMap[];
  ids: (number | string)[][];
  /** Given splits: per map and split, the training rows. */
  givenTrain?: number[][][];
  /** --leave-out: per map and division, the training and test rows. */
  groupRows?: { train: Int32Array; test: Int32Array }[][];
}

export interface DistCvOptions {
  dists: DistName[];
  /** --dist params: the fits rows and where they came from. */
  fits?: { source: string; hash: string; rows: FitRow[] };
  weights: WeightsName;
  moments: MomentMethod;
  ksTest: KsTest;
  ps?: number[];
  reps?: number;
  seed?: string;
  splits?: SplitsFile;
  smooth?: SmoothName;
  perLevel?: PerLevelSpec;
  levels?: number;
  /** The truth file's laws by configuration key (truth.ts readTruth). */
  truth?: { source: string; hash: string; laws: ReadonlyMap<string, { components: TruthComponent[]; floor: number }> };
  folds?: number;
  positions?: PositionsName;
  featureWeights?: FeatureWeightsName;
  /** --leave-out COLS [--group-folds K]: group-out divisions (issue 41). */
  leaveOut?: { cols: string[]; folds?: number };
}

/** The plan and context of a job over every map of a runs dataset. */
export function distCvSetup(data: Dataset, source: string, o: DistCvOptions): DistCvContext {
  const loaded = distributionMaps(data);
  const t = data.table,
    nIn = t.roles.inputs.length;
  const maps: DistributionMap[] = loaded.map((m) => ({
    U: sharedCopy(m.U),
    d: m.d,
    rows: m.rows,
    runs: { runs: sharedCopy(m.runs.runs), offsets: sharedCopy(m.runs.offsets), mean: sharedCopy(m.runs.mean), sd: sharedCopy(m.runs.sd) },
    mixtures:
      o.fits && o.dists.includes("params")
        ? mapMixtures(
            o.fits.rows,
            m.map.ids.map((id) => configKey(t, Number(id), nIn)),
            mapLabel(m.map.key),
          )
        : undefined,
    truth: o.truth
      ? mapTruth(
          o.truth.laws,
          m.map.ids.map((id) => configKey(t, Number(id), nIn)),
        )
      : undefined,
  }));
  const h = createHash("sha256");
  for (const m of maps) {
    h.update(JSON.stringify([m.d, m.rows]));
    for (const a of [m.U, m.runs.runs, m.runs.offsets]) h.update(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
  }
  const ids = loaded.map((m) => m.map.ids);
  const base = {
    format: "varmap-job" as const,
    version: 1 as const,
    verb: DIST_CV_VERB,
    fingerprint: h.digest("hex").slice(0, 32),
    source,
    factors: data.table.roles.factors,
    maps: loaded.map((m) => ({ label: mapLabel(m.map.key), key: m.map.key, rows: m.rows })),
    dists: o.dists,
    weights: o.weights,
    moments: o.moments,
    ksTest: o.ksTest,
    ...(o.fits && o.dists.includes("params") ? { fits: { source: o.fits.source, hash: o.fits.hash } } : {}),
    ...(o.smooth && o.smooth !== "none" ? { smooth: o.smooth } : {}),
    ...(o.perLevel && o.dists.includes("quantile") ? { perLevel: o.perLevel, levels: o.levels ?? 200 } : {}),
    ...(o.truth ? { truth: { source: o.truth.source, hash: o.truth.hash } } : {}),
    ...(o.positions && o.positions !== "type7" ? { positions: o.positions } : {}),
    ...(o.featureWeights && o.featureWeights !== "none" ? { featureWeights: o.featureWeights } : {}),
  };
  if (o.leaveOut) {
    const { cols, folds } = o.leaveOut;
    const seed = o.seed ?? "1";
    if (o.folds !== undefined || o.splits)
      throw new VarmapError("E_USAGE", "--leave-out and --folds/--splits both choose the divisions", { remedy: "give one of them" });
    if (!cols.length || new Set(cols).size !== cols.length)
      throw new VarmapError("E_LEAVE_OUT", `--leave-out '${cols.join(",")}' names no column or one twice`, {
        remedy: "name each column whose combinations to hold out once, e.g. --leave-out fsize_kb,rsize_kb",
      });
    if (folds !== undefined && !(Number.isInteger(folds) && folds >= 2))
      throw new VarmapError("E_USAGE", `--group-folds ${folds} is not an integer >= 2`, {
        remedy: "e.g. --group-folds 5, or leave it out for one division per group",
      });
    const factors = data.table.roles.factors;
    const groups: string[][][] = [];
    const groupRows = loaded.map((m, mi) => {
      const columns = cols.map((c) => {
        const input = m.map.inputNames.indexOf(c);
        if (input >= 0) return { name: c, input };
        if (factors.includes(c)) return { name: c, value: m.map.key[c] };
        throw new VarmapError("E_LEAVE_OUT", `--leave-out names '${c}', which is neither an input nor a factor of the data`, {
          remedy: `name inputs (${m.map.inputNames.join(", ")})${factors.length ? ` or factors (${factors.join(", ")})` : ""}`,
        });
      });
      const g = mapGroups(m.map.X, m.rows, m.d, columns);
      const label = base.maps[mi].label;
      if (g.labels.length < 2)
        throw new VarmapError("E_LEAVE_OUT", `map ${label} has one combination of ${cols.join(",")}: nothing to train on when it is held out`, {
          remedy: "hold out columns that vary within each map (inputs), not only the factors that define the maps",
        });
      if (folds !== undefined && folds > g.labels.length)
        throw new VarmapError("E_GROUP_FOLDS", `--group-folds ${folds} asks for more folds than map ${label} has groups (${g.labels.length})`, {
          remedy: `use --group-folds ${Math.max(2, g.labels.length)} or fewer, or leave it out for one division per group`,
        });
      const fold = groupFolds(g.labels.length, folds, seed, label);
      const divisions = groupDivisions(g, fold);
      groups.push(divisions.map((_, k) => g.labels.filter((_, gi) => fold[gi] === k)));
      return divisions;
    });
    return { plan: { ...base, leaveOut: { cols, ...(folds !== undefined ? { folds } : {}), seed, groups } }, maps, ids, groupRows };
  }
  if (o.folds !== undefined) {
    const k = o.folds;
    const small = loaded.find((m) => m.rows < k);
    if (!Number.isInteger(k) || k < 2 || small)
      throw new VarmapError("E_USAGE", `--folds ${k} is not a whole number from 2 to the smallest map's configurations`, {
        remedy: small ? `map ${mapLabel(small.map.key)} has ${small.rows} configurations: use at most that many folds` : "e.g. --folds 10",
      });
    return { plan: { ...base, folds: { k, seed: o.seed ?? "1" } }, maps, ids };
  }
  if (!o.splits) {
    const reps = o.reps ?? 20;
    if (!Number.isInteger(reps) || reps < 1) throw new VarmapError("E_USAGE", `--reps ${reps} is not a positive integer`, { remedy: "e.g. --reps 20" });
    return { plan: { ...base, generated: { ps: o.ps ?? [0.5], reps, seed: o.seed ?? "1" } }, maps, ids };
  }
  const sp = o.splits;
  const givenTrain = loaded.map((m, mi) => {
    const pos = new Map<string, number>();
    m.map.ids.forEach((id, r) => pos.set(String(id), r));
    return sp.splits.map((s, si) =>
      s.train.map((id) => {
        const r = pos.get(String(id));
        if (r === undefined)
          throw new VarmapError("E_SPLITS", `split ${si} (p=${s.p}, rep=${s.rep}) names configuration ${id}, which map ${base.maps[mi].label} does not have`, {
            location: { file: sp.source },
            remedy: "give splits whose ids are the map's configuration indices (as `varmap summarize` numbers them)",
          });
        return r;
      }),
    );
  });
  const hash = createHash("sha256").update(JSON.stringify(sp.splits)).digest("hex").slice(0, 32);
  return { plan: { ...base, given: { source: sp.source, hash, labels: sp.splits.map((s) => ({ p: s.p, rep: s.rep })) } }, maps, ids, givenTrain };
}

export function distCvTasks(plan: DistCvPlan): DistCvTask[] {
  const out: DistCvTask[] = [];
  plan.maps.forEach((_, map) => {
    if (plan.leaveOut) plan.leaveOut.groups[map].forEach((_, fold) => out.push({ id: `m${map}:g${fold}`, map, fold }));
    else if (plan.given) plan.given.labels.forEach((_, split) => out.push({ id: `m${map}:s${split}`, map, split }));
    else if (plan.folds) for (let fold = 0; fold < plan.folds.k; fold++) out.push({ id: `m${map}:f${fold}`, map, fold });
    else
      plan.generated!.ps.forEach((_, pIndex) => {
        for (let rep = 0; rep < plan.generated!.reps; rep++) out.push({ id: `m${map}:p${pIndex}:r${rep}`, map, pIndex, rep });
      });
  });
  return out;
}

export function runDistCvTask(ctx: DistCvContext, t: DistCvTask): SplitKs {
  const { plan } = ctx;
  const map = ctx.maps[t.map];
  let train: ArrayLike<number>, test: ArrayLike<number>, p: number, rep: number;
  if (plan.leaveOut) {
    ({ train, test } = ctx.groupRows![t.map][t.fold!]);
    const D = plan.leaveOut.groups[t.map].length;
    p = Math.round(((D - 1) / D) * 1e9) / 1e9;
    rep = t.fold!;
  } else if (plan.given) {
    const tr = ctx.givenTrain![t.map][t.split!];
    const inTrain = new Uint8Array(map.rows);
    for (const r of tr) inTrain[r] = 1;
    train = Int32Array.from({ length: map.rows }, (_, r) => r).filter((r) => inTrain[r]);
    test = Int32Array.from({ length: map.rows }, (_, r) => r).filter((r) => !inTrain[r]);
    ({ p, rep } = plan.given.labels[t.split!]);
  } else if (plan.folds) {
    // p: the training fraction of k-fold cross-validation, (k − 1)/k; rep: the fold.
    ({ train, test } = foldDivision(map.rows, plan.folds.k, t.fold!, plan.folds.seed, plan.maps[t.map].label));
    p = Math.round(((plan.folds.k - 1) / plan.folds.k) * 1e9) / 1e9;
    rep = t.fold!;
  } else {
    const g = plan.generated!;
    p = g.ps[t.pIndex!];
    rep = t.rep!;
    const label =
      Object.entries(plan.maps[t.map].key)
        .map(([k, v]) => `${k}=${v}`)
        .join(";") || "all";
    ({ train, test } = randomDivision(map.rows, p, divisionStream(g.seed, label, p, rep)));
  }
  return splitKs(map, ctx.ids[t.map], p, rep, train, test, {
    dists: plan.dists,
    weights: plan.weights,
    moments: plan.moments,
    ksTest: plan.ksTest,
    smooth: plan.smooth,
    perLevel: plan.perLevel,
    levels: plan.levels,
    positions: plan.positions,
    featureWeights: plan.featureWeights,
  });
}

/** The "weights" column: per-level quantiles name their predictor, the other methods the weights. */
export function weightsLabel(plan: Pick<DistCvPlan, "weights" | "perLevel" | "dists">): WeightsLabel {
  if (!plan.perLevel) return plan.weights;
  return Object.fromEntries(plan.dists.map((m) => [m, m === "quantile" ? perLevelLabel(plan.perLevel!) : plan.weights]));
}

/** Writes ks.csv, ks-summary.csv and ks.md from every task's result. */
export function writeDistCv(plan: DistCvPlan, results: ReadonlyMap<string, unknown>, dir: string): Record<string, unknown> {
  const perMap = plan.maps.map((m) => ({ label: m.label, splits: [] as SplitKs[] }));
  for (const t of distCvTasks(plan)) {
    const r = results.get(t.id) as SplitKs | undefined;
    if (!r) throw new Error(`internal: no result for task ${t.id}`);
    perMap[t.map].splits.push(r);
  }
  const summary = summarize(perMap, plan.dists, plan.ksTest);
  const truth = plan.truth !== undefined,
    labels = weightsLabel(plan);
  writeCsvStream(join(dir, "ks.csv"), ksHeader(truth), ksRows(perMap, plan.dists, labels, plan.ksTest));
  writeFileAtomic(join(dir, "ks-summary.csv"), csvText(summaryHeader(truth), summaryRows(summary, labels, truth)));
  const md = ksMarkdown(summary, plan.dists, labels, plan.ksTest, truth);
  writeFileAtomic(join(dir, "ks.md"), md);
  // --leave-out: which groups each (map, rep) held out.
  if (plan.leaveOut)
    writeFileAtomic(
      join(dir, "groups.csv"),
      csvText(
        ["map", "rep", "group"],
        plan.leaveOut.groups.flatMap((divs, mi) => divs.flatMap((labels, rep) => labels.map((g) => [plan.maps[mi].label, rep, g]))),
      ),
    );
  // Per method and p: the mean over maps of the inside-hull mean KS (what ks.md shows first).
  const table: Record<string, Record<string, number>> = {};
  for (const s of summary.filter((x) => x.points === "inside")) {
    const row = (table[s.method] ??= {});
    row[String(s.p)] = (row[String(s.p)] ?? 0) + s.ksMean / plan.maps.length;
  }
  const trueTable: Record<string, Record<string, number>> = {};
  if (truth)
    for (const s of summary.filter((x) => x.points === "all")) {
      const row = (trueTable[s.method] ??= {});
      row[String(s.p)] = (row[String(s.p)] ?? 0) + s.ksTrueMean / plan.maps.length;
    }
  return { meanKsInside: table, ...(truth ? { meanKsTrue: trueTable } : {}), maps: plan.maps.length, markdown: md };
}

/** The whole job in this thread, without journal or workers (tests, and a reference for the engine's output). */
export function runDirect(ctx: DistCvContext, dir: string): Record<string, unknown> {
  const results = new Map<string, unknown>();
  for (const t of distCvTasks(ctx.plan)) results.set(t.id, runDistCvTask(ctx, t));
  return writeDistCv(ctx.plan, results, dir);
}

export const job: JobDefinition<DistCvPlan, DistCvTask, DistCvContext> = {
  verb: DIST_CV_VERB,
  module: import.meta.url,
  tasks: distCvTasks,
  run: runDistCvTask,
  files: (plan) => (plan.leaveOut ? [...DIST_CV_FILES, "groups.csv"] : DIST_CV_FILES),
  write: writeDistCv,
};
