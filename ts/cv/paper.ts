// The MOANA paper's Table 2 (seed 000, sec. 3: ARE in percent of predicting the sd of held-out configurations,
// averaged over 117 variability maps, B = 200 random divisions per p), printed beside varmap's own figures when
// a cv runs on the MOANA design (its three factors, the sd statistic), so a reader sees at once how they compare.

/** Paper Table 2 rows: p → ARE in percent per method (lr, lsp, mars, delaunay), as printed. */
export const MOANA_TABLE2: Readonly<Record<string, Readonly<Record<string, number>>>> = {
  "0.9": { lr: 323.09, lsp: 11.13, mars: 56.61, delaunay: 9.97 },
  "0.8": { lr: 323.47, lsp: 11.27, mars: 57.59, delaunay: 10.19 },
  "0.7": { lr: 324.0, lsp: 11.47, mars: 58.35, delaunay: 10.48 },
  "0.6": { lr: 324.58, lsp: 11.72, mars: 59.94, delaunay: 10.88 },
  "0.5": { lr: 324.59, lsp: 12.22, mars: 62.35, delaunay: 11.42 },
  "0.4": { lr: 325.82, lsp: 13.25, mars: 66.52, delaunay: 12.22 },
  "0.3": { lr: 327.02, lsp: 15.44, mars: 71.49, delaunay: 13.56 },
  "0.2": { lr: 329.56, lsp: 19.33, mars: 79.27, delaunay: 16.13 },
  "0.1": { lr: 339.32, lsp: 30.44, mars: 100.14, delaunay: 23.39 },
};

export const MOANA_FACTORS = ["host_sched", "vm_sched", "mode"];

/** A cv over the MOANA design: the preset's factors (real data or `varmap synth --design moana`) and the sd statistic. */
export function isMoanaDesign(plan: { factors: readonly string[]; stat?: string; response: string }): boolean {
  return (
    plan.factors.length === MOANA_FACTORS.length &&
    MOANA_FACTORS.every((f, i) => plan.factors[i] === f) &&
    (plan.stat ?? "sd") === "sd" &&
    plan.response === "linear"
  );
}

/** The paper's figure for a method at p (undefined when the paper has none: another method, another p). */
export function paperAre(p: number, method: string): number | undefined {
  return MOANA_TABLE2[String(p)]?.[method];
}

/** Markdown lines: per p and method, varmap's mean ARE beside the paper's (paper methods only). */
export function moanaComparison(table: readonly Record<string, number>[], methods: readonly string[], pct: (x: number) => string): string[] {
  const shared = methods.filter((m) => m in MOANA_TABLE2["0.5"]);
  if (!shared.length) return [];
  const rows = table.filter((r) => MOANA_TABLE2[String(r.p)]);
  if (!rows.length) return [];
  return [
    `## Beside the MOANA paper's Table 2`,
    ``,
    `varmap's mean ARE (%) / the paper's (seed 000 Table 2: 117 maps of the full MOANA data, B = 200 divisions per p). The data behind a run of varmap may differ (a subset, \`synth\` data, another --reps), so compare orders of magnitude and rankings, not decimals.`,
    ``,
    `| p | ${shared.map((m) => `${m} varmap / paper`).join(" | ")} |`,
    `|---|${shared.map(() => "---:").join("|")}|`,
    ...rows.map((r) => `| ${r.p} | ${shared.map((m) => `${pct(r[m])} / ${paperAre(r.p, m)!.toFixed(2)}`).join(" | ")} |`),
    ``,
  ];
}
