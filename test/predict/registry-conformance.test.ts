// The conformance suite (conformance.ts) on every predictor of the registry: a predictor added to the registry
// without an entry below fails, and a broken one fails (nothing here is skipped for lack of a predictor).
import { describe, expect, it } from "vitest";
import { PREDICTORS } from "../../ts/predict/registry.js";
import { runConformance } from "./conformance.js";

/** What each predictor promises, stated independently of its code (a changed minimum fails the suite). */
const EXPECTED: Record<string, { interpolates: boolean; minPoints: (d: number) => number }> = {
  lr: { interpolates: false, minPoints: (d) => d + 1 },
  lsp: { interpolates: true, minPoints: (d) => d + 2 },
  delaunay: { interpolates: true, minPoints: (d) => d + 1 },
  mars: { interpolates: false, minPoints: () => 2 },
  rbf: { interpolates: false, minPoints: (d) => d + 2 },
  gp: { interpolates: false, minPoints: (d) => d + 2 },
  auto: { interpolates: false, minPoints: (d) => d + 2 },
  hybrid: { interpolates: false, minPoints: (d) => d + 2 },
  mean: { interpolates: false, minPoints: () => 1 },
};

describe("predictor registry", () => {
  it("every registered predictor has conformance expectations, and every expectation a predictor", () => {
    expect(PREDICTORS.map((p) => p.name).sort()).toEqual(Object.keys(EXPECTED).sort());
  });
  it("a fitted model reports its registry name", () => {
    for (const p of PREDICTORS) expect(p.create({}).method).toBe(p.name);
  });
});

for (const p of PREDICTORS) {
  const e = EXPECTED[p.name];
  if (e) runConformance({ name: p.name, create: (o) => p.create(o ?? {}), ...e });
}
