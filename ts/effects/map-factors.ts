// The ANOVA factors of a map (issue 45): its inputs on their levels when gridded (at most maxLevels levels), as a
// linear covariate otherwise; inputs named together in `combine` become one factor (e.g. the file/record size pair).
import type { VariabilityMap } from "../data/types.js";
import { covariateOf, factorOf, type AnovaFactor } from "./anova.js";

/** The map's ANOVA factors: inputs in map order, a combined group in the place of its first member. */
export function mapFactors(map: VariabilityMap, combine: string[][], maxLevels: number): AnovaFactor[] {
  const d = map.inputNames.length;
  const col = (j: number) => Float64Array.from({ length: map.rows }, (_, i) => map.X[i * d + j]);
  const groupOf = (name: string) => combine.find((g) => g.includes(name));
  const done = new Set<string>();
  const factors: AnovaFactor[] = [];
  map.inputNames.forEach((name, j) => {
    const g = groupOf(name);
    if (g) {
      if (done.has(g.join("+"))) return;
      done.add(g.join("+"));
      const members = g.map((m) => map.inputNames.indexOf(m)).filter((k) => k >= 0);
      if (members.length === 1) {
        factors.push(factorOf(map.inputNames[members[0]], col(members[0])));
        return;
      }
      const values = Array.from({ length: map.rows }, (_, i) => members.map((k) => map.X[i * d + k]).join("|"));
      factors.push(factorOf(members.map((k) => map.inputNames[k]).join("+"), values));
      return;
    }
    const c = col(j);
    const levels = new Set(c).size;
    factors.push(levels <= maxLevels ? factorOf(name, c) : covariateOf(name, c));
  });
  return factors;
}
