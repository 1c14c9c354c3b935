// Questionable cross-validation inputs are refused before any work: repeated fractions, an unbounded --reps,
// given splits with p outside (0, 1), repeated labels or repeated training ids.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseFractions } from "../../ts/cv/divisions.js";
import { readSplitsFile } from "../../ts/cv/splits.js";
import { packMaps } from "../../ts/data/shared-maps.js";
import { cvPlan } from "../../ts/jobs/cv.js";
import { gridMaps } from "../pool/fixtures.js";

const splitsFile = (splits: unknown[]): string => {
  const f = join(mkdtempSync(join(tmpdir(), "varmap-splits-")), "s.json");
  writeFileSync(f, JSON.stringify({ n: 4, splits }));
  return f;
};

describe("cross-validation options", () => {
  it("refuses a training fraction listed twice", () => {
    expect(() => parseFractions("0.5,0.5")).toThrow(/twice/);
    expect(parseFractions("0.5,0.25")).toEqual([0.5, 0.25]);
  });

  it("names the fraction outside (0, 1) and what 0 and 1 would mean", () => {
    for (const [arg, bad] of [
      ["0.5,1.2", "1.2"],
      ["0,0.5", "0"],
      ["0.9,1", "1"],
    ]) {
      try {
        parseFractions(arg);
        expect.unreachable(`--p ${arg} was accepted`);
      } catch (e) {
        expect((e as Error).message).toContain(`the training fraction ${bad} is not strictly between 0 and 1`);
        expect((e as { remedy?: string }).remedy).toMatch(/0 leaves no training set and 1 no test set/);
      }
    }
  });

  it("bounds --reps instead of running the heap out", () => {
    const maps = packMaps(gridMaps(1, 3));
    expect(() => cvPlan(maps, { methods: ["lr"], response: "linear", ps: [0.5], reps: 1_000_000_000 })).toThrow(/--reps 1000000000/);
    expect(() => cvPlan(maps, { methods: ["lr"], response: "linear", ps: [0.5], reps: 200 })).not.toThrow();
  });

  it("checks given splits: p in (0, 1), one label per split, each training id once", () => {
    expect(() => readSplitsFile(splitsFile([{ p: 1.5, rep: 0, train: [0, 1] }]))).toThrow(/outside \(0, 1\)/);
    expect(() =>
      readSplitsFile(
        splitsFile([
          { p: 0.5, rep: 0, train: [0, 1] },
          { p: 0.5, rep: 0, train: [2, 3] },
        ]),
      ),
    ).toThrow(/repeats the label/);
    expect(() => readSplitsFile(splitsFile([{ p: 0.5, rep: 0, train: [0, 0] }]))).toThrow(/more than once/);
    expect(readSplitsFile(splitsFile([{ p: 0.5, rep: 0, train: [0, 1] }])).splits.length).toBe(1);
  });
});
