// The six component families of seed 001 Table 2, in TypeScript for the fitted-mixture object (pdf, cdf,
// quantile, sampling). Parameters (a, b): normal (mean, sd); gamma (shape, scale); the log families
// (mu, sigma) of log x: lognormal = normal, Weibull = smallest extreme value, loglogistic = logistic,
// Fréchet = largest extreme value.
import { FAMILY_CODES } from "../backend/kernels/mixture.js";
import { mulberry32Open } from "../util/mulberry32.js";
import { erfc, gammaDraw, gammaLogpdf, gammaP, invertCdf, lgamma, LOG_SQRT_2PI, normCdf, normQuantile } from "../util/special.js";

export type FamilyName = keyof typeof FAMILY_CODES;
export const FAMILY_NAMES = Object.keys(FAMILY_CODES) as FamilyName[];

export interface Family {
  name: FamilyName;
  code: number;
  /** Names of (a, b) in reports. */
  paramNames: [string, string];
  logpdf(x: number, a: number, b: number): number;
  cdf(x: number, a: number, b: number): number;
  /** Inverse CDF of one component (closed form where one exists, else bisection). */
  quantile(p: number, a: number, b: number): number;
  /** One draw from uniforms u1, u2 in (0, 1). */
  sample(u1: number, u2: number, a: number, b: number): number;
}

// The special functions (normal CDF and quantile, erfc, log Γ, incomplete gamma, gamma draws) live in
// ts/util/special.ts, shared by predict, evt, whatif and the data layer; re-exported here for existing importers.
export { erfc, gammaDraw, gammaLogpdf, gammaP, invertCdf, lgamma, normCdf, normQuantile };

// A location-scale family of log x with standardized log-density h, CDF G and inverse G⁻¹.
function logFamily(name: FamilyName, h: (z: number) => number, G: (z: number) => number, Ginv: (p: number) => number): Family {
  return {
    name,
    code: FAMILY_CODES[name],
    paramNames: ["mu", "sigma"],
    logpdf: (x, mu, s) => (x > 0 ? h((Math.log(x) - mu) / s) - Math.log(s) - Math.log(x) : -Infinity),
    cdf: (x, mu, s) => (x > 0 ? G((Math.log(x) - mu) / s) : 0),
    quantile: (p, mu, s) => Math.exp(mu + s * Ginv(p)),
    sample: (u, _u2, mu, s) => Math.exp(mu + s * Ginv(u)),
  };
}

export const FAMILIES: Record<FamilyName, Family> = {
  normal: {
    name: "normal",
    code: 0,
    paramNames: ["mean", "sd"],
    logpdf: (x, m, s) => -LOG_SQRT_2PI - Math.log(s) - 0.5 * ((x - m) / s) ** 2,
    cdf: (x, m, s) => normCdf((x - m) / s),
    quantile: (p, m, s) => m + s * normQuantile(p),
    sample: (u, _u2, m, s) => m + s * normQuantile(u),
  },
  gamma: {
    name: "gamma",
    code: 1,
    paramNames: ["shape", "scale"],
    logpdf: (x, a, th) => (x > 0 ? gammaLogpdf(x, a, th) : -Infinity),
    cdf: (x, a, th) => gammaP(a, x / th),
    quantile: (p, a, th) => th * invertCdf((t) => gammaP(a, t), p, a * 0.5, a * 2),
    sample: (u, u2, a, th) => {
      // a deterministic stream from (u, u2): enough uniforms for the rejection loop
      return th * gammaDraw(a, mulberry32Open(Math.floor(u * 4294967296) ^ Math.floor(u2 * 4294967296)));
    },
  },
  weibull: logFamily(
    "weibull",
    (z) => z - Math.exp(z),
    (z) => -Math.expm1(-Math.exp(z)),
    (p) => Math.log(-Math.log1p(-p)),
  ),
  lognormal: logFamily("lognormal", (z) => -LOG_SQRT_2PI - 0.5 * z * z, normCdf, normQuantile),
  loglogistic: logFamily(
    "loglogistic",
    (z) => -Math.abs(z) - 2 * Math.log1p(Math.exp(-Math.abs(z))),
    (z) => 1 / (1 + Math.exp(-z)),
    (p) => Math.log(p / (1 - p)),
  ),
  frechet: logFamily(
    "frechet",
    (z) => -z - Math.exp(-z),
    (z) => Math.exp(-Math.exp(-z)),
    (p) => -Math.log(-Math.log(p)),
  ),
};

export function familyByName(name: string): Family | undefined {
  const key = name.toLowerCase().replace("é", "e") as FamilyName;
  return FAMILIES[key];
}
export function familyByCode(code: number): Family {
  return FAMILIES[FAMILY_NAMES[code]];
}
