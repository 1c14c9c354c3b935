// The judge of `--log-inputs auto`'s candidates (ts/data/auto-transforms.ts): a positive input spanning more than a
// factor 2 that is not a power-of-two ladder may be better modelled on a log or on a linear scale, and only the
// responses can tell. Each choice of logged candidates is scored by the generalized cross-validation score of a
// smoothing thin-plate spline (the rbf predictor: an estimate of its mean squared prediction error, comparable
// across input scales since the responses are the same), on the log of the responses when they are positive,
// summed over a sample of the maps weighted by their size. Every candidate stays logged (the span rule) unless
// the best choice lowers that score by more than JUDGE_MARGIN: a near tie keeps the rule tuned on the real data.
import type { JudgedMap, LogInputsJudge } from "../data/auto-transforms.js";
import { matrix } from "./matrix.js";
import { Rbf } from "./rbf.js";

/** Relative improvement of the GCV score below which the span rule (log every candidate) stands. */
export const JUDGE_MARGIN = 0.02;
/** Up to this many candidates every subset is scored (16 choices); above, one candidate is switched at a time. */
const EXHAUSTIVE_CANDIDATES = 4;

/** Σ rows · GCV over the maps with `log2` logged, or Infinity when a map cannot be fitted. */
function score(maps: JudgedMap[], d: number, log2: number[]): number {
  let total = 0;
  let rows = 0;
  for (const m of maps) {
    if (m.rows < 3 * (d + 2)) continue; // too few points for a spline to say anything
    const positive = m.y.every((v) => v > 0);
    try {
      const fit = new Rbf({ inputs: { log2 }, response: positive ? "log" : "linear" }).fit(matrix(m.X, m.rows, d), m.y);
      total += m.rows * fit.toJSON().state.gcv;
      rows += m.rows;
    } catch {
      return Infinity;
    }
  }
  return rows > 0 ? total / rows : Infinity;
}

export const splineGcvJudge: LogInputsJudge = (maps, d, logged, candidates) => {
  const scores = new Map<string, number>();
  const scoreOf = (chosen: number[]): number => {
    const key = chosen
      .slice()
      .sort((a, b) => a - b)
      .join(",");
    let s = scores.get(key);
    if (s === undefined)
      scores.set(
        key,
        (s = score(
          maps,
          d,
          [...logged, ...chosen].sort((a, b) => a - b),
        )),
      );
    return s;
  };
  const rule = scoreOf(candidates);
  let best = candidates;
  let bestScore = rule;
  if (candidates.length <= EXHAUSTIVE_CANDIDATES) {
    for (let mask = 0; mask < 1 << candidates.length; mask++) {
      const chosen = candidates.filter((_, k) => mask & (1 << k));
      const s = scoreOf(chosen);
      if (s < bestScore) (best = chosen), (bestScore = s);
    }
  } else {
    // Coordinate descent, switching one candidate at a time while the score improves, from both ends (all logged,
    // none logged): from one end alone a single switch is often worse, although a far choice is much better.
    for (const start of [candidates, []]) {
      let at = start;
      let atScore = scoreOf(at);
      for (let pass = 0, moved = true; pass < 3 && moved; pass++) {
        moved = false;
        for (const j of candidates) {
          const trial = at.includes(j) ? at.filter((v) => v !== j) : [...at, j];
          const s = scoreOf(trial);
          if (s < atScore) (at = trial), (atScore = s), (moved = true);
        }
      }
      if (atScore < bestScore) (best = at), (bestScore = atScore);
    }
  }
  if (!Number.isFinite(rule) && !Number.isFinite(bestScore)) return undefined;
  const decided = bestScore < rule * (1 - JUDGE_MARGIN) ? best : candidates;
  const decidedScore = scoreOf(decided); // cached
  const reasons = new Map<number, string>();
  for (const j of candidates) {
    const other = decided.includes(j) ? decided.filter((v) => v !== j) : [...decided, j];
    const otherScore = scoreOf(other);
    const fmt = (v: number): string => (Number.isFinite(v) ? v.toPrecision(3) : "no fit");
    reasons.set(
      j,
      decided.includes(j)
        ? `a spline's GCV score ${fmt(decidedScore)} logged, ${fmt(otherScore)} linear`
        : `a spline's GCV score ${fmt(decidedScore)} linear, ${fmt(otherScore)} logged`,
    );
  }
  return { log: decided, reasons };
};
