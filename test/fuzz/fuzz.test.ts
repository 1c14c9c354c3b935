// Property-based fuzzing (bench/fuzz-cases.ts): every predictor and the mixture fits on hostile data, both
// backends where the native addon is built. A bounded number of fixed-seed cases here; `node dist/bench/fuzz.js
// --minutes N` runs many more. A failure names its case index, which reproduces it.
import { describe, expect, it } from "vitest";
import { fuzzMixtures, fuzzPredictors } from "../fixtures/fuzz-cases.js";
import { nativeBackend, wasmBackend } from "../helpers/backends.js";

const backends = nativeBackend ? [nativeBackend, wasmBackend] : [wasmBackend];

describe(`fuzz (${backends.map((b) => b.name).join(" + ")})`, () => {
  it("predictors: coded errors or finite predictions; backends agree", () => {
    // Every class held (issue 14): no uncoded error (the JSON round trip is bit-exact), no parity difference, no
    // non-finite value, nothing beyond 1e6 × the data (rbf's conditioning floor, the estimators' clamps).
    const failures = fuzzPredictors(1, 0, 400, backends);
    expect(failures.slice(0, 10)).toEqual([]);
  });
  it("mixtures: coded errors or log likelihoods that are densities; backends agree", () => {
    const failures = fuzzMixtures(1, 0, 60, backends);
    expect(failures.slice(0, 10)).toEqual([]);
  });
});
