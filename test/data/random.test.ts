import { describe, expect, it } from "vitest";
import { balancedFolds, counterRng, philox4x32 } from "../../ts/data/random.js";

describe("philox4x32-10", () => {
  // Known-answer vectors of Random123 (kat_vectors, philox4x32 10 rounds).
  const kat: [number[], number[], number[]][] = [
    [
      [0, 0, 0, 0],
      [0, 0],
      [0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8],
    ],
    [
      [0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff],
      [0xffffffff, 0xffffffff],
      [0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd],
    ],
    [
      [0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344],
      [0xa4093822, 0x299f31d0],
      [0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1],
    ],
  ];
  it.each(kat)("ctr %j key %j", (c, k, want) => {
    const out = new Uint32Array(4);
    philox4x32(c[0], c[1], c[2], c[3], k[0], k[1], out);
    expect(Array.from(out)).toEqual(want);
  });
});

describe("counterRng", () => {
  it("is a pure function of (seed, keys)", () => {
    const a = counterRng(7, 3, "x");
    const b = counterRng(7, 3, "x");
    const xs = Array.from({ length: 20 }, () => a.next());
    expect(Array.from({ length: 20 }, () => b.next())).toEqual(xs);
    expect(counterRng(7, 4, "x").next()).not.toBe(xs[0]);
    expect(counterRng(8, 3, "x").next()).not.toBe(xs[0]);
    expect(counterRng(7, "3", "x").next()).not.toBe(xs[0]);
  });

  it("draws uniforms in [0,1) and normals with the right moments", () => {
    const r = counterRng(1, 0);
    let s = 0,
      s2 = 0,
      lo = 1,
      hi = 0;
    const n = 100_000;
    for (let i = 0; i < n; i++) {
      const u = r.next();
      lo = Math.min(lo, u);
      hi = Math.max(hi, u);
      s += u;
    }
    expect(lo).toBeGreaterThanOrEqual(0);
    expect(hi).toBeLessThan(1);
    expect(Math.abs(s / n - 0.5)).toBeLessThan(0.005);
    s = 0;
    for (let i = 0; i < n; i++) {
      const z = r.normal();
      s += z;
      s2 += z * z;
    }
    expect(Math.abs(s / n)).toBeLessThan(0.02);
    expect(Math.abs(s2 / n - 1)).toBeLessThan(0.02);
  });

  it("int(n) stays in range and covers it", () => {
    const r = counterRng(2);
    const seen = new Set<number>();
    for (let i = 0; i < 1000; i++) {
      const k = r.int(6);
      expect(k).toBeGreaterThanOrEqual(0);
      expect(k).toBeLessThan(6);
      seen.add(k);
    }
    expect(seen.size).toBe(6);
  });
});

describe("balancedFolds", () => {
  it("deals a keyed permutation into k folds whose sizes differ by at most one, the same for the same key", () => {
    for (const [n, k] of [
      [10, 3],
      [7, 7],
      [100, 5],
      [1, 2],
    ]) {
      const f = balancedFolds(n, k, counterRng(3, "t", n));
      const sizes = Array.from({ length: k }, (_, j) => f.filter((x) => x === j).length);
      expect(sizes.reduce((a, b) => a + b, 0)).toBe(n);
      expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
      expect(Array.from(balancedFolds(n, k, counterRng(3, "t", n)))).toEqual(Array.from(f));
    }
    expect(Array.from(balancedFolds(20, 4, counterRng(1)))).not.toEqual(Array.from(balancedFolds(20, 4, counterRng(2))));
  });
});
