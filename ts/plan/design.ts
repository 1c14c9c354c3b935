// Space-filling designs over a configuration space (issue 43): the first batch of an empty campaign, and the
// space-filling baseline of a replay. Maximin Latin hypercube on the normalized inputs, per map (factor
// combination), snapped to the grid: of `tries` random Latin hypercubes, each point moved to the nearest unused
// configuration of the map, the design whose smallest pairwise distance (with the map's already measured
// configurations) is largest. Configurations are spread over the maps in proportion to their sizes.
import type { CounterRng } from "../data/random.js";
import type { ConfigSpace } from "./space.js";

function dist2(U: Float64Array, d: number, a: number, b: number): number {
  let s = 0;
  for (let j = 0; j < d; j++) s += (U[a * d + j] - U[b * d + j]) ** 2;
  return s;
}

/** Configuration indices of each map. */
export function mapMembers(space: ConfigSpace): number[][] {
  const out: number[][] = space.maps.map(() => []);
  for (let c = 0; c < space.count; c++) out[space.map[c]].push(c);
  return out;
}

/** Splits k over groups of the given sizes in proportion (largest remainder), each at most its size. */
export function proportional(k: number, sizes: number[]): number[] {
  const total = sizes.reduce((a, b) => a + b, 0);
  const out = sizes.map((s) => Math.min(s, Math.floor((k * s) / total)));
  let left = k - out.reduce((a, b) => a + b, 0);
  const order = sizes.map((s, i) => ({ i, r: (k * s) / total - Math.floor((k * s) / total) })).sort((a, b) => b.r - a.r || a.i - b.i);
  while (left > 0 && order.some((o) => out[o.i] < sizes[o.i])) {
    for (const o of order) {
      if (left === 0) break;
      if (out[o.i] < sizes[o.i]) {
        out[o.i]++;
        left--;
      }
    }
  }
  return out;
}

/** A maximin LHS of k configurations among `members` (avoiding `taken`, spread away from `fixed`). */
export function maximinLhs(
  space: ConfigSpace,
  members: readonly number[],
  k: number,
  rng: CounterRng,
  taken: ReadonlySet<number>,
  fixed: readonly number[] = [],
  tries = 20,
): number[] {
  const d = space.inputs.length;
  const free = members.filter((c) => !taken.has(c));
  if (k >= free.length) return [...free];
  if (k <= 0) return [];
  let best: number[] = [];
  let bestScore = -1;
  for (let t = 0; t < tries; t++) {
    // One Latin hypercube: per input a random permutation of the k strata, a uniform point in each.
    const pts = new Float64Array(k * d);
    for (let j = 0; j < d; j++) {
      const perm = Array.from({ length: k }, (_, i) => i);
      for (let i = k - 1; i > 0; i--) {
        const r = rng.int(i + 1);
        [perm[i], perm[r]] = [perm[r], perm[i]];
      }
      for (let i = 0; i < k; i++) pts[i * d + j] = (perm[i] + rng.next()) / k;
    }
    const used = new Set<number>();
    const chosen: number[] = [];
    for (let i = 0; i < k; i++) {
      let arg = -1,
        bd = Infinity;
      for (const c of free) {
        if (used.has(c)) continue;
        let s = 0;
        for (let j = 0; j < d; j++) s += (space.U[c * d + j] - pts[i * d + j]) ** 2;
        if (s < bd) (bd = s), (arg = c);
      }
      used.add(arg);
      chosen.push(arg);
    }
    let score = Infinity;
    const all = [...chosen, ...fixed];
    for (let a = 0; a < chosen.length; a++) for (let b = a + 1; b < all.length; b++) score = Math.min(score, dist2(space.U, d, all[a], all[b]));
    if (score > bestScore) (bestScore = score), (best = chosen);
  }
  return best;
}

/** Greedy farthest-point order of a map's configurations from a random start (the space-filling replay order). */
export function farthestPointOrder(space: ConfigSpace, members: readonly number[], rng: CounterRng): number[] {
  const d = space.inputs.length;
  const n = members.length;
  if (n === 0) return [];
  const order = [members[rng.int(n)]];
  const near = new Float64Array(n).fill(Infinity);
  const done = new Uint8Array(n);
  done[members.indexOf(order[0])] = 1;
  while (order.length < n) {
    const last = order[order.length - 1];
    let arg = -1,
      best = -1;
    for (let i = 0; i < n; i++) {
      if (done[i]) continue;
      near[i] = Math.min(near[i], dist2(space.U, d, members[i], last));
      if (near[i] > best) (best = near[i]), (arg = i);
    }
    done[arg] = 1;
    order.push(members[arg]);
  }
  return order;
}

/**
 * Greedy maximin: k configurations of `members` (not in `taken`), each the farthest from those chosen and `fixed`
 * (the first, when nothing is fixed, drawn at random). On a grid it reaches the boundary first, where predictors
 * extrapolate worst; the replays measured it ahead of the snapped Latin hypercube.
 */
export function greedyMaximin(
  space: ConfigSpace,
  members: readonly number[],
  k: number,
  rng: CounterRng,
  taken: ReadonlySet<number>,
  fixed: readonly number[] = [],
): number[] {
  const d = space.inputs.length;
  const free = members.filter((c) => !taken.has(c));
  if (k >= free.length) return [...free];
  if (k <= 0) return [];
  const near = new Float64Array(free.length).fill(Infinity);
  for (const f of fixed) for (let i = 0; i < free.length; i++) near[i] = Math.min(near[i], dist2(space.U, d, free[i], f));
  const chosen: number[] = [];
  const done = new Uint8Array(free.length);
  for (let t = 0; t < k; t++) {
    let arg = -1;
    if (t === 0 && fixed.length === 0) arg = rng.int(free.length);
    else for (let i = 0; i < free.length; i++) if (!done[i] && (arg < 0 || near[i] > near[arg])) arg = i;
    done[arg] = 1;
    chosen.push(free[arg]);
    for (let i = 0; i < free.length; i++) near[i] = Math.min(near[i], dist2(space.U, d, free[i], free[arg]));
  }
  return chosen;
}
