// docs/families.md maps each family's `params` to R and scipy: here each documented right-hand side is computed from
// the packages' own documented density formulas and must equal varmap's logpdf (issue 15, item 4).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FAMILIES, FAMILY_NAMES, type FamilyName } from "../../ts/mixture/families.js";
import { packageRoot } from "../../ts/package-root.js";
import { lgamma } from "../../ts/util/special.js";

const LOG_SQRT_2PI = 0.5 * Math.log(2 * Math.PI);

// The packages' densities, from their documentation (standardized scipy pdf f(y) with pdf(x) = f(x/scale)/scale).
const scipy = {
  norm: (x: number, loc: number, scale: number) => -LOG_SQRT_2PI - 0.5 * ((x - loc) / scale) ** 2 - Math.log(scale),
  // gamma.pdf(y, a) = y^(a−1) e^−y / Γ(a)
  gamma: (x: number, a: number, scale: number) => {
    const y = x / scale;
    return (a - 1) * Math.log(y) - y - lgamma(a) - Math.log(scale);
  },
  // lognorm.pdf(y, s) = exp(−log²(y) / (2 s²)) / (s y √(2π))
  lognorm: (x: number, s: number, scale: number) => {
    const y = x / scale;
    return -(Math.log(y) ** 2) / (2 * s * s) - Math.log(s * y) - LOG_SQRT_2PI - Math.log(scale);
  },
  // weibull_min.pdf(y, c) = c y^(c−1) exp(−y^c)
  weibull_min: (x: number, c: number, scale: number) => {
    const y = x / scale;
    return Math.log(c) + (c - 1) * Math.log(y) - y ** c - Math.log(scale);
  },
  // fisk.pdf(y, c) = c y^(c−1) / (1 + y^c)²
  fisk: (x: number, c: number, scale: number) => {
    const y = x / scale;
    return Math.log(c) + (c - 1) * Math.log(y) - 2 * Math.log1p(y ** c) - Math.log(scale);
  },
  // invweibull.pdf(y, c) = c y^(−c−1) exp(−y^(−c))
  invweibull: (x: number, c: number, scale: number) => {
    const y = x / scale;
    return Math.log(c) + (-c - 1) * Math.log(y) - y ** -c - Math.log(scale);
  },
};
const R = {
  dnorm: (x: number, mean: number, sd: number) => -LOG_SQRT_2PI - Math.log(sd) - 0.5 * ((x - mean) / sd) ** 2,
  // dgamma: x^(a−1) e^(−x/s) / (s^a Γ(a))
  dgamma: (x: number, shape: number, scale: number) => (shape - 1) * Math.log(x) - x / scale - shape * Math.log(scale) - lgamma(shape),
  // dlnorm: exp(−(log x − μ)²/(2σ²)) / (√(2π) σ x)
  dlnorm: (x: number, meanlog: number, sdlog: number) => -((Math.log(x) - meanlog) ** 2) / (2 * sdlog * sdlog) - LOG_SQRT_2PI - Math.log(sdlog * x),
  // dweibull: (a/b) (x/b)^(a−1) exp(−(x/b)^a)
  dweibull: (x: number, shape: number, scale: number) => Math.log(shape / scale) + (shape - 1) * Math.log(x / scale) - (x / scale) ** shape,
  // dlogis: e^−z / (s (1 + e^−z)²), z = (x − m)/s
  dlogis: (x: number, location: number, scale: number) => {
    const z = (x - location) / scale;
    return -z - Math.log(scale) - 2 * Math.log1p(Math.exp(-z));
  },
  // actuar::dinvweibull: τ (θ/x)^τ exp(−(θ/x)^τ) / x
  dinvweibull: (x: number, shape: number, scale: number) => Math.log(shape) + shape * Math.log(scale / x) - (scale / x) ** shape - Math.log(x),
};

// The documented mappings (docs/families.md), one pair (R, scipy) of log-densities per family with params (a, b).
const MAPPINGS: Record<
  FamilyName,
  { doc: [string, string]; R: (x: number, a: number, b: number) => number; scipy: (x: number, a: number, b: number) => number }
> = {
  normal: { doc: ["dnorm(x, mean = mean, sd = sd)", "norm(loc=mean, scale=sd)"], R: (x, m, s) => R.dnorm(x, m, s), scipy: (x, m, s) => scipy.norm(x, m, s) },
  gamma: {
    doc: ["dgamma(x, shape = shape, scale = scale)", "gamma(a=shape, scale=scale)"],
    R: (x, a, s) => R.dgamma(x, a, s),
    scipy: (x, a, s) => scipy.gamma(x, a, s),
  },
  lognormal: {
    doc: ["dlnorm(x, meanlog = mu, sdlog = sigma)", "lognorm(s=sigma, scale=exp(mu))"],
    R: (x, mu, s) => R.dlnorm(x, mu, s),
    scipy: (x, mu, s) => scipy.lognorm(x, s, Math.exp(mu)),
  },
  weibull: {
    doc: ["dweibull(x, shape = 1/sigma, scale = exp(mu))", "weibull_min(c=1/sigma, scale=exp(mu))"],
    R: (x, mu, s) => R.dweibull(x, 1 / s, Math.exp(mu)),
    scipy: (x, mu, s) => scipy.weibull_min(x, 1 / s, Math.exp(mu)),
  },
  loglogistic: {
    doc: ["dlogis(log(x), location = mu, scale = sigma) / x", "fisk(c=1/sigma, scale=exp(mu))"],
    R: (x, mu, s) => R.dlogis(Math.log(x), mu, s) - Math.log(x),
    scipy: (x, mu, s) => scipy.fisk(x, 1 / s, Math.exp(mu)),
  },
  frechet: {
    doc: ["actuar::dinvweibull(x, shape = 1/sigma, scale = exp(mu))", "invweibull(c=1/sigma, scale=exp(mu))"],
    R: (x, mu, s) => R.dinvweibull(x, 1 / s, Math.exp(mu)),
    scipy: (x, mu, s) => scipy.invweibull(x, 1 / s, Math.exp(mu)),
  },
};

const doc = readFileSync(join(packageRoot(), "docs", "families.md"), "utf8");

describe("docs/families.md: every family's R and scipy equivalents reproduce varmap's logpdf", () => {
  it("documents every family", () => {
    expect(Object.keys(MAPPINGS).sort()).toEqual([...FAMILY_NAMES].sort());
  });
  for (const name of FAMILY_NAMES)
    it(`${name}: params {${FAMILIES[name].paramNames.join(", ")}}`, () => {
      const m = MAPPINGS[name];
      for (const text of m.doc) expect(doc).toContain(text);
      expect(doc).toContain(`| ${name} | \`{${FAMILIES[name].paramNames.join(", ")}}\``);
      // Parameters as varmap fits them: on the scale of throughputs (normal, gamma) or of their logs.
      const params: [number, number][] =
        name === "normal"
          ? [
              [1e5, 2e4],
              [3, 0.5],
            ]
          : name === "gamma"
            ? [
                [2.5, 4e4],
                [40, 0.1],
              ]
            : [
                [11.5, 0.2],
                [1.2, 0.05],
                [0, 1.3],
              ];
      for (const [a, b] of params) {
        const center = name === "normal" ? a : name === "gamma" ? a * b : Math.exp(a);
        for (const f of [0.3, 0.7, 0.95, 1, 1.1, 1.6, 3]) {
          const x = center * f;
          const ours = FAMILIES[name].logpdf(x, a, b);
          expect(Math.abs(m.R(x, a, b) - ours)).toBeLessThanOrEqual(1e-12 * Math.max(1, Math.abs(ours)));
          expect(Math.abs(m.scipy(x, a, b) - ours)).toBeLessThanOrEqual(1e-12 * Math.max(1, Math.abs(ours)));
        }
      }
    });
});
