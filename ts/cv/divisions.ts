// Random train/test divisions for cross-validation, drawn from the data layer's counter-based generator
// (ts/data/random.ts, Philox4x32-10) keyed by (seed, "cv", map, p, rep): a division is a pure function of its
// key, so it does not depend on which worker or shard draws it, nor on the order tasks run in.
import { counterRng, type CounterRng } from "../data/random.js";
import { seedKey } from "../data/option-values.js";
import { VarmapError } from "../errors.js";

/** The stream of one division. Seeds that are integers key as numbers ("7" and 7 give the same stream). */
export function divisionStream(seed: string | number, map: string, p: number, rep: number): CounterRng {
  return counterRng(seedKey(seed), "cv", map, Math.round(p * 1e9), rep);
}

/** Number of training points for a fraction p of n (the golden splits round: 0.7 × 864 = 604.8 → 605). */
export function trainSize(n: number, p: number): number {
  return Math.min(n, Math.max(0, Math.round(p * n)));
}

/**
 * A random train/test division of n points with round(p·n) training points: a uniformly random subset, drawn by a
 * partial Fisher–Yates shuffle of the smaller side (training set when p ≤ 1/2, test set otherwise: half the draws);
 * both index lists ascending (the order the references are given training points).
 */
export function randomDivision(n: number, p: number, stream: Pick<CounterRng, "int">): { train: Int32Array; test: Int32Array } {
  const k = trainSize(n, p);
  const drawTrain = k <= n - k;
  const m = drawTrain ? k : n - k;
  const perm = new Int32Array(n);
  for (let i = 0; i < n; i++) perm[i] = i;
  const picked = new Uint8Array(n);
  for (let i = 0; i < m; i++) {
    const j = i + stream.int(n - i);
    const t = perm[i];
    perm[i] = perm[j];
    perm[j] = t;
    picked[perm[i]] = 1;
  }
  const train = new Int32Array(k);
  const test = new Int32Array(n - k);
  for (let i = 0, a = 0, b = 0; i < n; i++) {
    if (picked[i] === (drawTrain ? 1 : 0)) train[a++] = i;
    else test[b++] = i;
  }
  return { train, test };
}

/** Parses "a:b:step" (inclusive) or "a,b,c" into fractions in (0, 1), rounded to 1e-9 so 0.1·3 prints as 0.3. */
export function parseFractions(s: string): number[] {
  const bad = (): never => {
    throw new VarmapError("E_USAGE", `--p '${s}' is not a list of training fractions`, {
      remedy: "use start:stop:step such as 0.1:0.9:0.1, or a list such as 0.5,0.9",
    });
  };
  const clean = (x: number): number => Math.round(x * 1e9) / 1e9;
  let ps: number[];
  if (s.includes(":")) {
    const parts = s.split(":").map(Number);
    if (parts.length !== 3 || parts.some((x) => !Number.isFinite(x)) || parts[2] <= 0 || parts[1] < parts[0]) bad();
    const [a, b, st] = parts;
    const n = Math.floor((b - a) / st + 1e-9);
    ps = Array.from({ length: n + 1 }, (_, i) => clean(a + i * st));
  } else ps = s.split(",").map((x) => clean(Number(x.trim())));
  if (!ps.length) bad();
  const outside = ps.find((p) => !(p > 0 && p < 1));
  if (outside !== undefined)
    throw new VarmapError("E_USAGE", `--p '${s}': the training fraction ${outside} is not strictly between 0 and 1`, {
      remedy:
        "a fraction is the share of each map's configurations used for training: 0 leaves no training set and 1 no test set; use values such as 0.1:0.9:0.1 or 0.5,0.9",
    });
  if (new Set(ps).size !== ps.length)
    throw new VarmapError("E_USAGE", `--p '${s}' lists a training fraction twice`, { remedy: "list each fraction once (repetitions are --reps)" });
  return ps;
}
