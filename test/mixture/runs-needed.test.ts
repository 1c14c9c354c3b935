import { describe, expect, it } from "vitest";
import { meanRunsNeededCI, meanRunsNeededSE, sdGamma, sdRunsNeeded, varGamma, varRunsNeeded } from "../../ts/mixture/runs-needed.js";

describe("runs needed for the moments (spec A.2.5)", () => {
  it("mean, CI form: 95% and ±5% give 3, 18, 64, 387 runs for CV 0.02, 0.1, 0.2, 0.5", () => {
    expect([0.02, 0.1, 0.2, 0.5].map((cv) => meanRunsNeededCI(cv, 0.05, 0.95))).toEqual([3, 18, 64, 387]);
  });
  it("mean, SE form is ⌈(CV/τ)²⌉", () => {
    expect(meanRunsNeededSE(0.1, 0.01)).toBe(100);
    expect(meanRunsNeededSE(0.15, 0.01)).toBe(225);
  });
  it("sd and var are the smallest n under the target", () => {
    for (const [tau, k] of [
      [0.05, 3],
      [0.1, 6],
      [0.2, 2],
    ] as const) {
      const n = sdRunsNeeded(tau, k);
      expect(sdGamma(n, k)).toBeLessThanOrEqual(tau);
      if (n > 2) expect(sdGamma(n - 1, k)).toBeGreaterThan(tau);
      const m = varRunsNeeded(tau, k);
      expect(varGamma(m, k)).toBeLessThanOrEqual(tau);
      if (m > 2) expect(varGamma(m - 1, k)).toBeGreaterThan(tau);
    }
    expect(sdGamma(201)).toBeCloseTo(1 / Math.sqrt(400), 15);
  });
  it("refuses a non-positive target or a level outside (0, 1)", () => {
    expect(() => meanRunsNeededCI(0.1, 0, 0.95)).toThrow(/E_USAGE|not a positive/);
    expect(() => meanRunsNeededCI(0.1, 0.05, 1)).toThrow(/level/);
  });
});
