// `varmap refit` through the pool: every map fitted with every chosen predictor (one task per map and method).
// Writes models.json (the fitted models, restorable with predictorFromJSON) and a short summary.
import { join } from "node:path";
import { csvText, writeFileAtomic } from "./files.js";
import type { OutputWriter } from "./job.js";
import { planTasks, type Plan, type RefitPlan } from "./plan.js";
import { fingerprint, type SharedMaps } from "./shared-maps.js";
import type { FitResult } from "./work.js";

export function refitPlan(maps: SharedMaps, o: { methods: string[]; response: "linear" | "log" }): RefitPlan {
  const factors = Object.keys(maps.meta[0]?.key ?? {});
  return {
    format: "varmap-job",
    version: 1,
    verb: "refit",
    fingerprint: fingerprint(maps),
    factors,
    maps: maps.meta.map((m) => ({ values: factors.map((f) => m.key[f]), rows: m.rows, inputs: m.inputNames })),
    methods: o.methods,
    response: o.response,
  };
}

export const REFIT_FILES = ["models.json", "summary.csv", "summary.md"];

export const refitWriter: OutputWriter = {
  files() {
    return REFIT_FILES;
  },
  write(planAny: Plan, results, dir) {
    const plan = planAny as RefitPlan;
    const models: unknown[] = [];
    const rows: (string | number)[][] = [];
    let failed = 0;
    for (const t of planTasks(plan)) {
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
    ].join("\n");
    writeFileAtomic(join(dir, "summary.md"), md);
    return { maps: plan.maps.length, methods: plan.methods, models: models.length, failed };
  },
};
