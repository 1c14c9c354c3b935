// Analysis of variance of a map's statistic on its inputs taken as factors (issue 45 item 1): a linear model with
// treatment-coded main effects and (optionally) every two-way interaction, as R's lm(y ~ (a + b + c)^2) with factor
// inputs, and
//   type I  (sequential) sums of squares, as R's anova(): each term after the terms before it;
//   type II sums of squares, as car::Anova(type = 2): each term after every term that does not contain it;
// F against the full model's residual mean square, its p-value, and partial η² = SS₂ / (SS₂ + SS_residual).
// Aliased columns (empty cells of an interaction) are dropped as lm's pivoting QR does (tolerance 1e-7 relative).
import { betaReg } from "../data/stats.js";
import { VarmapError } from "../errors.js";

export interface AnovaFactor {
  name: string;
  /** Level index (0 … levels−1) of each observation; level 0 is the reference. */
  codes: Int32Array;
  levels: string[];
  /** A numeric covariate instead (one column, 1 df): inputs that are not on a grid. codes/levels are then unused. */
  numeric?: Float64Array;
}

export interface AnovaRow {
  term: string;
  df: number;
  ssType1: number;
  fType1: number;
  pType1: number;
  ssType2: number;
  fType2: number;
  pType2: number;
  partialEta2: number;
}

export interface AnovaTable {
  rows: AnovaRow[];
  residual: { df: number; ss: number };
  n: number;
  /** Σ (y − ȳ)². */
  totalSs: number;
}

interface Term {
  name: string;
  /** Indices of the factors it involves (one for a main effect, two for an interaction). */
  factors: number[];
}

/** Upper tail of F(d1, d2) at f. */
export function fUpperTail(f: number, d1: number, d2: number): number {
  if (!(f >= 0)) return Number.NaN;
  if (f === 0) return 1;
  if (!Number.isFinite(f)) return 0;
  return betaReg(d2 / (d2 + d1 * f), d2 / 2, d1 / 2);
}

/** The model's terms: main effects in factor order, then the interactions of each pair (a:b with a before b). */
function termsOf(factors: AnovaFactor[], interactions: boolean): Term[] {
  const terms: Term[] = factors.map((f, i) => ({ name: f.name, factors: [i] }));
  if (interactions)
    for (let i = 0; i < factors.length; i++)
      for (let j = i + 1; j < factors.length; j++) terms.push({ name: `${factors[i].name}:${factors[j].name}`, factors: [i, j] });
  return terms;
}

/** Treatment-coded columns of a term, each a Float64Array over the observations. */
function termColumns(t: Term, factors: AnovaFactor[], n: number): Float64Array[] {
  const dummies = (f: AnovaFactor) =>
    f.numeric
      ? [Float64Array.from(f.numeric)]
      : Array.from({ length: f.levels.length - 1 }, (_, l) => {
          const c = new Float64Array(n);
          for (let i = 0; i < n; i++) if (f.codes[i] === l + 1) c[i] = 1;
          return c;
        });
  if (t.factors.length === 1) return dummies(factors[t.factors[0]]);
  const [a, b] = t.factors.map((k) => dummies(factors[k]));
  const out: Float64Array[] = [];
  // R orders interaction columns with the first factor varying fastest.
  for (const cb of b)
    for (const ca of a) {
      const c = new Float64Array(n);
      for (let i = 0; i < n; i++) c[i] = ca[i] * cb[i];
      out.push(c);
    }
  return out;
}

/**
 * Sequential orthogonalization (modified Gram–Schmidt, twice) of the blocks in order: per block the sum of squares
 * of y's projections on its new directions and the number of non-aliased columns; and the residual sum of squares.
 */
function sequentialSs(blocks: Float64Array[][], y: Float64Array): { ss: number[]; df: number[]; rss: number } {
  const n = y.length;
  const basis: Float64Array[] = [];
  const r = Float64Array.from(y);
  const ss: number[] = [];
  const df: number[] = [];
  for (const block of blocks) {
    let s = 0;
    let k = 0;
    for (const col of block) {
      const v = Float64Array.from(col);
      let norm0 = 0;
      for (let i = 0; i < n; i++) norm0 += v[i] * v[i];
      norm0 = Math.sqrt(norm0);
      if (norm0 === 0) continue;
      for (let pass = 0; pass < 2; pass++) {
        for (const q of basis) {
          let d = 0;
          for (let i = 0; i < n; i++) d += q[i] * v[i];
          for (let i = 0; i < n; i++) v[i] -= d * q[i];
        }
      }
      let norm = 0;
      for (let i = 0; i < n; i++) norm += v[i] * v[i];
      norm = Math.sqrt(norm);
      if (norm <= 1e-7 * norm0) continue;
      for (let i = 0; i < n; i++) v[i] /= norm;
      basis.push(v);
      let e = 0;
      for (let i = 0; i < n; i++) e += v[i] * r[i];
      for (let i = 0; i < n; i++) r[i] -= e * v[i];
      s += e * e;
      k++;
    }
    ss.push(s);
    df.push(k);
  }
  let rss = 0;
  for (let i = 0; i < n; i++) rss += r[i] * r[i];
  return { ss, df, rss };
}

export function anova(y: Float64Array, factors: AnovaFactor[], opts: { interactions?: boolean } = {}): AnovaTable {
  const n = y.length;
  if (factors.length === 0) throw new VarmapError("E_USAGE", "an ANOVA needs at least one factor", { remedy: "give the map inputs that vary" });
  for (const f of factors) if ((f.numeric ?? f.codes).length !== n) throw new Error(`factor ${f.name}: ${f.codes.length} codes for ${n} observations`);
  const terms = termsOf(factors, opts.interactions ?? true);
  const intercept = [new Float64Array(n).fill(1)];
  const cols = terms.map((t) => termColumns(t, factors, n));
  const full = sequentialSs([intercept, ...cols], y);
  const resDf = n - full.df.reduce((a, b) => a + b, 0);
  if (resDf < 1)
    throw new VarmapError("E_TOO_FEW_POINTS", `the ANOVA model has ${n - resDf} coefficients for ${n} configurations: no residual degrees of freedom`, {
      remedy: "drop the interactions (--interactions none), combine fewer inputs, or use a map with more configurations",
    });
  const mse = full.rss / resDf;
  let mean = 0;
  for (let i = 0; i < n; i++) mean += y[i];
  mean /= n;
  let totalSs = 0;
  for (let i = 0; i < n; i++) totalSs += (y[i] - mean) ** 2;
  const rows: AnovaRow[] = terms.map((t, k) => {
    // Type II: the terms that do not contain t (its "relatives" — interactions including all its factors — are out).
    const contains = (u: Term) => t.factors.every((f) => u.factors.includes(f));
    const base = terms.map((_, j) => j).filter((j) => j !== k && !contains(terms[j]));
    const s2 = sequentialSs([intercept, ...base.map((j) => cols[j]), cols[k]], y);
    const ss2 = s2.ss[s2.ss.length - 1];
    const df2 = s2.df[s2.df.length - 1];
    const ss1 = full.ss[k + 1];
    const df1 = full.df[k + 1];
    const f1 = df1 > 0 ? ss1 / df1 / mse : Number.NaN;
    const f2 = df2 > 0 ? ss2 / df2 / mse : Number.NaN;
    return {
      term: t.name,
      df: df1,
      ssType1: ss1,
      fType1: f1,
      pType1: fUpperTail(f1, df1, resDf),
      ssType2: ss2,
      fType2: f2,
      pType2: fUpperTail(f2, df2, resDf),
      partialEta2: ss2 / (ss2 + full.rss),
    };
  });
  return { rows, residual: { df: resDf, ss: full.rss }, n, totalSs };
}

/** Codes of a column's distinct values (sorted numerically as R's factor() sorts numbers). */
export function factorOf(name: string, values: ArrayLike<number | string>): AnovaFactor {
  const uniq = [...new Set(Array.from(values))].sort((a, b) =>
    typeof a === "number" && typeof b === "number" ? a - b : String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0,
  );
  const index = new Map(uniq.map((v, i) => [v, i]));
  return { name, codes: Int32Array.from(Array.from(values, (v) => index.get(v) as number)), levels: uniq.map(String) };
}

/** A numeric covariate (a linear term). */
export function covariateOf(name: string, values: ArrayLike<number>): AnovaFactor {
  return { name, codes: new Int32Array(0), levels: [], numeric: Float64Array.from(values) };
}
