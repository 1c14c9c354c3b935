// `varmap interference` as a library function: runs (and optional time slices) in, the pair table, the
// probe × signal matrix, per-app sensitivity/aggressiveness and classes, and break-even points out (spec C.2).
//
// An execution (--experiment) with one row is a standalone run, with two rows a pair. A pair row is one side of
// a pair: probe = that row's app, signal = the other row's app. Repetitions of the same pair (same apps,
// instances and factor values) are aggregated (best, median or mean) and compared with the aggregated standalone
// runs of the probe at identical factor values.
import { VarmapError } from "../errors.js";
import { fitMixtures } from "../mixture/fit.js";
import { aggregate, bootstrapDegradationCI, bootstrapScratch, degradation, dilation } from "./bootstrap.js";
import { appClass, breakEvenPoints, pairRelation } from "./classes.js";
import { dentDepth, dentSums, idleCounts, serializationCounts, sliceExecution, type DentSums, type SlicedExecution } from "./slices.js";
import type { AppRow, BreakEvenRow, InterferenceOptions, InterferenceResult, MatrixRow, PairRow, RunRecord, SliceRecord } from "./types.js";

interface Execution {
  id: string;
  rows: RunRecord[];
  /** Values used per row (response, or the 90%-cut slice rate). */
  values: number[];
  /** Instance labels per row: "1" for the two sides of a mixed pair; the instance (or row order) in self-pairs. */
  labels: string[];
  dropped: boolean;
  sliced: SlicedExecution | null;
}

interface Group {
  key: string;
  /** (execution, row index within it) of each repetition, dropped ones included. */
  members: { ex: Execution; i: number }[];
}

const describe = (names: string[], values: string[]) => names.map((n, i) => `${n}=${values[i]}`).join(", ");

/** Compares factor values numerically when both are numbers, else as text. */
export function compareValues(a: string, b: string): number {
  const x = Number(a);
  const y = Number(b);
  if (a.trim() !== "" && b.trim() !== "" && Number.isFinite(x) && Number.isFinite(y)) return x - y || (a < b ? -1 : a > b ? 1 : 0);
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareLists(a: string[], b: string[]): number {
  for (let i = 0; i < a.length; i++) {
    const c = compareValues(a[i], b[i]);
    if (c) return c;
  }
  return 0;
}

function sortedCopy(v: number[]): Float64Array {
  return Float64Array.from(v).sort();
}

function sd(v: Float64Array): number {
  const n = v.length;
  let m = 0;
  for (let i = 0; i < n; i++) m += v[i];
  m /= n;
  let s = 0;
  for (let i = 0; i < n; i++) s += (v[i] - m) ** 2;
  return Math.sqrt(s / (n - 1));
}

/** The whole analysis in this thread: prepare, every pair row, finish. */
export function analyzeInterference(runs: RunRecord[], opts: InterferenceOptions, slices?: SliceRecord[]): InterferenceResult {
  const prep = prepareInterference(runs, opts, slices);
  return finishInterference(prep.meta, computePairRows(prep, 0, prep.pairs.length, opts), opts);
}

/** One side of a pair with its repetitions, ready to compute (everything the row needs, nothing else). */
export interface PreparedPair {
  id: string;
  factors: string[];
  signalFactors: string[];
  probe: string;
  signal: string;
  instance: string;
  partner: number;
  /** Sorted standalone and interfered repetitions (noise-filtered). */
  alone: Float64Array;
  aloneIndex: number;
  int: Float64Array;
  /** Aggregated standalone response of the probe, and of the signal (NaN unless sliced: serialization needs it). */
  aloneRateProbe: number;
  aloneRateSignal: number;
  /** Share of the probe's and the signal's standalone slices in which each idles by design (0 unless sliced). */
  aloneIdleProbe: number;
  aloneIdleSignal: number;
  /** The pair's sliced executions: index into `sliced`, and the probe's row within the execution. */
  sliced: { ex: number; i: number }[];
}

export interface PreparedInterference {
  meta: { factorNames: string[]; signalFactorNames: string[]; apps: string[]; summary: InterferenceResult["summary"] };
  pairs: PreparedPair[];
  sliced: SlicedExecution[];
}

/**
 * Validates the runs (and slices), drops noisy executions, groups repetitions into pair rows and matches each
 * with its standalone runs: every bad input is found here, before any output.
 */
export function prepareInterference(runs: RunRecord[], opts: InterferenceOptions, slices?: SliceRecord[]): PreparedInterference {
  const file = opts.file ?? "runs table";
  const sfile = opts.slicesFile ?? "slice table";
  const F = opts.factorNames;
  if (opts.sweep !== undefined && !F.includes(opts.sweep))
    throw new VarmapError("E_USAGE", `--sweep ${opts.sweep} is not one of the --factors (${F.join(", ")})`, {
      remedy: "name a numeric factor column in --sweep and list it in --factors",
    });
  if (slices && opts.metric !== "throughput")
    throw new VarmapError("E_USAGE", "time slices give throughput: --slices needs --metric throughput", { remedy: "use --metric throughput with --slices" });

  // Executions, in order of first appearance.
  const byId = new Map<string, RunRecord[]>();
  for (const r of runs) {
    const list = byId.get(r.experiment);
    if (list) list.push(r);
    else byId.set(r.experiment, [r]);
  }
  const appOrder: string[] = [];
  for (const r of runs) if (!appOrder.includes(r.app)) appOrder.push(r.app);

  const slicesByExp = new Map<string, SliceRecord[]>();
  for (const s of slices ?? []) {
    if (!byId.has(s.experiment))
      throw new VarmapError("E_SLICES_UNMATCHED", `slice row for experiment '${s.experiment}', which the runs table does not have`, {
        location: { file: sfile, row: s.row },
        remedy: "give slices only for executions in the runs table (same experiment ids), or fix the id",
      });
    const list = slicesByExp.get(s.experiment);
    if (list) list.push(s);
    else slicesByExp.set(s.experiment, [s]);
  }

  const executions: Execution[] = [];
  for (const [id, rows] of byId) {
    if (rows.length > 2)
      throw new VarmapError(
        "E_USAGE",
        `experiment '${id}' has ${rows.length} rows (rows ${rows.map((r) => r.row).join(", ")}): n-way interference is beyond scope`,
        {
          location: { file, row: rows[2].row },
          remedy: "give one row per instance: 1 row for a standalone execution, 2 for a pair",
        },
      );
    const self = rows.length === 2 && rows[0].app === rows[1].app;
    if (self && rows[0].instance !== null && rows[0].instance === rows[1].instance)
      throw new VarmapError("E_USAGE", `the two ${rows[0].app} instances of experiment '${id}' have the same instance '${rows[0].instance}'`, {
        location: { file, row: rows[1].row },
        remedy: "give the instances of a self-pair distinct values in the --instance column",
      });
    const labels = rows.map((r, i) => (!self ? "1" : (r.instance ?? String(i + 1))));
    let sliced: SlicedExecution | null = null;
    const exSlices = slicesByExp.get(id);
    if (exSlices) {
      if (self && rows[0].instance === null)
        throw new VarmapError("E_USAGE", `experiment '${id}' is a self-pair of ${rows[0].app}: its slices cannot be told apart without --instance`, {
          location: { file, row: rows[0].row },
          remedy: "add an instance column to both tables and name it with --instance",
        });
      const slicesOf = rows.map(() => [] as SliceRecord[]);
      for (const s of exSlices) {
        const i = rows.findIndex((r) => r.app === s.app && (r.instance === null || r.instance === s.instance));
        if (i < 0)
          throw new VarmapError(
            "E_SLICES_UNMATCHED",
            `slice row for ${s.app}${s.instance === null ? "" : ` instance ${s.instance}`} in experiment '${id}', which has no such instance in the runs table`,
            {
              location: { file: sfile, row: s.row },
              remedy: "match the app (and instance) names of the runs table",
            },
          );
        slicesOf[i].push(s);
      }
      sliced = sliceExecution(rows, slicesOf, opts.sliceSeconds, sfile);
    }
    const values = rows.map((r, i) => {
      if (sliced) return sliced.rates[i];
      if (r.value === null)
        throw new VarmapError("E_BAD_VALUE", `empty response for ${r.app} in experiment '${id}'`, {
          location: { file, row: r.row },
          remedy: "fill in the response, or give the execution's time slices with --slices",
        });
      if (!(r.value > 0))
        throw new VarmapError(
          "E_NONPOSITIVE_RESPONSE",
          `${opts.metric === "time" ? "time" : "bandwidth"} ${r.value} of ${r.app} in experiment '${id}' is not positive`,
          {
            location: { file, row: r.row },
            remedy: `give ${opts.metric === "time" ? "completion times" : "bandwidths"} > 0 (a failed run is dropped, not recorded as 0)`,
          },
        );
      return r.value;
    });
    let noise: number | null = null;
    for (const r of rows) if (r.noise !== null) noise = Math.max(noise ?? -Infinity, r.noise);
    if (sliced?.serverRatio != null) noise = Math.max(noise ?? -Infinity, sliced.serverRatio);
    const dropped = noise !== null && noise > 1 + opts.noiseMax;
    executions.push({ id, rows, values, labels, dropped, sliced });
  }
  const droppedExperiments = executions.filter((e) => e.dropped).map((e) => e.id);
  if (droppedExperiments.length)
    opts.note?.(
      `${droppedExperiments.length} execution(s) dropped by the noise filter (server traffic > ${1 + opts.noiseMax} × application traffic): ${droppedExperiments.slice(0, 10).join(", ")}${droppedExperiments.length > 10 ? ", …" : ""}`,
    );

  if (!executions.some((e) => e.rows.length === 2))
    throw new VarmapError("E_NO_DATA", `the runs table has no pair executions (every --experiment id has one row)`, {
      location: { file },
      remedy: "give both instances of a concurrent execution the same --experiment id, or check that --experiment names the execution-id column",
    });
  // Factors whose values differ between the two instances of some execution get a signal_<name> column.
  const differing = F.map((_, f) => executions.some((e) => e.rows.length === 2 && e.rows[0].factors[f] !== e.rows[1].factors[f]));
  const signalFactorNames = F.filter((_, f) => differing[f]);
  const signalValues = (r: RunRecord) => r.factors.filter((_, f) => differing[f]);
  if (opts.sweep !== undefined && differing[F.indexOf(opts.sweep)])
    throw new VarmapError("E_USAGE", `--sweep ${opts.sweep} differs between the two instances of some execution`, {
      remedy: "sweep a factor both instances share (e.g. the chunk size)",
    });

  // Standalone groups by (app, factors); pair-row groups by (probe side, signal side).
  const alone = new Map<string, Group>();
  const pairGroups = new Map<string, Group>();
  for (const ex of executions) {
    if (ex.rows.length === 1) {
      const r = ex.rows[0];
      const key = JSON.stringify([r.app, ...r.factors]);
      const g = alone.get(key) ?? { key, members: [] };
      g.members.push({ ex, i: 0 });
      alone.set(key, g);
    } else {
      for (let i = 0; i < 2; i++) {
        const r = ex.rows[i];
        const p = ex.rows[1 - i];
        const key = JSON.stringify([r.factors, signalValues(p), r.app, p.app, ex.labels[i], ex.labels[1 - i]]);
        const g = pairGroups.get(key) ?? { key, members: [] };
        g.members.push({ ex, i });
        pairGroups.set(key, g);
      }
    }
  }

  const aloneValues = new Map<string, { sorted: Float64Array; sliced: boolean; rate: number; idle: number }>();
  const aloneOf = (r: RunRecord, pairDescription: string) => {
    const key = JSON.stringify([r.app, ...r.factors]);
    const cached = aloneValues.get(key);
    if (cached) return cached;
    const g = alone.get(key);
    if (!g)
      throw new VarmapError(
        "E_NO_STANDALONE",
        `no standalone execution of ${r.app} at ${describe(F, r.factors) || "(no factors)"} to compare ${pairDescription} with`,
        {
          location: { file, row: r.row, configuration: `${r.app}${F.length ? ", " + describe(F, r.factors) : ""}` },
          remedy: `add standalone runs of ${r.app} (an experiment with that single row) at identical factor values, or check the factor values for typos`,
        },
      );
    const kept = g.members.filter((m) => !m.ex.dropped);
    if (kept.length === 0)
      throw new VarmapError("E_NO_DATA", `every standalone execution of ${r.app} at ${describe(F, r.factors)} was dropped by the noise filter`, {
        location: { file, row: g.members[0].ex.rows[0].row, configuration: `${r.app}, ${describe(F, r.factors)}` },
        remedy: "repeat the standalone runs in a quieter period, or raise --noise-max",
      });
    const slicedKinds = new Set(kept.map((m) => m.ex.sliced !== null));
    if (slicedKinds.size > 1)
      throw new VarmapError(
        "E_SLICES_MISSING",
        `the standalone executions of ${r.app} at ${describe(F, r.factors)} mix sliced and unsliced runs: their rates would be in different units`,
        {
          location: { file, row: kept.find((m) => m.ex.sliced === null)!.ex.rows[0].row },
          remedy: "give time slices for all or none of the executions of a comparison",
        },
      );
    const sorted = sortedCopy(kept.map((m) => m.ex.values[m.i]));
    const rate = aggregate(sorted, opts.aggregate, opts.metric);
    // The share of its standalone slices in which the app idles (a periodic pattern): not evidence of serialization.
    let idle = 0;
    let total = 0;
    for (const m of kept)
      if (m.ex.sliced) {
        const c = idleCounts(m.ex.sliced, m.i, rate, opts.sliceSeconds);
        idle += c.idle;
        total += c.slices;
      }
    const value = { sorted, sliced: kept[0].ex.sliced !== null, rate, idle: total > 0 ? idle / total : 0 };
    aloneValues.set(key, value);
    return value;
  };

  // Pair rows in output order: factors, signal factors, probe and signal in order of appearance, instance.
  const groups = [...pairGroups.values()].map((g) => {
    const { ex, i } = g.members[0];
    return { g, r: ex.rows[i], p: ex.rows[1 - i], label: ex.labels[i], partnerLabel: ex.labels[1 - i] };
  });
  groups.sort(
    (x, y) =>
      compareLists(x.r.factors, y.r.factors) ||
      compareLists(signalValues(x.p), signalValues(y.p)) ||
      appOrder.indexOf(x.r.app) - appOrder.indexOf(y.r.app) ||
      appOrder.indexOf(x.p.app) - appOrder.indexOf(y.p.app) ||
      compareValues(x.label, y.label),
  );
  const indexOfKey = new Map(groups.map((x, k) => [x.g.key, k]));

  // Standalone groups get stable indices (their mixtures are keyed by them).
  const aloneIndex = new Map<string, number>();
  const sliced: SlicedExecution[] = [];
  const slicedIndex = new Map<Execution, number>();
  const pairs: PreparedPair[] = groups.map(({ g, r, p, label, partnerLabel }) => {
    const what = `${r.app} (probe${r.app === p.app ? `, instance ${label}` : ""}) against ${p.app} (signal) at ${describe(F, r.factors) || "(no factors)"}`;
    const kept = g.members.filter((m) => !m.ex.dropped);
    if (kept.length === 0)
      throw new VarmapError(
        "E_NO_DATA",
        `every execution of the pair ${what} was dropped by the noise filter (experiments ${g.members.map((m) => m.ex.id).join(", ")})`,
        {
          location: { file, row: r.row, configuration: `${r.app} vs ${p.app}, ${describe(F, r.factors)}` },
          remedy: "repeat the pair in a quieter period, or raise --noise-max",
        },
      );
    const a = aloneOf(r, `the pair ${what}`);
    const slicedKinds = new Set(kept.map((m) => m.ex.sliced !== null));
    if (slicedKinds.size > 1 || [...slicedKinds][0] !== a.sliced)
      throw new VarmapError(
        "E_SLICES_MISSING",
        `the pair ${what} and its standalone runs mix sliced and unsliced executions: their rates would be in different units`,
        {
          location: { file, row: r.row },
          remedy: "give time slices for all or none of the executions compared with each other",
        },
      );
    const aloneKey = JSON.stringify([r.app, ...r.factors]);
    if (!aloneIndex.has(aloneKey)) aloneIndex.set(aloneKey, aloneIndex.size);
    const slicedRefs = kept
      .filter((m) => m.ex.sliced)
      .map((m) => {
        if (!slicedIndex.has(m.ex)) {
          slicedIndex.set(m.ex, sliced.length);
          sliced.push(m.ex.sliced!);
        }
        return { ex: slicedIndex.get(m.ex)!, i: m.i };
      });
    return {
      id: JSON.stringify([
        ...F.map((f, k) => `${f}=${r.factors[k]}`),
        ...signalFactorNames.map((f, k) => `signal_${f}=${signalValues(p)[k]}`),
        r.app,
        p.app,
        label,
      ]),
      factors: r.factors,
      signalFactors: signalValues(p),
      probe: r.app,
      signal: p.app,
      instance: label,
      partner: indexOfKey.get(JSON.stringify([p.factors, signalValues(r), p.app, r.app, partnerLabel, label])) ?? -1,
      alone: a.sorted,
      aloneIndex: aloneIndex.get(aloneKey)!,
      int: sortedCopy(kept.map((m) => m.ex.values[m.i])),
      aloneRateProbe: a.rate,
      aloneRateSignal: slicedRefs.length ? aloneOf(p, `the pair ${what}`).rate : NaN,
      aloneIdleProbe: a.idle,
      aloneIdleSignal: slicedRefs.length ? aloneOf(p, `the pair ${what}`).idle : 0,
      sliced: slicedRefs,
    };
  });

  if (opts.sweep !== undefined) {
    // Break-even interpolates in log₂ of the swept factor: it must be a positive number on every pair row.
    const f = F.indexOf(opts.sweep);
    const bad = pairs.find((p) => !(p.factors[f].trim() !== "" && Number(p.factors[f]) > 0 && Number.isFinite(Number(p.factors[f]))));
    if (bad)
      throw new VarmapError("E_USAGE", `--sweep ${opts.sweep} is not a positive number everywhere (found '${bad.factors[f]}')`, {
        location: { file, column: opts.sweep },
        remedy: "sweep a numeric factor with positive values (chunk size, process count)",
      });
  }
  const apps = appOrder.filter((a) => pairs.some((p) => p.probe === a || p.signal === a));
  return {
    meta: {
      factorNames: F,
      signalFactorNames,
      apps,
      summary: {
        rows: runs.length,
        experiments: executions.length,
        standaloneExecutions: executions.filter((e) => e.rows.length === 1).length,
        pairExecutions: executions.filter((e) => e.rows.length === 2).length,
        droppedByNoise: droppedExperiments.length,
        droppedExperiments,
        slicedExperiments: executions.filter((e) => e.sliced).length,
      },
    },
    pairs,
    sliced,
  };
}

/**
 * The pair rows [from, to) of a prepared analysis: aggregates, degradation and dilation, bootstrap interval, sd
 * ratio, slice dent and serialization share, mixtures. Every random choice is keyed by the pair (bootstrap) or its
 * global index (mixture starts), so any split of the rows gives the same values.
 */
export function computePairRows(prep: { pairs: PreparedPair[]; sliced: SlicedExecution[] }, from: number, to: number, opts: InterferenceOptions): PairRow[] {
  const range = prep.pairs.slice(from, to);
  const maxRuns = Math.max(1, ...range.map((p) => Math.max(p.alone.length, p.int.length)));
  const scratch = bootstrapScratch(maxRuns, opts.bootstrap);
  const rows = range.map((p): PairRow => {
    const bAlone = p.aloneRateProbe;
    const bInt = aggregate(p.int, opts.aggregate, opts.metric);
    let ci: [number, number] | [null, null] = [null, null];
    if (opts.aggregate !== "best")
      ci = bootstrapDegradationCI(p.alone, p.int, opts.aggregate, opts.metric, opts.bootstrap, opts.level, opts.seed, p.id, scratch);
    const sdAlone = p.alone.length >= 2 ? sd(p.alone) : NaN;
    const sdInt = p.int.length >= 2 ? sd(p.int) : NaN;
    // Time slices: dent depth of the probe against the signal's active slices, and the serialization share.
    let dent: number | null = null;
    let serializedShare: number | null = null;
    if (p.sliced.length) {
      const sums: DentSums = { activeSum: 0, activeN: 0, silentSum: 0, silentN: 0 };
      let serial = 0;
      let overlap = 0;
      for (const { ex, i } of p.sliced) {
        dentSums(prep.sliced[ex], i, 1 - i, opts.sliceSeconds, sums);
        const c = serializationCounts(prep.sliced[ex], i, 1 - i, p.aloneRateProbe, p.aloneRateSignal, opts.sliceSeconds, p.aloneIdleProbe, p.aloneIdleSignal);
        serial += c.serial;
        overlap += c.overlap;
      }
      dent = dentDepth(sums);
      serializedShare = overlap > 0 ? serial / overlap : null;
    }
    return {
      id: p.id,
      factors: p.factors,
      signalFactors: p.signalFactors,
      probe: p.probe,
      signal: p.signal,
      instance: p.instance,
      bAlone,
      bInt,
      degradation: degradation(opts.metric, bAlone, bInt),
      dilation: dilation(opts.metric, bAlone, bInt),
      ciLo: ci[0],
      ciHi: ci[1],
      nAlone: p.alone.length,
      nInt: p.int.length,
      sdRatio: sdAlone > 0 && Number.isFinite(sdInt) ? sdInt / sdAlone : null,
      mixtureInt: null,
      mixtureAlone: null,
      multimodal: null,
      relation: "",
      dent,
      serializedShare,
      partner: p.partner,
    };
  });
  fitInterferenceMixtures(rows, range, from, prep.pairs.length, opts);
  return rows;
}

/** Relations (from each row and its partner), the matrix, per-app summaries and classes, break-even points. */
export function finishInterference(meta: PreparedInterference["meta"], pairs: PairRow[], opts: InterferenceOptions): InterferenceResult {
  for (const row of pairs) {
    const partner = pairs[row.partner];
    const self = row.probe === row.signal;
    const name = (app: string, inst: string) => (self ? `${app}#${inst}` : app);
    row.relation = pairRelation(
      name(row.probe, row.instance),
      name(row.signal, partner.instance),
      row.degradation,
      partner.degradation,
      opts,
      row.serializedShare !== null && row.serializedShare >= 0.5,
    );
  }
  const { matrix, appRows, cells } = summarize(pairs, meta.apps, opts.classThreshold);
  const breakeven = opts.sweep === undefined ? null : breakEven(cells, meta.apps, meta.factorNames.indexOf(opts.sweep), opts.sweep, opts.file ?? "runs table");
  return {
    factorNames: meta.factorNames,
    signalFactorNames: meta.signalFactorNames,
    apps: meta.apps,
    pairs,
    matrix,
    appRows,
    breakeven,
    summary: meta.summary,
  };
}

/**
 * The interfered runs' best mixture (BIC over the six families × k = 1..kmax, the `mixture` fits) and the
 * standalone runs' best: `multimodal` flags pairs whose interfered runs are strongly multimodal (ΔBIC ≥ 10 over
 * the best one-component fit) while their standalone runs (when fitted) are not.
 */
function fitInterferenceMixtures(rows: PairRow[], range: PreparedPair[], from: number, pairCount: number, opts: InterferenceOptions): void {
  if (opts.mixtureMinRuns <= 0) return;
  const runs: number[] = [];
  const offsets = [0];
  const ids: number[] = [];
  const intConfig = new Map<number, number>();
  const aloneConfig = new Map<number, number>();
  const add = (v: Float64Array, id: number) => {
    for (const x of v) runs.push(x);
    offsets.push(runs.length);
    ids.push(id);
    return offsets.length - 2;
  };
  // Start streams are keyed by configuration id: pair k's interfered runs are k, standalone group a is pairCount + a.
  range.forEach((p, k) => {
    if (p.int.length >= opts.mixtureMinRuns) intConfig.set(k, add(p.int, from + k));
    if (p.alone.length >= opts.mixtureMinRuns && !aloneConfig.has(p.aloneIndex)) aloneConfig.set(p.aloneIndex, add(p.alone, pairCount + p.aloneIndex));
  });
  if (offsets.length === 1) return;
  const seed = typeof opts.seed === "number" ? opts.seed : Number.parseInt(String(opts.seed), 10) || 1;
  const fit = fitMixtures(Float64Array.from(runs), Int32Array.from(offsets), { kmax: opts.mixtureKmax, seed, configIds: Int32Array.from(ids) });
  // Per configuration: the BIC winner among fits whose scale floor does not bind (a component collapsed onto a
  // few tied runs buys likelihood, not evidence), and the best BIC among one-component fits.
  const best = new Map<number, { family: string; k: number; bic: number; bic1: number }>();
  const bic1 = new Map<number, number>();
  for (const r of fit.rows) if (r.k === 1 && Number.isFinite(r.bic)) bic1.set(r.config, Math.min(bic1.get(r.config) ?? Infinity, r.bic));
  for (const r of fit.rows) {
    if (r.floorBound || !Number.isFinite(r.bic)) continue;
    const b = best.get(r.config);
    if (!b || r.bic < b.bic) best.set(r.config, { family: r.family, k: r.k, bic: r.bic, bic1: bic1.get(r.config) ?? Infinity });
  }
  const label = (b: { family: string; k: number } | undefined) => (b ? `${b.family}×${b.k}` : null);
  // Multimodal only on strong evidence: with a handful of runs BIC often prefers a spurious extra component, so
  // the best one-component fit must lose by ΔBIC ≥ 10 ("very strong", Kass & Raftery 1995). On 200 lognormal
  // samples (σ = 0.06) of n = 10, 20 and 30 runs this flags 0.5–1% (kmax 2); on 200 two-mode samples, all.
  const strong = (b: { k: number; bic: number; bic1: number } | undefined) => b !== undefined && b.k >= 2 && b.bic1 - b.bic >= MULTIMODAL_BIC_GAP;
  rows.forEach((row, k) => {
    const ci = intConfig.get(k);
    const ca = aloneConfig.get(range[k].aloneIndex);
    const bi = ci === undefined ? undefined : best.get(ci);
    const ba = ca === undefined ? undefined : best.get(ca);
    row.mixtureInt = label(bi);
    row.mixtureAlone = label(ba);
    if (bi) row.multimodal = strong(bi) && !strong(ba);
  });
}

/** BIC margin by which a multi-component fit must beat every one-component fit to flag multimodality. */
export const MULTIMODAL_BIC_GAP = 10;

/** A matrix cell: D[probe][signal] summed over instances, and the union of their bootstrap intervals (null without). */
interface Cell {
  sum: number;
  n: number;
  ciLo: number | null;
  ciHi: number | null;
}

interface CellTable {
  /** Per factor group: key (factors + signal factors), and D[probe][signal] means over instances. */
  groups: { factors: string[]; signalFactors: string[]; d: Map<string, Map<string, Cell>> }[];
}

function summarize(pairs: PairRow[], apps: string[], threshold: number): { matrix: MatrixRow[]; appRows: AppRow[]; cells: CellTable } {
  const cells: CellTable = { groups: [] };
  const byKey = new Map<string, CellTable["groups"][number]>();
  for (const p of pairs) {
    const key = JSON.stringify([p.factors, p.signalFactors]);
    let g = byKey.get(key);
    if (!g) {
      g = { factors: p.factors, signalFactors: p.signalFactors, d: new Map() };
      byKey.set(key, g);
      cells.groups.push(g);
    }
    const row = g.d.get(p.probe) ?? new Map<string, Cell>();
    g.d.set(p.probe, row);
    const first = !row.has(p.signal);
    const c = row.get(p.signal) ?? { sum: 0, n: 0, ciLo: p.ciLo, ciHi: p.ciHi };
    c.sum += p.degradation;
    c.n++;
    if (!first) {
      c.ciLo = c.ciLo === null || p.ciLo === null ? null : Math.min(c.ciLo, p.ciLo);
      c.ciHi = c.ciHi === null || p.ciHi === null ? null : Math.max(c.ciHi, p.ciHi);
    }
    row.set(p.signal, c);
  }
  const cell = (g: CellTable["groups"][number], probe: string, signal: string) => {
    const c = g.d.get(probe)?.get(signal);
    return c ? c.sum / c.n : null;
  };
  const matrix: MatrixRow[] = [];
  const appRows: AppRow[] = [];
  for (const g of cells.groups) {
    for (const probe of apps)
      if (g.d.has(probe)) matrix.push({ factors: g.factors, signalFactors: g.signalFactors, probe, cells: apps.map((s) => cell(g, probe, s)) });
    for (const a of apps) {
      const suffered = apps.map((b) => cell(g, a, b)).filter((x): x is number => x !== null);
      const caused = apps.map((b) => cell(g, b, a)).filter((x): x is number => x !== null);
      if (!suffered.length && !caused.length) continue;
      const mean = (v: number[]) => (v.length ? v.reduce((s, x) => s + x, 0) / v.length : null);
      const sensitivity = mean(suffered);
      const aggressiveness = mean(caused);
      appRows.push({
        factors: g.factors,
        signalFactors: g.signalFactors,
        app: a,
        sensitivity,
        aggressiveness,
        class: appClass(sensitivity, aggressiveness, threshold),
      });
    }
  }
  return { matrix, appRows, cells };
}

function breakEven(cells: CellTable, apps: string[], sweepIndex: number, sweep: string, file: string): BreakEvenRow[] {
  // Sweep values must be positive numbers (interpolation is in log₂ c).
  for (const g of cells.groups) {
    const v = Number(g.factors[sweepIndex]);
    if (!(g.factors[sweepIndex].trim() !== "" && Number.isFinite(v) && v > 0))
      throw new VarmapError("E_USAGE", `--sweep ${sweep} is not a positive number everywhere (found '${g.factors[sweepIndex]}')`, {
        location: { file, column: sweep },
        remedy: "sweep a numeric factor with positive values (chunk size, process count)",
      });
  }
  type Line = { factors: string[]; signalFactors: string[]; a: string; b: string; c: number[]; delta: number[]; order: (number | null)[] };
  const lines = new Map<string, Line>();
  for (const g of cells.groups) {
    const rest = g.factors.filter((_, f) => f !== sweepIndex);
    for (let i = 0; i < apps.length; i++)
      for (let j = i + 1; j < apps.length; j++) {
        const ab = g.d.get(apps[i])?.get(apps[j]);
        const ba = g.d.get(apps[j])?.get(apps[i]);
        if (!ab || !ba) continue;
        const key = JSON.stringify([rest, g.signalFactors, apps[i], apps[j]]);
        const line = lines.get(key) ?? { factors: rest, signalFactors: g.signalFactors, a: apps[i], b: apps[j], c: [], delta: [], order: [] };
        line.c.push(Number(g.factors[sweepIndex]));
        line.delta.push(ab.sum / ab.n - ba.sum / ba.n);
        line.order.push(ciOrder(ab, ba));
        lines.set(key, line);
      }
  }
  const out: BreakEvenRow[] = [];
  for (const l of lines.values()) {
    const row = (breakeven: number | null, status: BreakEvenRow["status"]) =>
      out.push({ factors: l.factors, signalFactors: l.signalFactors, a: l.a, b: l.b, breakeven, status });
    const points = breakEvenPoints(l.c, l.delta);
    if (points.length === 0) {
      row(null, "none");
      continue;
    }
    if (l.order.some((o) => o === null)) {
      // No bootstrap intervals (--aggregate best): the crossings of Δ, unconfirmed.
      for (const c of points) row(c, "unconfirmed");
      continue;
    }
    // A crossing counts only between two sweep values at which the intervals of D_{a←b} and D_{b←a} are disjoint
    // and ordered oppositely: Δ is then positive at one and negative at the other beyond the noise.
    const sig = l.c
      .map((c, k) => ({ c, o: l.order[k]! }))
      .filter((x) => x.o !== 0)
      .sort((x, y) => x.c - y.c);
    const confirmed = points.filter((p) => sig.some((x, k) => k + 1 < sig.length && x.o !== sig[k + 1].o && x.c <= p && p <= sig[k + 1].c));
    if (confirmed.length === 0) row(null, "not_significant");
    for (const c of confirmed) row(c, "crossing");
  }
  return out;
}

/**
 * +1 when the bootstrap interval of D_{a←b} lies wholly above that of D_{b←a}, −1 when wholly below, 0 when they
 * overlap; null when either cell has no interval (--aggregate best).
 */
function ciOrder(ab: Cell, ba: Cell): number | null {
  if (ab.ciLo === null || ab.ciHi === null || ba.ciLo === null || ba.ciHi === null) return null;
  if (ab.ciLo > ba.ciHi) return 1;
  if (ab.ciHi < ba.ciLo) return -1;
  return 0;
}
