// Group-out cross-validation's pure parts (issue 41): groups of a map, folds of groups, extrapolation, Kendall's τ,
// the novelty of queries, and the grouped conformal half-widths.
import { describe, expect, it } from "vitest";
import { extrapolatedInputs, groupDivisions, groupFolds, kendallTau, mapGroups, novelByGroups, novelByPairs } from "../../ts/cv/groups.js";
import { groupedHalfWidths, noveltyKind, calibrateGrouped } from "../../ts/predict/conformal.js";
import { matrix } from "../../ts/predict/matrix.js";

// A 3 × 3 × 4 grid: a (2 inputs) × b, c; row-major inputs a, b, c.
function grid(): { X: Float64Array; rows: number } {
  const v: number[] = [];
  for (const a of [1, 2, 4]) for (const b of [10, 20, 40]) for (const c of [1, 2, 3, 4]) v.push(a, b, c);
  return { X: Float64Array.from(v), rows: v.length / 3 };
}

describe("groups", () => {
  it("labels each distinct combination of the group columns, in ascending order of levels", () => {
    const { X, rows } = grid();
    const g = mapGroups(X, rows, 3, [
      { name: "a", input: 0 },
      { name: "b", input: 1 },
    ]);
    expect(g.labels).toHaveLength(9);
    expect(g.labels[0]).toBe("a=1;b=10");
    expect(g.labels[8]).toBe("a=4;b=40");
    expect(g.sizes.every((s) => s === 4)).toBe(true);
    const divisions = groupDivisions(g, groupFolds(9, undefined, "1", "m"));
    expect(divisions).toHaveLength(9);
    for (const d of divisions) {
      expect(d.test.length).toBe(4);
      expect(d.train.length).toBe(32);
      // The held-out rows share one group; none of it is in training.
      expect(new Set(Array.from(d.test, (r) => g.of[r])).size).toBe(1);
      expect(Array.from(d.train).some((r) => g.of[r] === g.of[d.test[0]])).toBe(false);
    }
    // A factor (one level in the map) makes one group: the whole map.
    expect(mapGroups(X, rows, 3, [{ name: "f", value: "x" }]).labels).toEqual(["f=x"]);
  });

  it("folds whole groups into K balanced folds, the same for the same key", () => {
    const f = groupFolds(9, 3, "7", "map");
    expect(Array.from(f).sort()).toEqual([0, 0, 0, 1, 1, 1, 2, 2, 2]);
    expect(Array.from(groupFolds(9, 3, "7", "map"))).toEqual(Array.from(f));
    expect(Array.from(groupFolds(9, 3, "8", "map"))).not.toEqual(Array.from(f));
  });

  it("marks a group outside the training range of an input as extrapolated", () => {
    const { X, rows } = grid();
    const all = Array.from({ length: rows }, (_, i) => i);
    const isA1B10 = (r: number) => X[r * 3] === 1 && X[r * 3 + 1] === 10;
    const corner = all.filter(isA1B10);
    expect(
      extrapolatedInputs(
        X,
        3,
        ["a", "b", "c"],
        all.filter((r) => !isA1B10(r)),
        corner,
      ),
    ).toEqual([]);
    // Without every a = 1 row, a = 1 lies below the training range of a.
    expect(
      extrapolatedInputs(
        X,
        3,
        ["a", "b", "c"],
        all.filter((r) => X[r * 3] !== 1),
        corner,
      ),
    ).toEqual(["a"]);
  });

  it("Kendall's τ is 1 for the same order, -1 for the reverse and τ-b with ties", () => {
    expect(kendallTau([1, 2, 3, 4], [10, 20, 30, 40])).toBe(1);
    expect(kendallTau([1, 2, 3, 4], [4, 3, 2, 1])).toBe(-1);
    expect(kendallTau([1, 2, 3], [1, 3, 2])).toBeCloseTo(1 / 3, 12);
    expect(kendallTau([1, 1, 2], [1, 2, 3])).toBeCloseTo(2 / Math.sqrt(6), 12);
    expect(Number.isNaN(kendallTau([1], [2]))).toBe(true);
  });

  it("novelty: a combination of group levels absent from training; by dense pairs without group columns", () => {
    const { X, rows } = grid();
    const keep = Array.from({ length: rows }, (_, i) => i).filter((r) => !(X[r * 3] === 2 && X[r * 3 + 1] === 20));
    const T = Float64Array.from(keep.flatMap((r) => [X[r * 3], X[r * 3 + 1], X[r * 3 + 2]]));
    const Q = Float64Array.from([2, 20, 1, 2, 40, 1]);
    expect(Array.from(novelByGroups(T, keep.length, Q, 2, 3, [0, 1]))).toEqual([1, 0]);
    // (a, b) is measured densely (4 rows per combination) but never at (2, 20): novel without naming the groups.
    expect(Array.from(novelByPairs(T, keep.length, Q, 2, 3))).toEqual([1, 0]);
    // A sparse sample (one row per pair combination at most) marks nothing novel.
    const sparse = Float64Array.from([1, 10, 1, 2, 40, 2, 4, 20, 3]);
    expect(Array.from(novelByPairs(sparse, 3, Q, 2, 3))).toEqual([0, 0]);
  });

  it("kinds of novel queries: measured levels, a new level inside the range, outside the range", () => {
    const T = matrix(Float64Array.from([1, 10, 1, 40, 4, 10, 4, 40]), 4, 2);
    const Q = matrix(Float64Array.from([1, 10, 4, 20, 2, 10, 8, 10]), 4, 2);
    expect(Array.from(noveltyKind(T, Q))).toEqual([1, 2, 2, 3]);
  });

  it("grouped half-widths grow with novelty; an empty kind borrows the harsher kind's", () => {
    const cal = {
      folds: 5,
      response: "log" as const,
      residuals: Array.from({ length: 99 }, (_, i) => i / 1000),
      novel: Array.from({ length: 99 }, (_, i) => i / 100),
      newLevel: [],
      extrapolated: Array.from({ length: 99 }, (_, i) => i / 10),
      groupFolds: 5,
    };
    const [q0, q1, q2, q3] = groupedHalfWidths(cal, 0.9);
    expect(q0).toBeCloseTo(0.089, 12);
    expect(q1).toBeCloseTo(0.89, 12);
    expect(q2).toBe(q3);
    expect(q3).toBeCloseTo(8.9, 12);
  });

  it("calibrateGrouped puts leave-group-out residuals under the held-out points' kinds", () => {
    const { X, rows } = grid();
    const y = Float64Array.from({ length: rows }, (_, r) => 1 + X[r * 3] + 0.1 * X[r * 3 + 1] + 0.5 * X[r * 3 + 2]);
    const groupOf = Array.from({ length: rows }, (_, r) => [1, 2, 4].indexOf(X[r * 3]) * 3 + [10, 20, 40].indexOf(X[r * 3 + 1]));
    const cal = calibrateGrouped("lr", { response: "linear" }, matrix(X, rows, 3), y, groupOf, 9, 0);
    expect(cal.residuals).toHaveLength(rows);
    // 9 groups, one per fold: every level of a held-out group is measured in another group, so each is a novel
    // combination of measured levels (kind 1), none a new level or outside the range.
    expect(cal.novel).toHaveLength(rows);
    expect(cal.newLevel.length + cal.extrapolated.length).toBe(0);
    // A linear truth: lr predicts every held-out group exactly.
    expect(Math.max(...cal.novel, ...cal.newLevel, ...cal.extrapolated)).toBeLessThan(1e-9);
  });
});
