// A fitted finite mixture on the original scale: density, CDF, quantile and sampling.
import { FAMILIES, invertCdf, type Family, type FamilyName } from "./families.js";

export interface MixtureJSON {
  family: FamilyName;
  w: number[];
  a: number[];
  b: number[];
}

export class Mixture {
  readonly family: Family;
  constructor(
    family: FamilyName,
    /** Component weights (sum 1). */
    readonly w: readonly number[],
    /** First parameter per component (normal mean, gamma shape, else mu of log x). */
    readonly a: readonly number[],
    /** Second parameter per component (normal sd, gamma scale, else sigma of log x). */
    readonly b: readonly number[],
  ) {
    this.family = FAMILIES[family];
  }
  get k(): number {
    return this.w.length;
  }
  logpdf(x: number): number {
    let m = -Infinity;
    const lp = this.w.map((w, j) => Math.log(w) + this.family.logpdf(x, this.a[j], this.b[j]));
    for (const v of lp) if (v > m) m = v;
    if (m === -Infinity) return m;
    return m + Math.log(lp.reduce((s, v) => s + Math.exp(v - m), 0));
  }
  pdf(x: number): number {
    return Math.exp(this.logpdf(x));
  }
  cdf(x: number): number {
    return this.w.reduce((s, w, j) => s + w * this.family.cdf(x, this.a[j], this.b[j]), 0);
  }
  /** Smallest x with F(x) >= p, by bisection between the components' own quantiles. */
  quantile(p: number): number {
    if (this.k === 1) return this.family.quantile(p, this.a[0], this.b[0]);
    const qs = this.w.map((_, j) => this.family.quantile(p, this.a[j], this.b[j]));
    return invertCdf((x) => this.cdf(x), p, Math.min(...qs), Math.max(...qs));
  }
  /** n draws using the uniform stream `next` (e.g. a seeded generator). */
  sample(n: number, next: () => number): Float64Array {
    const out = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      let u = next() * 1,
        j = 0;
      while (j < this.k - 1 && u >= this.w[j]) u -= this.w[j++];
      out[i] = this.family.sample(Math.min(Math.max(next(), 1e-300), 1 - 1e-16), next(), this.a[j], this.b[j]);
    }
    return out;
  }
  loglik(x: ArrayLike<number>): number {
    let s = 0;
    for (let i = 0; i < x.length; i++) s += this.logpdf(x[i]);
    return s;
  }
  toJSON(): MixtureJSON {
    return { family: this.family.name, w: [...this.w], a: [...this.a], b: [...this.b] };
  }
  static fromJSON(j: MixtureJSON): Mixture {
    return new Mixture(j.family, j.w, j.a, j.b);
  }
}
