// Absolute relative error (seed 000 eq. 1): mean over test points of |prediction − truth| / truth.

export function are(pred: ArrayLike<number>, truth: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < pred.length; i++) s += Math.abs(pred[i] - truth[i]) / Math.abs(truth[i]);
  return s / pred.length;
}

/** Mean ARE per training fraction p over the splits with that p, ascending p. */
export function meanArePerP(results: readonly { p: number; are: number }[]): { p: number; splits: number; are: number }[] {
  const by = new Map<number, number[]>();
  for (const r of results) (by.get(r.p) ?? by.set(r.p, []).get(r.p)!).push(r.are);
  return [...by.entries()].sort((a, b) => a[0] - b[0]).map(([p, v]) => ({ p, splits: v.length, are: v.reduce((a, b) => a + b, 0) / v.length }));
}
