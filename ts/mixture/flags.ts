// Flags on a configuration's chosen mixture that say to trust it less (issue 15, item 3), each with one line of
// advice, for the summaries of `varmap mixture` and `varmap refit`:
// - k_at_max: the chosen k is the largest fitted, so the criterion might have preferred more components;
// - floor_bound: the tie floor binds in a component (its scale sits at the measurement-resolution floor: tied or
//   quantized runs), so that scale, and the likelihood it buys, are set by the floor rather than by the data;
// - single_run: a component's expected count w·n is below SINGLE_RUN_COUNT: it models one run, not variability.

/** A component with fewer expected runs than this (w·n) models a single run. */
export const SINGLE_RUN_COUNT = 1.5;

export interface ChosenFit {
  k: number;
  n: number;
  floorBound: boolean;
  /** Component weights (params.w). */
  w: readonly number[];
}

export interface MixtureFlags {
  kAtMax: boolean;
  floorBound: boolean;
  singleRun: boolean;
}

/** The flags of one configuration's chosen fit (k = kmax with kmax = 1 is no warning: one component was all that was asked). */
export function mixtureFlags(fit: ChosenFit, kmax: number): MixtureFlags {
  return {
    kAtMax: kmax > 1 && fit.k === kmax,
    floorBound: fit.floorBound,
    singleRun: fit.k > 1 && fit.w.some((w) => w * fit.n < SINGLE_RUN_COUNT),
  };
}

export interface MixtureFlagCounts {
  /** Configurations with a chosen fit. */
  configurations: number;
  kmax: number;
  kAtMax: number;
  floorBound: number;
  singleRun: number;
}

export function countFlags(fits: readonly (ChosenFit | null | undefined)[], kmax: number): MixtureFlagCounts {
  const c: MixtureFlagCounts = { configurations: 0, kmax, kAtMax: 0, floorBound: 0, singleRun: 0 };
  for (const f of fits) {
    if (!f) continue;
    const g = mixtureFlags(f, kmax);
    c.configurations++;
    c.kAtMax += +g.kAtMax;
    c.floorBound += +g.floorBound;
    c.singleRun += +g.singleRun;
  }
  return c;
}

const share = (k: number, n: number): string => `${k} of ${n} (${((100 * k) / Math.max(1, n)).toFixed(1)}%)`;

/** One line per flag that occurs: how often, and what to do about it. */
export function flagAdvice(c: MixtureFlagCounts): string[] {
  const lines: string[] = [];
  if (c.kAtMax)
    lines.push(
      `k_at_max: ${share(c.kAtMax, c.configurations)} chosen mixtures use the largest k fitted (${c.kmax}); the criterion might prefer more: refit with a larger --kmax, or check with \`varmap mixture --validate\` (held-back runs) that the extra components describe new runs`,
    );
  if (c.floorBound)
    lines.push(
      `floor_bound: ${share(c.floorBound, c.configurations)} chosen mixtures have a component at the tie floor (tied or quantized runs); its scale is the floor, not an estimate: prefer \`varmap mixture --guard on\`, which declines such components, or a fit with fewer components`,
    );
  if (c.singleRun)
    lines.push(
      `single-run components: ${share(c.singleRun, c.configurations)} chosen mixtures have a component of fewer than ${SINGLE_RUN_COUNT} expected runs (one outlying run, not variability): select with \`varmap mixture --guard on\` (at least 10 runs per component) or inspect those runs`,
    );
  return lines;
}
