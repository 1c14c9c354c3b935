// Known, well-separated mixtures of every family (components several standard deviations apart), shared by the
// recovery/BIC test (test/mixture/synthetic.test.ts) and the full study (bench/mixture-study.ts).
// Parameters as the kernel reports them: normal (mean, sd), gamma (shape, scale), the others (mu, sigma) of log x.
// Components are ordered by location (the kernel's output order).
import type { FamilyName } from "../ts/mixture/families.js";

export interface MixtureCase {
  family: FamilyName;
  w: number[];
  a: number[];
  b: number[];
}

const L = Math.log;

/** Two components of every family. */
export const RECOVERY_CASES: MixtureCase[] = [
  { family: "normal", w: [0.4, 0.6], a: [100, 130], b: [5, 8] },
  { family: "gamma", w: [0.3, 0.7], a: [50, 200], b: [2, 0.8] },
  { family: "weibull", w: [0.45, 0.55], a: [L(100), L(150)], b: [0.05, 0.04] },
  { family: "lognormal", w: [0.35, 0.65], a: [L(100), L(140)], b: [0.05, 0.06] },
  { family: "loglogistic", w: [0.5, 0.5], a: [L(100), L(150)], b: [0.03, 0.03] },
  { family: "frechet", w: [0.6, 0.4], a: [L(100), L(150)], b: [0.04, 0.05] },
];

/** One component of every family (the second component of each recovery case). */
export const ONE_COMPONENT_CASES: MixtureCase[] = RECOVERY_CASES.map((c) => ({ family: c.family, w: [1], a: [c.a[1]], b: [c.b[1]] }));

/** Three components, for the families with closed-form M-steps. */
export const THREE_COMPONENT_CASES: MixtureCase[] = [
  { family: "normal", w: [0.3, 0.3, 0.4], a: [100, 130, 170], b: [5, 6, 8] },
  { family: "lognormal", w: [0.2, 0.5, 0.3], a: [L(100), L(130), L(170)], b: [0.04, 0.04, 0.05] },
];
