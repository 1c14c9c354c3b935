// The fast bootstrap (several indices per 32-bit draw, medians from resample counts) against a plain one.
import { describe, expect, it } from "vitest";
import { counterRng } from "../../ts/data/random.js";
import { IndexDrawer, MAX_TABLE_RUNS, bootstrapDegradationCI, degradation } from "../../ts/interference/bootstrap.js";

function plainCI(alone: Float64Array, int: Float64Array, how: "median" | "mean", B: number, seed: number, id: string): [number, number] {
  const rng = counterRng(seed, "interference-bootstrap", id);
  // A resample of n ≤ 7 runs is one uniform s in [0, n^n) whose base-n digits are the indices; beyond, index by index.
  const sampler = (n: number) => {
    if (n > MAX_TABLE_RUNS) {
      const d = new IndexDrawer(n, rng);
      return () => Array.from({ length: n }, () => d.next());
    }
    const d = new IndexDrawer(n ** n, rng);
    return () => {
      let s = d.next();
      return Array.from({ length: n }, () => {
        const i = s % n;
        s = (s - i) / n;
        return i;
      });
    };
  };
  const da = sampler(alone.length);
  const di = sampler(int.length);
  const agg = (v: number[]) => {
    if (how === "mean") return v.reduce((a, b) => a + b, 0) / v.length;
    const s = [...v].sort((a, b) => a - b);
    const n = s.length;
    return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
  };
  const stats: number[] = [];
  for (let b = 0; b < B; b++) {
    const a = agg(da().map((i) => alone[i]));
    const x = agg(di().map((i) => int[i]));
    stats.push(degradation("throughput", a, x));
  }
  stats.sort((a, b) => a - b);
  const q = (p: number) => {
    const h = (B - 1) * p;
    const i = Math.floor(h);
    return stats[i] + (h - i) * (stats[i + 1] - stats[i]);
  };
  return [q(0.025), q(0.975)];
}

describe("bootstrap", () => {
  it("index drawer: uniform digits (n = 5: 13 per word) and every n from 1 to 40", () => {
    for (const n of [1, 2, 3, 5, 7, 16, 40]) {
      const d = new IndexDrawer(n, counterRng(9, n));
      const counts = new Array(n).fill(0);
      const N = 20000 * n;
      for (let i = 0; i < N; i++) counts[d.next()]++;
      for (const c of counts) expect(Math.abs(c / N - 1 / n)).toBeLessThan(5 * Math.sqrt(1 / n / N) + 1e-12);
    }
  });
  it("median and mean intervals equal a plain sort-every-resample bootstrap on the same draws", () => {
    const r = counterRng(4, "data");
    for (const [na, ni] of [
      [5, 5],
      [4, 6],
      [7, 3],
      [1, 5],
      [10, 10],
      [8, 2],
    ]) {
      const alone = Float64Array.from({ length: na }, () => 10 + r.normal()).sort();
      const int = Float64Array.from({ length: ni }, () => 5 + r.normal()).sort();
      for (const how of ["median", "mean"] as const) {
        const fast = bootstrapDegradationCI(alone, int, how, "throughput", 500, 0.95, 1, `p${na}-${ni}`);
        const plain = plainCI(alone, int, how, 500, 1, `p${na}-${ni}`);
        expect(fast[0]).toBeCloseTo(plain[0], 12);
        expect(fast[1]).toBeCloseTo(plain[1], 12);
      }
    }
  });
});
