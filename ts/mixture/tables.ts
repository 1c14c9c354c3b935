// The summaries of seed 001: Table 3 (mean fit time per family × k), Table 4 (sum of each configuration's best
// BIC per family; counts of the best family), Table 5 (counts of the best k), plus the best k within each family.
import type { FamilyName } from "./families.js";
import type { MixtureFitResult } from "./fit.js";
import { countFlags, flagAdvice, type ChosenFit, type MixtureFlagCounts } from "./flags.js";

export interface MixtureSummary {
  configurations: number;
  families: FamilyName[];
  kmax: number;
  /** Table 3: mean seconds per fit, [family][k-1]. */
  secondsPerFit: Record<string, number[]>;
  /** Table 4. */
  bestBicSum: Record<string, number>;
  bestFamilyCount: Record<string, number>;
  /** Table 5: best k over all families, counts for k = 1..kmax. */
  bestKCount: number[];
  /** Best k within each family (e.g. normal, to compare with mclust). */
  bestKWithinFamily: Record<string, number[]>;
  /** Fits whose tie floor binds, per family; fits that did not converge in the iteration limit, per family. */
  floorBound: Record<string, number>;
  notConverged: Record<string, number>;
  /** Chosen fits flagged k_at_max, floor_bound, single-run component (ts/mixture/flags.ts), and one line of advice per flag. */
  flags: MixtureFlagCounts;
  advice: string[];
}

export function summarizeFits(fit: MixtureFitResult, families: FamilyName[], kmax: number): MixtureSummary {
  const perConfig = families.length * kmax;
  const nconf = fit.rows.length / perConfig;
  const s: MixtureSummary = {
    configurations: nconf,
    families,
    kmax,
    secondsPerFit: {},
    bestBicSum: {},
    bestFamilyCount: {},
    bestKCount: new Array(kmax).fill(0),
    bestKWithinFamily: {},
    floorBound: {},
    notConverged: {},
    flags: countFlags([], kmax),
    advice: [],
  };
  const chosen: ChosenFit[] = [];
  for (const f of families) {
    s.secondsPerFit[f] = Array.from({ length: kmax }, (_, k) => fit.secondsPerFit.get(`${f}:${k + 1}`) ?? NaN);
    s.bestBicSum[f] = 0;
    s.bestFamilyCount[f] = 0;
    s.bestKWithinFamily[f] = new Array(kmax).fill(0);
    s.floorBound[f] = 0;
    s.notConverged[f] = 0;
  }
  for (let c = 0; c < nconf; c++) {
    const rows = fit.rows.slice(c * perConfig, (c + 1) * perConfig);
    for (const f of families) {
      let best: (typeof rows)[number] | undefined;
      for (const r of rows)
        if (r.family === f) {
          if (r.floorBound) s.floorBound[f]++;
          if (!r.converged) s.notConverged[f]++;
          if (Number.isFinite(r.bic) && (!best || r.bic < best.bic)) best = r;
        }
      if (best) {
        s.bestBicSum[f] += best.bic;
        s.bestKWithinFamily[f][best.k - 1]++;
      }
    }
    const b = rows.find((r) => r.best);
    if (b) {
      chosen.push({ k: b.k, n: b.n, floorBound: b.floorBound, w: b.params.w ?? [] });
      s.bestFamilyCount[b.family]++;
      s.bestKCount[b.k - 1]++;
    }
  }
  s.flags = countFlags(chosen, kmax);
  s.advice = flagAdvice(s.flags);
  return s;
}

function table(head: string[], body: string[][]): string {
  const w = head.map((h, i) => Math.max(h.length, ...body.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((v, i) => (i === 0 ? v.padEnd(w[i]) : v.padStart(w[i]))).join("  ");
  return [line(head), ...body.map(line)].join("\n") + "\n";
}

export function formatTables(s: MixtureSummary): string {
  const ks = Array.from({ length: s.kmax }, (_, k) => `k=${k + 1}`);
  const total = Math.max(1, s.configurations);
  let out = `Mixtures of ${s.configurations} configurations: ${s.families.join(", ")}; k = 1..${s.kmax}\n\n`;
  out += "Table 3: mean fit time per configuration (ms; each family's batched call apportioned to k by work)\n";
  out += table(
    ["family", ...ks],
    s.families.map((f) => [f, ...s.secondsPerFit[f].map((v) => (v * 1000).toFixed(3))]),
  );
  out += "\nTable 4: sum of best BIC per family; counts of the best family\n";
  out += table(
    ["family", "sum of best BIC", "count", "proportion"],
    s.families.map((f) => [f, s.bestBicSum[f].toFixed(1), String(s.bestFamilyCount[f]), (s.bestFamilyCount[f] / total).toFixed(3)]),
  );
  out += "\nTable 5: best number of components (over all families)\n";
  out += table(
    ["", ...ks],
    [
      ["count", ...s.bestKCount.map(String)],
      ["proportion", ...s.bestKCount.map((v) => (v / total).toFixed(3))],
    ],
  );
  out += "\nBest k within each family\n";
  out += table(
    ["family", ...ks],
    s.families.map((f) => [f, ...s.bestKWithinFamily[f].map(String)]),
  );
  out += "\nFits where the tie floor binds / not converged in the iteration limit\n";
  out += table(
    ["family", "floor binds", "not converged"],
    s.families.map((f) => [f, String(s.floorBound[f]), String(s.notConverged[f])]),
  );
  out += "\nFlags on the chosen mixtures\n";
  out += s.advice.length ? s.advice.map((l) => `- ${l}\n`).join("") : "- none: no chosen mixture is at k = kmax, floor-bound or has a single-run component\n";
  return out;
}
