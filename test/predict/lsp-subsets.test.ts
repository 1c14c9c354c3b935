// LinearShepardSubsets (one neighbour table, many fits) and the cross-validation paths that use it give exactly
// what fitting LinearShepard split by split gives: same predictions bit for bit, same errors.
import { describe, expect, it } from "vitest";
import { cvGivenSplits } from "../../ts/cv/given.js";
import { mapInputScaling, predictSplit } from "../../ts/cv/split.js";
import { splitRows } from "../../ts/cv/splits.js";
import type { VarmapError } from "../../ts/errors.js";
import { LinearShepard, LinearShepardSubsets } from "../../ts/predict/lsp.js";
import { matrix, takeRows } from "../../ts/predict/matrix.js";
import type { PredictorOptions } from "../../ts/predict/estimator.js";
import { rng, selected } from "../helpers/backends.js";
import { hasShared, sharedSkipReason } from "../helpers/shared.js";
import { moanaMap, moanaSplits } from "./golden-data.js";

function divisions(r: () => number, n: number, ps: number[]) {
  return ps.map((p) => {
    const train: number[] = [],
      test: number[] = [];
    for (let i = 0; i < n; i++) (r() < p ? train : test).push(i);
    return { train: Int32Array.from(train), test: Int32Array.from(test) };
  });
}

function oneByOne(X: ReturnType<typeof matrix>, y: Float64Array, s: { train: Int32Array; test: Int32Array }, options: object) {
  try {
    return new LinearShepard(options)
      .fit(
        takeRows(X, s.train),
        Float64Array.from(s.train, (i) => y[i]),
      )
      .predict(takeRows(X, s.test));
  } catch (e) {
    return e as VarmapError;
  }
}

describe(`LinearShepardSubsets on ${selected.name}`, () => {
  const r = rng(5);
  const n = 300,
    d = 3;
  // Inputs on a grid of powers of two (log2 axes, distance ties), a positive response.
  const X = matrix(
    Float64Array.from({ length: n * d }, () => 2 ** Math.floor(r() * 6)),
    n,
    d,
  );
  const y = Float64Array.from({ length: n }, () => 1 + r() * 5);
  const splits = divisions(r, n, [0.08, 0.3, 0.6, 0.9]);
  splits.push({ train: Int32Array.from([0, 1, 2]), test: Int32Array.from([3, 4]) }); // too few points

  const cases: [string, PredictorOptions][] = [
    ["fixed unit scaling with log2 inputs, log response", { inputs: { kind: "unit", log2: [0, 1, 2], lo: [0, 0, 0], hi: [5, 5, 5] }, response: "log" }],
    ["no scaling", { inputs: { kind: "none" } }],
    ["scaling over each training set (split by split)", {}],
  ];
  for (const [label, options] of cases)
    it(`${label}: predictions and errors equal fitting split by split`, () => {
      const subsets = new LinearShepardSubsets(X, y, options);
      expect(subsets.sharesTable).toBe(label !== "scaling over each training set (split by split)");
      const got = subsets.predict(splits);
      splits.forEach((s, i) => {
        const want = oneByOne(X, y, s, options);
        if (want instanceof Float64Array) expect(Array.from(got[i] as Float64Array)).toEqual(Array.from(want));
        else expect([(got[i] as VarmapError).code, (got[i] as VarmapError).message]).toEqual([want.code, want.message]);
      });
    });

  it("returns a duplicate-points error for the split that holds both copies, as the predictor does", () => {
    const Xd = matrix(Float64Array.from(X.data), n, d);
    Xd.data.set(Xd.data.subarray(0, d), 5 * d); // row 5 = row 0
    const s = [
      { train: Int32Array.from({ length: 100 }, (_, i) => i), test: Int32Array.from([200]) },
      { train: Int32Array.from({ length: 100 }, (_, i) => i + 100), test: Int32Array.from([0]) },
    ];
    const got = new LinearShepardSubsets(Xd, y, { inputs: { kind: "none" } }).predict(s);
    const want = oneByOne(Xd, y, s[0], { inputs: { kind: "none" } }) as VarmapError;
    expect((got[0] as VarmapError).code).toBe("E_DUPLICATE_POINTS");
    expect((got[0] as VarmapError).message).toBe(want.message);
    expect(Array.from(got[1] as Float64Array)).toEqual(Array.from(oneByOne(Xd, y, s[1], { inputs: { kind: "none" } }) as Float64Array));
  });
});

describe.skipIf(!hasShared)(`cvGivenSplits with lsp on ${selected.name}${hasShared ? "" : ` — ${sharedSkipReason}`}`, () => {
  it("equals predictSplit split by split on the real map (every 6th of the 180 splits)", () => {
    const map = moanaMap();
    const all = moanaSplits();
    const some = { ...all, splits: all.splits.filter((_, i) => i % 6 === 0) };
    const results = cvGivenSplits(map, some, "lsp");
    const X = matrix(map.X, map.rows, map.cols);
    some.splits.forEach((s, i) => {
      const { train, test } = splitRows(s, map.ids, { file: some.source, index: i });
      const want = predictSplit(X, map.y, train, test, "lsp", { inputs: mapInputScaling(map.normalization) });
      expect(Array.from(results[i].predictions)).toEqual(Array.from(want));
    });
  });
});
