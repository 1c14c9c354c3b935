// Validation of a what-if ranking against measured truth (spec D.2.2, seed 004's criterion "correctly identifies
// the configuration that achieves the best performance"): per map, the top-1 hit, the regret of running the
// predicted best, Spearman's ρ between predicted and true objective, the top-10 overlap and the share of the true
// Pareto front that the predicted front recovers.
import { frontsOf, rankBy, type Criterion, type Evaluation } from "./objective.js";

export interface ValidationMetrics {
  /** Candidates of the map with a valid prediction and a measured objective. */
  candidates: number;
  /** 1 when the predicted best's true objective equals the true best's (ties in the truth count as hits). */
  top1: number;
  /** |obj(true best) − obj(predicted best)| / |obj(true best)|, both measured. */
  regret: number;
  spearman: number;
  /** |top-k predicted ∩ top-k true| / k, k = min(10, ranked candidates). */
  top10: number;
  /** Share of the true Pareto front found in the predicted front. */
  paretoRecall: number;
}

/**
 * Metrics over the candidates `members` (one map) of a predicted and a true evaluation of the same candidates
 * (same objective, constraints and Pareto criteria). Rankings are redone within the map.
 */
export function validateMap(
  pred: Evaluation,
  truth: Evaluation,
  members: ArrayLike<number>,
  objective: Criterion,
  pareto: [Criterion, Criterion],
): ValidationMetrics {
  const both = new Uint8Array(pred.mean.length);
  let candidates = 0;
  for (let k = 0; k < members.length; k++) {
    const i = members[k];
    if (!pred.invalid[i] && Number.isFinite(pred.objective[i]) && Number.isFinite(truth.objective[i])) {
      both[i] = 1;
      candidates++;
    }
  }
  const predRank = rankBy(pred.objective, objective.direction, pred.feasible, members);
  const trueRank = rankBy(truth.objective, objective.direction, truth.feasible, members);
  const byRank = (rank: Int32Array): number[] => {
    const out: number[] = [];
    for (let k = 0; k < members.length; k++) if (rank[members[k]] > 0) out[rank[members[k]] - 1] = members[k];
    return out;
  };
  const predOrder = byRank(predRank);
  const trueOrder = byRank(trueRank);
  let top1 = NaN;
  let regret = NaN;
  if (predOrder.length && trueOrder.length) {
    const best = truth.objective[trueOrder[0]];
    const chosen = truth.objective[predOrder[0]];
    top1 = chosen === best ? 1 : 0;
    regret = Math.abs(best - chosen) / Math.abs(best);
  }
  const k = Math.min(10, predOrder.length, trueOrder.length);
  let top10 = NaN;
  if (k > 0) {
    const t = new Set(trueOrder.slice(0, k));
    top10 = predOrder.slice(0, k).filter((i) => t.has(i)).length / k;
  }
  const xs: number[] = [];
  const ys: number[] = [];
  for (let q = 0; q < members.length; q++) {
    const i = members[q];
    if (both[i]) {
      xs.push(pred.objective[i]);
      ys.push(truth.objective[i]);
    }
  }
  const predFront = frontsOf(pred, pareto, pred.feasible, members);
  const trueFront = frontsOf(truth, pareto, truth.feasible, members);
  let trueSize = 0;
  let found = 0;
  for (let q = 0; q < members.length; q++) {
    const i = members[q];
    if (trueFront[i] === 1) {
      trueSize++;
      if (predFront[i] === 1) found++;
    }
  }
  return { candidates, top1, regret, spearman: spearman(xs, ys), top10, paretoRecall: trueSize ? found / trueSize : NaN };
}

/** Spearman's rank correlation (Pearson correlation of average ranks, so ties are handled). */
export function spearman(x: readonly number[], y: readonly number[]): number {
  if (x.length < 2) return NaN;
  return pearson(averageRanks(x), averageRanks(y));
}

export function averageRanks(v: readonly number[]): Float64Array {
  const order = v.map((_, i) => i).sort((i, j) => v[i] - v[j] || i - j);
  const r = new Float64Array(v.length);
  for (let s = 0; s < order.length; ) {
    let e = s;
    while (e + 1 < order.length && v[order[e + 1]] === v[order[s]]) e++;
    const avg = (s + e) / 2 + 1;
    for (let k = s; k <= e; k++) r[order[k]] = avg;
    s = e + 1;
  }
  return r;
}

function pearson(a: Float64Array, b: Float64Array): number {
  const n = a.length;
  let ma = 0;
  let mb = 0;
  for (let i = 0; i < n; i++) {
    ma += a[i];
    mb += b[i];
  }
  ma /= n;
  mb /= n;
  let sab = 0;
  let saa = 0;
  let sbb = 0;
  for (let i = 0; i < n; i++) {
    sab += (a[i] - ma) * (b[i] - mb);
    saa += (a[i] - ma) ** 2;
    sbb += (b[i] - mb) ** 2;
  }
  return saa > 0 && sbb > 0 ? sab / Math.sqrt(saa * sbb) : NaN;
}
