// `varmap refit` through the pool: every map fitted with every chosen predictor (one task per map and method).
// Writes models.json (the fitted models, restorable with predictorFromJSON) and a short summary.
import { join } from "node:path";
import { csvText, writeFileAtomic } from "./files.js";
import type { OutputWriter } from "./job.js";
import { planTasks, type Plan, type RefitPlan } from "./plan.js";
import { fingerprint, type SharedMaps } from "./shared-maps.js";
import type { FitResult } from "./work.js";
import type { MixResult } from "./mixtures.js";
import type { MixtureOptions } from "./plan.js";
export type { MixtureOptions };

/** Configurations per mixture task: one kernel call per family fits them all. */
export const MIX_CHUNK = 64;

export function refitPlan(
  maps: SharedMaps,
  o: { methods: string[]; methodOptions?: Record<string, Record<string, unknown>>; response: "linear" | "log"; mixtures?: MixtureOptions },
): RefitPlan {
  const factors = Object.keys(maps.meta[0]?.key ?? {});
  return {
    ...(o.mixtures ? { mixtures: { ...o.mixtures, chunk: MIX_CHUNK } } : {}),
    format: "varmap-job",
    version: 1,
    verb: "refit",
    fingerprint: fingerprint(maps),
    factors,
    maps: maps.meta.map((m) => ({ values: factors.map((f) => m.key[f]), rows: m.rows, inputs: m.inputNames })),
    methods: o.methods,
    ...(o.methodOptions && Object.keys(o.methodOptions).length ? { methodOptions: o.methodOptions } : {}),
    response: o.response,
  };
}

export const REFIT_FILES = ["models.json", "summary.csv", "summary.md"];

export const refitWriter: OutputWriter = {
  files(plan: Plan) {
    return (plan as RefitPlan).mixtures ? [...REFIT_FILES, "distributions.csv"] : REFIT_FILES;
  },
  write(planAny: Plan, results, dir) {
    const plan = planAny as RefitPlan;
    const models: unknown[] = [];
    const rows: (string | number)[][] = [];
    let failed = 0;
    const mix = plan.mixtures ? writeDistributions(plan, results, dir) : undefined;
    for (const t of planTasks(plan)) {
      if (t.kind !== "fit") continue;
      const r = results.get(t.id) as FitResult;
      const map = plan.maps[t.map];
      const key = Object.fromEntries(plan.factors.map((f, i) => [f, map.values[i]]));
      if ("model" in r) models.push({ key, method: t.method, rows: map.rows, model: r.model });
      else failed++;
      rows.push([...map.values, t.method, map.rows, "model" in r ? "ok" : r.error, "model" in r ? "" : r.message]);
    }
    writeFileAtomic(
      join(dir, "models.json"),
      JSON.stringify({ format: "varmap-models", version: 1, factors: plan.factors, response: plan.response, models }) + "\n",
    );
    writeFileAtomic(join(dir, "summary.csv"), csvText([...plan.factors, "method", "rows", "status", "message"], rows));
    const byMethod = plan.methods.map((m) => {
      const mine = rows.filter((r) => r[plan.factors.length] === m);
      return `| ${m} | ${mine.filter((r) => r[plan.factors.length + 2] === "ok").length} | ${mine.filter((r) => r[plan.factors.length + 2] !== "ok").length} |`;
    });
    const md = [
      "# Refit summary",
      "",
      `${plan.maps.length} map(s) × ${plan.methods.length} method(s); response scale ${plan.response}. Models in models.json, one row per fit in summary.csv.`,
      "",
      "| method | fitted | failed |",
      "|---|---:|---:|",
      ...byMethod,
      "",
      ...(mix ? mix.markdown : []),
    ].join("\n");
    writeFileAtomic(join(dir, "summary.md"), md);
    return { maps: plan.maps.length, methods: plan.methods, models: models.length, failed, ...(mix ? { distributions: mix.counts } : {}) };
  },
};

/** distributions.csv: each configuration's BIC-best mixture; returns the best-family × best-k counts (seed 001 Tables 4–5). */
function writeDistributions(plan: RefitPlan, results: ReadonlyMap<string, unknown>, dir: string): { counts: Record<string, number[]>; markdown: string[] } {
  const m = plan.mixtures!;
  const rows: (string | number)[][] = [];
  const counts: Record<string, number[]> = Object.fromEntries(m.families.map((f) => [f, new Array(m.kmax).fill(0)]));
  let none = 0;
  for (const t of planTasks(plan)) {
    if (t.kind !== "mix") continue;
    for (const c of (results.get(t.id) as MixResult).configs) {
      const b = c.best;
      if (!b) none++;
      else counts[b.family][b.k - 1]++;
      rows.push([...c.key, c.n, b?.family ?? "", b?.k ?? "", b?.loglik ?? NaN, b?.bic ?? NaN, b?.iterations ?? "", b ? String(b.converged) : "", b ? String(b.floorBound) : "", b ? JSON.stringify(b.params) : ""]);
    }
  }
  writeFileAtomic(
    join(dir, "distributions.csv"),
    csvText([...m.columns, "n", "family", "k", "loglik", "bic", "iterations", "converged", "floor_bound", "params"], rows),
  );
  const markdown = [
    `## Run distributions`,
    ``,
    `${m.configs} configuration(s), families ${m.families.join(", ")} with k = 1..${m.kmax}; the BIC-best model of each in distributions.csv.${none ? ` ${none} configuration(s) had no finite fit.` : ""}`,
    ``,
    `| best family | ${Array.from({ length: m.kmax }, (_, i) => `k=${i + 1}`).join(" | ")} | total |`,
    `|---|${Array.from({ length: m.kmax + 1 }, () => "---:").join("|")}|`,
    ...m.families.map((f) => `| ${f} | ${counts[f].join(" | ")} | ${counts[f].reduce((a, b) => a + b, 0)} |`),
    ``,
  ];
  return { counts, markdown };
}
