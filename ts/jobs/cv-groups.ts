// `varmap cv --leave-out COLS [--group-folds K]` (issue 41): leave-one-group-out cross-validation per map. A task
// is one or a few divisions of one (map, method); each division's result carries, per held-out group, its ARE, the
// mean predicted and measured statistic (for the rank agreement of groups, Kendall's τ), whether the group lies
// outside the training range of some input (extrapolated), and with --interval the truths inside the group-aware
// conformal interval (calibrated on the division's training rows only: random folds for seen queries, leave-group-out
// folds for novel ones; ts/predict/conformal.ts calibrateGrouped).
import { join } from "node:path";
import { isVarmapError, VarmapError } from "../errors.js";
import { are as areOf } from "../cv/are.js";
import { extrapolatedInputs, groupDivisions, groupFolds, kendallTau, mapGroups, type MapGroups } from "../cv/groups.js";
import { gatherValues, mapInputScaling } from "../cv/split.js";
import { guardedScales, type ScaleGuard } from "../cv/scale-guard.js";
import { mapLabel, mapView, type SharedMaps } from "../data/shared-maps.js";
import { calibrateGrouped, conformalIntervalPerQuery, coverage, CV_CONFORMAL_FOLDS, groupedHalfWidths, noveltyKind } from "../predict/conformal.js";
import { matrix, takeRows } from "../predict/matrix.js";
import { createPredictor } from "../predict/registry.js";
import { csvText, formatValue, roundResult, writeFileAtomic } from "../data/write.js";

export interface GroupColumn {
  name: string;
  /** Position among the map's inputs; absent for a factor (one level per map: `value`). */
  input?: number;
  value?: string;
}

export interface GroupedPlan {
  cols: string[];
  folds?: number;
  seed: string;
  /** Per map: its group labels and divisions (folds of groups). */
  maps: { labels: string[]; divisions: number; columns: GroupColumn[] }[];
}

/** Divisions per task: a gp fit takes seconds, so a division is a task (balanced across workers). */
export const GROUP_CHUNK = 1;

/** The group-out plan of the maps, or a coded error for a column that is neither an input nor a factor, or too many folds. */
export function groupedPlan(maps: SharedMaps, factors: readonly string[], cols: readonly string[], folds: number | undefined, seed: string): GroupedPlan {
  if (!cols.length)
    throw new VarmapError("E_LEAVE_OUT", "--leave-out names no column", {
      remedy: "name the columns whose combinations to hold out, e.g. --leave-out fsize_kb,rsize_kb",
    });
  if (new Set(cols).size !== cols.length)
    throw new VarmapError("E_LEAVE_OUT", `--leave-out ${cols.join(",")} names a column twice`, { remedy: "name each column once" });
  if (folds !== undefined && !(Number.isInteger(folds) && folds >= 2))
    throw new VarmapError("E_USAGE", `--group-folds ${folds} is not an integer >= 2`, {
      remedy: "e.g. --group-folds 5, or leave it out for one division per group",
    });
  const out: GroupedPlan["maps"] = [];
  maps.meta.forEach((m, mi) => {
    const columns = cols.map((c): GroupColumn => {
      const input = m.inputNames.indexOf(c);
      if (input >= 0) return { name: c, input };
      if (factors.includes(c)) return { name: c, value: m.key[c] };
      throw new VarmapError("E_LEAVE_OUT", `--leave-out names '${c}', which is neither an input nor a factor of the data`, {
        remedy: `name inputs (${m.inputNames.join(", ")})${factors.length ? ` or factors (${factors.join(", ")})` : ""}`,
      });
    });
    const v = mapView(maps, mi);
    const g = mapGroups(v.X, v.rows, v.cols, columns);
    if (folds !== undefined && folds > g.labels.length)
      throw new VarmapError(
        "E_GROUP_FOLDS",
        `--group-folds ${folds} asks for more folds than map ${mapLabel(m.key) || mi + 1} has groups (${g.labels.length})`,
        {
          remedy: `use --group-folds ${Math.max(2, g.labels.length)} or fewer, or leave it out for one division per group`,
        },
      );
    out.push({ labels: g.labels, divisions: folds ?? g.labels.length, columns });
  });
  return { cols: [...cols], ...(folds !== undefined ? { folds } : {}), seed, maps: out };
}

/** Per held-out group of a division. */
export interface GroupScore {
  g: number;
  n: number;
  are: number;
  clamped: number;
  /** Mean predicted and measured statistic of the group (the rank order of groups). */
  pred: number;
  truth: number;
  /** Inputs the group lies outside the training range of (empty: interior). */
  ext: string[];
  /** With an interval: truths inside it, and its mean half-width on the model scale. */
  inside?: number;
  width?: number;
}

export interface GroupTaskResult {
  /** Per division of the task: its groups' scores, or why it was skipped / failed. */
  divisions: ({ groups: GroupScore[] } | { skipped: string } | { error: string; message?: string })[];
}

const groupCache = new WeakMap<object, Map<number, MapGroups>>();

function groupsOf(maps: SharedMaps, plan: GroupedPlan, mi: number): MapGroups {
  let c = groupCache.get(maps.meta);
  if (!c) groupCache.set(maps.meta, (c = new Map()));
  let g = c.get(mi);
  if (!g) {
    const v = mapView(maps, mi);
    c.set(mi, (g = mapGroups(v.X, v.rows, v.cols, plan.maps[mi].columns)));
  }
  return g;
}

export function runGroupTask(
  maps: SharedMaps,
  plan: GroupedPlan,
  o: {
    method: string;
    response: "linear" | "log";
    guard?: ScaleGuard;
    hyper: Record<string, unknown>;
    interval?: number;
    clamps: boolean;
    factors: readonly string[];
    mapValues: readonly string[];
  },
  mi: number,
  d0: number,
  d1: number,
): GroupTaskResult {
  const { map, response } = guardedScales(mapView(maps, mi), o.response, o.guard);
  const g = groupsOf(maps, plan, mi);
  const label = mapLabel(Object.fromEntries(o.factors.map((f, i) => [f, o.mapValues[i]])));
  const divisions = groupDivisions(g, groupFolds(g.labels.length, plan.folds, plan.seed, label));
  const X = matrix(map.X, map.rows, map.cols);
  const groupInputs = plan.maps[mi].columns.filter((c) => c.input !== undefined).map((c) => c.input!);
  const options = {
    ...o.hyper,
    ...(o.method === "hybrid" && groupInputs.length && o.hyper.groups === undefined ? { groups: groupInputs } : {}),
    inputs: mapInputScaling(map.meta.normalization),
    response,
  };
  const out: GroupTaskResult = { divisions: [] };
  for (let d = d0; d < d1; d++) {
    const { train, test } = divisions[d];
    if (!train.length) {
      out.divisions.push({ skipped: "empty training set (the group is the whole map)" });
      continue;
    }
    try {
      const Xt = takeRows(X, train);
      const yt = gatherValues(map.y, train);
      const vt = map.yVar && gatherValues(map.yVar, train);
      const model = createPredictor(o.method, options).fit(Xt, yt, vt);
      const Xq = takeRows(X, test);
      const pred = model.predict(Xq);
      let q: Float64Array | undefined;
      if (o.interval !== undefined) {
        const cal = calibrateGrouped(
          o.method,
          options,
          Xt,
          yt,
          Array.from(train, (r) => g.of[r]),
          CV_CONFORMAL_FOLDS,
          0,
          vt,
          model,
        );
        const widths = groupedHalfWidths(cal, o.interval);
        // Every test query is a novel combination here (its group is absent from training): how novel, its kind says.
        q = Float64Array.from(noveltyKind(Xt, Xq), (k) => widths[k]);
      }
      const bounds = q && conformalIntervalPerQuery(pred, q, response);
      const byGroup = new Map<number, number[]>();
      test.forEach((r, t) => (byGroup.get(g.of[r]) ?? byGroup.set(g.of[r], []).get(g.of[r])!).push(t));
      const groups: GroupScore[] = [];
      for (const [gi, ts] of [...byGroup.entries()].sort((a, b) => a[0] - b[0])) {
        const p = Float64Array.from(ts, (t) => pred[t]);
        const y = Float64Array.from(ts, (t) => map.y[test[t]]);
        const pc = o.clamps ? Float64Array.from(p, (v) => Math.max(0, v)) : p;
        const s: GroupScore = {
          g: gi,
          n: ts.length,
          are: roundResult(areOf(p, y)),
          clamped: roundResult(areOf(pc, y)),
          pred: roundResult(mean(p)),
          truth: roundResult(mean(y)),
          ext: extrapolatedInputs(
            map.X,
            map.cols,
            map.meta.inputNames,
            train,
            Int32Array.from(ts, (t) => test[t]),
          ),
        };
        if (bounds) {
          const lo = Float64Array.from(ts, (t) => bounds.lo[t]),
            hi = Float64Array.from(ts, (t) => bounds.hi[t]);
          s.inside = Math.round(coverage(y, lo, hi) * ts.length);
          s.width = roundResult(mean(Float64Array.from(ts, (t) => q![t])));
        }
        groups.push(s);
      }
      out.divisions.push({ groups });
    } catch (e) {
      if (!isVarmapError(e)) throw e;
      // Too few training points for the method once the group is out: a counted skip with the reason, not a failure.
      if (e.code === "E_TOO_FEW_POINTS") out.divisions.push({ skipped: `too few training points for ${o.method}: ${e.message}` });
      else out.divisions.push({ error: e.code, message: e.message });
    }
  }
  return out;
}

function mean(v: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i];
  return v.length ? s / v.length : NaN;
}

interface Row {
  map: number;
  method: string;
  group: number;
  score?: GroupScore;
  skipped?: string;
  error?: string;
}

/** One row per map × method × group, from the tasks' results (in plan order). */
export function groupRows(
  plan: GroupedPlan,
  methods: readonly string[],
  tasks: readonly { id: string; map: number; method: string; d0: number; d1: number }[],
  results: ReadonlyMap<string, unknown>,
  label: (map: number) => string,
): Row[] {
  const rows: Row[] = [];
  for (const t of tasks) {
    const r = results.get(t.id) as GroupTaskResult | undefined;
    if (!r) throw new Error(`internal: no result for task ${t.id}`);
    const g = plan.maps[t.map];
    const fold = groupFolds(g.labels.length, plan.folds, plan.seed, label(t.map));
    r.divisions.forEach((d, i) => {
      const division = t.d0 + i;
      if ("groups" in d) for (const s of d.groups) rows.push({ map: t.map, method: t.method, group: s.g, score: s });
      else
        for (let gi = 0; gi < g.labels.length; gi++)
          if (fold[gi] === division)
            rows.push({ map: t.map, method: t.method, group: gi, ...("skipped" in d ? { skipped: d.skipped } : { error: `${d.error}: ${d.message ?? ""}` }) });
    });
  }
  return rows.sort((a, b) => a.map - b.map || methods.indexOf(a.method) - methods.indexOf(b.method) || a.group - b.group);
}

export interface GroupSummary {
  leaveOut: string[];
  groupFolds?: number;
  interval?: number;
  /** Per method, over every map: mean ARE of interior and extrapolated groups, Kendall's τ (mean over maps), coverage. */
  methods: Record<
    string,
    {
      interior: { groups: number; are: number; coverage?: number };
      extrapolated: { groups: number; are: number; coverage?: number };
      all: { groups: number; are: number; coverage?: number };
      tau: number;
      tauInterior: number;
      skipped: number;
      failed: number;
      reasons: string[];
    }
  >;
  maps: {
    key: Record<string, string>;
    groups: { group: string; extrapolated: string[]; methods: Record<string, { are: number | null; coverage?: number | null; reason?: string }> }[];
  }[];
}

/** are.csv, table2.csv and table2.md of a group-out run; returns the summary. */
export function writeGrouped(
  plan: GroupedPlan,
  o: { methods: string[]; factors: string[]; mapValues: string[][]; interval?: number; clamps: boolean; stat?: string },
  rows: Row[],
  dir: string,
): GroupSummary {
  const pct = (x: number): string => (Number.isFinite(x) ? (100 * x).toFixed(2) : "—");
  const interval = o.interval !== undefined;
  writeFileAtomic(
    join(dir, "are.csv"),
    csvText(
      [
        ...o.factors,
        "group",
        "method",
        "test",
        "extrapolated",
        "extrapolated_inputs",
        "are",
        "are_clamped",
        "predicted_mean",
        "measured_mean",
        ...(interval ? ["level", "coverage", "half_width"] : []),
        "skipped",
        "failed",
        "reason",
      ],
      rows.map((r) => {
        const s = r.score;
        return [
          ...o.mapValues[r.map],
          plan.maps[r.map].labels[r.group],
          r.method,
          s?.n ?? 0,
          s ? (s.ext.length ? 1 : 0) : "",
          s ? s.ext.join(";") : "",
          s?.are ?? NaN,
          s?.clamped ?? NaN,
          s?.pred ?? NaN,
          s?.truth ?? NaN,
          ...(interval ? [o.interval!, s?.inside !== undefined ? roundResult(s.inside / s.n) : NaN, s?.width ?? NaN] : []),
          r.skipped ? 1 : 0,
          r.error ? 1 : 0,
          r.skipped ?? r.error ?? "",
        ];
      }),
    ),
  );
  const methods: GroupSummary["methods"] = {};
  for (const m of o.methods) {
    const mine = rows.filter((r) => r.method === m);
    const scored = mine.filter((r) => r.score);
    const part = (rs: Row[]) => {
      const n = rs.reduce((a, r) => a + r.score!.n, 0);
      const inside = rs.reduce((a, r) => a + (r.score!.inside ?? 0), 0);
      return {
        groups: rs.length,
        are: roundResult(mean(rs.map((r) => r.score!.are))),
        ...(interval ? { coverage: roundResult(n ? inside / n : NaN) } : {}),
      };
    };
    const taus: number[] = [],
      tausInterior: number[] = [];
    for (let mi = 0; mi < plan.maps.length; mi++) {
      const rs = scored.filter((r) => r.map === mi);
      const t = kendallTau(
        rs.map((r) => r.score!.pred),
        rs.map((r) => r.score!.truth),
      );
      if (Number.isFinite(t)) taus.push(t);
      const ri = rs.filter((r) => !r.score!.ext.length);
      const ti = kendallTau(
        ri.map((r) => r.score!.pred),
        ri.map((r) => r.score!.truth),
      );
      if (Number.isFinite(ti)) tausInterior.push(ti);
    }
    methods[m] = {
      interior: part(scored.filter((r) => !r.score!.ext.length)),
      extrapolated: part(scored.filter((r) => r.score!.ext.length)),
      all: part(scored),
      tau: roundResult(mean(taus)),
      tauInterior: roundResult(mean(tausInterior)),
      skipped: mine.filter((r) => r.skipped).length,
      failed: mine.filter((r) => r.error).length,
      reasons: [...new Set(mine.map((r) => r.skipped ?? r.error).filter((x): x is string => !!x))],
    };
  }
  writeFileAtomic(
    join(dir, "table2.csv"),
    csvText(
      [
        "method",
        "groups_interior",
        "are_interior",
        "groups_extrapolated",
        "are_extrapolated",
        "are_all",
        "kendall_tau",
        "kendall_tau_interior",
        ...(interval ? ["coverage_interior", "coverage_extrapolated", "coverage_all"] : []),
        "skipped_groups",
        "failed_groups",
      ],
      o.methods.map((m) => {
        const s = methods[m];
        return [
          m,
          s.interior.groups,
          s.interior.are,
          s.extrapolated.groups,
          s.extrapolated.are,
          s.all.are,
          s.tau,
          s.tauInterior,
          ...(interval ? [s.interior.coverage!, s.extrapolated.coverage!, s.all.coverage!] : []),
          s.skipped,
          s.failed,
        ];
      }),
    ),
  );
  const perMap: GroupSummary["maps"] = plan.maps.map((pm, mi) => ({
    key: Object.fromEntries(o.factors.map((f, k) => [f, o.mapValues[mi][k]])),
    groups: pm.labels.map((label, gi) => {
      const rs = rows.filter((r) => r.map === mi && r.group === gi);
      return {
        group: label,
        extrapolated: rs.find((r) => r.score)?.score?.ext ?? [],
        methods: Object.fromEntries(
          rs.map((r) => [
            r.method,
            {
              are: r.score ? r.score.are : null,
              ...(interval ? { coverage: r.score?.inside !== undefined ? roundResult(r.score.inside / r.score.n) : null } : {}),
              ...(r.score ? {} : { reason: r.skipped ?? r.error }),
            },
          ]),
        ),
      };
    }),
  }));
  const how = plan.folds ? `${plan.folds} folds of whole groups (seed ${plan.seed})` : "one division per group (leave-one-group-out)";
  const cell = (x: { are: number | null; coverage?: number | null; reason?: string } | undefined): string =>
    !x ? "—" : x.are === null ? "skipped" : `${pct(x.are)}${interval ? ` (${pct(x.coverage ?? NaN)})` : ""}`;
  const md = [
    `# Group-out cross-validation: leave out ${plan.cols.join(", ")}`,
    ``,
    `Mean absolute relative error (%) of predicting each group's configurations from a model trained without the group (${how}): the question of a combination of settings nobody measured (seed 000 §4).${interval ? ` In parentheses: the share (%) of the group's measured values inside the ${pct(o.interval!)} % interval (calibrated on the division's training rows only, novel combinations on leave-group-out folds).` : ""}`,
    ``,
    ...perMap.flatMap((m, mi) => [
      ...(plan.maps.length > 1 ? [`## ${mapLabel(m.key) || `map ${mi + 1}`}`, ``] : []),
      `| group | extrapolated | ${o.methods.join(" | ")} |`,
      `|---|---|${o.methods.map(() => "---:").join("|")}|`,
      ...m.groups.map(
        (g) =>
          `| ${g.group} | ${g.extrapolated.length ? `yes (${g.extrapolated.join(", ")})` : "no"} | ${o.methods.map((k) => cell(g.methods[k])).join(" | ")} |`,
      ),
      ``,
    ]),
    `## Per method, over every map`,
    ``,
    `| | ${o.methods.join(" | ")} |`,
    `|---|${o.methods.map(() => "---:").join("|")}|`,
    `| mean ARE, interior groups | ${o.methods.map((m) => `${pct(methods[m].interior.are)} (${methods[m].interior.groups})`).join(" | ")} |`,
    `| mean ARE, extrapolated groups | ${o.methods.map((m) => `${pct(methods[m].extrapolated.are)} (${methods[m].extrapolated.groups})`).join(" | ")} |`,
    `| mean ARE, all groups | ${o.methods.map((m) => pct(methods[m].all.are)).join(" | ")} |`,
    ...(interval
      ? [
          `| coverage, interior groups | ${o.methods.map((m) => pct(methods[m].interior.coverage!)).join(" | ")} |`,
          `| coverage, extrapolated groups | ${o.methods.map((m) => pct(methods[m].extrapolated.coverage!)).join(" | ")} |`,
          `| coverage, all groups | ${o.methods.map((m) => pct(methods[m].all.coverage!)).join(" | ")} |`,
        ]
      : []),
    `| Kendall's τ, all groups | ${o.methods.map((m) => formatTau(methods[m].tau)).join(" | ")} |`,
    `| Kendall's τ, interior groups | ${o.methods.map((m) => formatTau(methods[m].tauInterior)).join(" | ")} |`,
    `| groups skipped / failed | ${o.methods.map((m) => `${methods[m].skipped} / ${methods[m].failed}`).join(" | ")} |`,
    ``,
    ...o.methods.flatMap((m) => methods[m].reasons.map((r) => `- ${m}: ${r.replaceAll("|", "\\|")}`)),
    ``,
    `## Legend`,
    ``,
    `- A group is a distinct combination of ${plan.cols.join(", ")}; its division trains on every other configuration of the map.`,
    `- extrapolated: the group lies outside the training range of the inputs named (a corner of the design): the model extrapolates there, and its figures are reported apart from the interior groups'.`,
    `- Kendall's τ: agreement between the predicted and the measured rank order of the groups' mean ${o.stat ?? "statistic"} (1: same order; 0: unrelated; mean over maps).`,
    `- Skipped: too few training points for the method once the group is out (reasons above), counted, never scored as 0 % or 100 %.`,
    ``,
  ].join("\n");
  writeFileAtomic(join(dir, "table2.md"), md);
  return { leaveOut: plan.cols, ...(plan.folds ? { groupFolds: plan.folds } : {}), ...(interval ? { interval: o.interval } : {}), methods, maps: perMap };
}

function formatTau(t: number): string {
  return Number.isFinite(t) ? formatValue(Math.round(t * 1000) / 1000) : "—";
}
