// Pareto fronts over two criteria (spec D.2.1): a point is non-dominated when no other is at least as good in both
// criteria and strictly better in one; non-dominated sorting gives every point its front (1 = the Pareto front,
// 2 = the front once front 1 is removed, …). Both criteria are minimized here (negate a maximized one).
//
// O(n log n): sort by the first criterion (then the second); every earlier point is then at least as good in the
// first. A front F dominates the new point p iff its best second value is better than p's, or equal to it while
// reached at a strictly better first value (equal in both = a duplicate, which dominates nothing). Since every
// member of front k+1 is dominated by one of front k, "F_k dominates p" holds for k = 1 … j−1 and fails from j on:
// p joins front j, found by bisection.

/** Front of each point (1-based); 0 for points whose criteria are not both finite (left out of the sorting). */
export function paretoFronts(a: ArrayLike<number>, b: ArrayLike<number>): Int32Array {
  const n = a.length;
  const front = new Int32Array(n);
  const order: number[] = [];
  for (let i = 0; i < n; i++) if (Number.isFinite(a[i]) && Number.isFinite(b[i])) order.push(i);
  order.sort((i, j) => a[i] - a[j] || b[i] - b[j] || i - j);
  // Per front: its best (smallest) second value, and the smallest first value at which it was reached.
  const bestB: number[] = [];
  const firstAtBest: number[] = [];
  const dominates = (k: number, i: number): boolean => bestB[k] < b[i] || (bestB[k] === b[i] && firstAtBest[k] < a[i]);
  for (const i of order) {
    let lo = 0;
    let hi = bestB.length; // answer in [lo, hi]: the first front that does not dominate i
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (dominates(mid, i)) lo = mid + 1;
      else hi = mid;
    }
    if (lo === bestB.length) {
      bestB.push(b[i]);
      firstAtBest.push(a[i]);
    } else if (b[i] < bestB[lo]) {
      bestB[lo] = b[i];
      firstAtBest[lo] = a[i];
    }
    front[i] = lo + 1;
  }
  return front;
}

/** The same by definition, O(n²) per front: for tests. */
export function paretoFrontsBrute(a: ArrayLike<number>, b: ArrayLike<number>): Int32Array {
  const n = a.length;
  const front = new Int32Array(n);
  let left = 0;
  for (let i = 0; i < n; i++) if (Number.isFinite(a[i]) && Number.isFinite(b[i])) left++;
  for (let f = 1; left > 0; f++) {
    const now: number[] = [];
    for (let i = 0; i < n; i++) {
      if (front[i] !== 0 || !(Number.isFinite(a[i]) && Number.isFinite(b[i]))) continue;
      let dominated = false;
      for (let j = 0; j < n && !dominated; j++) {
        if (j === i || front[j] !== 0 || !(Number.isFinite(a[j]) && Number.isFinite(b[j]))) continue;
        dominated = a[j] <= a[i] && b[j] <= b[i] && (a[j] < a[i] || b[j] < b[i]);
      }
      if (!dominated) now.push(i);
    }
    for (const i of now) front[i] = f;
    left -= now.length;
  }
  return front;
}
