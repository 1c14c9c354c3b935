// Property-based fuzzing of varmap's entry points: every predictor (fit, predict, JSON round trip) and the
// mixture fits, on both backends, with data a hostile user could feed them — duplicates and near-duplicates,
// constant columns, grids, values near 1e±300, negative and constant responses, tiny samples. Each case is a pure
// function of its index (the counter-based generator), so a failing case is reproduced by its number alone.
// Properties: no crash; an answer is either a coded VarmapError, or finite values that are not absurd (a
// prediction inside the training inputs' convex hull within 1e6 × the largest |response|; a mixture log
// likelihood per run below log(DBL_MAX)); native and wasm agree on the code, or on the values. Failures are
// classed (uncoded error, non-finite, absurd, parity) so the test can hold the classes that are fixed while the
// long run (bench/fuzz.ts) counts the rest. Used by
// test/fuzz/fuzz.test.ts (a bounded number of cases in CI) and bench/fuzz.ts (a long run).
import type { KernelBackend } from "../ts/backend/kernel.js";
import { counterRng, type CounterRng } from "../ts/data/random.js";
import { isVarmapError } from "../ts/errors.js";
import { fitMixtures } from "../ts/mixture/fit.js";
import { FAMILY_NAMES, type FamilyName } from "../ts/mixture/families.js";
import { createPredictor, METHOD_NAMES, predictorFromJSON } from "../ts/predict/registry.js";

export type FailureKind = "uncoded" | "nonfinite" | "absurd" | "parity";

export interface FuzzFailure {
  target: string;
  index: number;
  kind: FailureKind;
  problem: string;
  /** For predictors: the response scale of the case (log-scale predictions can overflow exp). */
  response?: "linear" | "log";
}

/** One backend's answer: a code, or values. */
type Answer = { code: string } | { values: number[] };

const SCALES = [1, 1, 1, 1e-3, 1e3, 1e-150, 1e150, 1e300, 1e-300];

/** A value in [0, 1) with data-like quirks: grid levels, repeats of earlier values, near-duplicates. */
function coordinate(r: CounterRng, earlier: number[], style: number): number {
  if (earlier.length && r.next() < 0.1) {
    const v = earlier[r.int(earlier.length)];
    return r.next() < 0.5 ? v : v + (r.next() < 0.5 ? 1e-15 : 1e-9) * (1 + Math.abs(v));
  }
  if (style === 1) return r.int(4) / 3; // a coarse grid
  if (style === 2) return 0.5; // a constant column
  return r.next();
}

export interface PredictCase {
  X: Float64Array;
  y: number[];
  Q: Float64Array;
  n: number;
  d: number;
  nq: number;
  response: "linear" | "log";
}

export function predictCase(seed: number, index: number): PredictCase {
  const r = counterRng(seed, "fuzz-predict", index);
  const d = 1 + r.int(4);
  const n = 1 + r.int(r.next() < 0.2 ? 6 : 60);
  const xs = SCALES[r.int(SCALES.length)];
  const styles = Array.from({ length: d }, () => (r.next() < 0.7 ? 0 : 1 + r.int(2)));
  const X = new Float64Array(n * d);
  const seen: number[][] = styles.map(() => []);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < d; j++) {
      const v = coordinate(r, seen[j], styles[j]);
      seen[j].push(v);
      X[i * d + j] = v * xs;
    }
  const ys = SCALES[r.int(SCALES.length)];
  const kind = r.int(5);
  const y = Array.from({ length: n }, (_, i) => {
    const base = kind === 0 ? 1 : kind === 1 ? r.next() - 0.5 : 1 + X[i * d] / xs + r.next();
    return base * ys;
  });
  // Queries inside the convex hull of the training inputs (convex combinations of up to 3 training points):
  // outside it every method extrapolates, and an affine fit to collinear inputs may legitimately say anything.
  const nq = 1 + r.int(8);
  const Q = new Float64Array(nq * d);
  for (let q = 0; q < nq; q++) {
    const picks = Array.from({ length: 1 + r.int(3) }, () => r.int(n));
    const w = picks.map(() => r.next() + 1e-3);
    const total = w.reduce((a, b) => a + b, 0);
    for (let j = 0; j < d; j++) Q[q * d + j] = picks.reduce((s, i, k) => s + (w[k] / total) * X[i * d + j], 0);
  }
  const positive = y.every((v) => v > 0);
  return { X, y, Q, n, d, nq, response: positive && r.next() < 0.3 ? "log" : "linear" };
}

function answer(run: () => number[]): Answer {
  try {
    return { values: run() };
  } catch (e) {
    if (isVarmapError(e)) return { code: e.code };
    return { code: `UNCODED ${(e as Error)?.constructor?.name}: ${(e as Error)?.message}` };
  }
}

/** The registry's methods and the variants fuzzed apart: gp-local, gp's local prediction on maps of any size. */
export const FUZZ_METHODS = [...METHOD_NAMES, "gp-local"];
const VARIANTS: Record<string, [string, Record<string, unknown>]> = { "gp-local": ["gp", { local: true, neighbours: 8 }] };

function predictAnswer(name: string, c: PredictCase, backend: KernelBackend): Answer {
  const [method, extra] = VARIANTS[name] ?? [name, {}];
  return answer(() => {
    const model = createPredictor(method, { ...extra, backend: backend.name, response: c.response }).fit({ data: c.X, rows: c.n, cols: c.d }, c.y);
    const p = Array.from(model.predict({ data: c.Q, rows: c.nq, cols: c.d }));
    const again = Array.from(
      predictorFromJSON(JSON.parse(JSON.stringify(model.toJSON())), { backend: backend.name }).predict({ data: c.Q, rows: c.nq, cols: c.d }),
    );
    if (again.some((v, i) => !Object.is(v, p[i]))) throw new Error("the JSON round trip changed a prediction");
    return p;
  });
}

/** Problems with one answer on its own: uncoded errors, non-finite or absurd values. */
function judge(a: Answer, bound: number): { kind: FailureKind; problem: string } | undefined {
  if ("code" in a) return a.code.startsWith("UNCODED") ? { kind: "uncoded", problem: a.code } : undefined;
  const nonfinite = a.values.find((v) => !Number.isFinite(v));
  if (nonfinite !== undefined) return { kind: "nonfinite", problem: `value ${nonfinite}` };
  const bad = a.values.find((v) => Math.abs(v) > bound);
  return bad === undefined ? undefined : { kind: "absurd", problem: `value ${bad} (bound ${bound.toExponential(2)})` };
}

/** Native and wasm agree: the same code, or values within `tol` relative to the scale of the answer. */
function compare(a: Answer, b: Answer, tol: number): string | undefined {
  if ("code" in a || "code" in b) {
    const ca = "code" in a ? a.code : "values",
      cb = "code" in b ? b.code : "values";
    return ca === cb ? undefined : `native ${ca}, wasm ${cb}`;
  }
  const scale = Math.max(1e-300, ...a.values.map(Math.abs));
  const i = a.values.findIndex((v, k) => Math.abs(v - b.values[k]) > tol * scale);
  return i < 0 ? undefined : `native ${a.values[i]} vs wasm ${b.values[i]}`;
}

export function fuzzPredictors(seed: number, from: number, to: number, backends: KernelBackend[], methods = FUZZ_METHODS): FuzzFailure[] {
  const out: FuzzFailure[] = [];
  for (let index = from; index < to; index++) {
    const c = predictCase(seed, index);
    const ymax = Math.max(...c.y.map(Math.abs));
    for (const method of methods) {
      const answers = backends.map((b) => predictAnswer(method, c, b));
      answers.forEach((a, k) => {
        const p = judge(a, 1e6 * ymax);
        if (p) out.push({ target: `${method}/${backends[k].name}`, index, ...p, response: c.response });
      });
      if (answers.length === 2) {
        const p = compare(answers[0], answers[1], method === "mars" ? 1e-6 : 1e-9);
        if (p) out.push({ target: `${method}/parity`, index, kind: "parity", problem: p, response: c.response });
      }
    }
  }
  return out;
}

export interface MixtureCase {
  runs: Float64Array;
  offsets: Int32Array;
  families: FamilyName[];
  kmax: number;
}

export function mixtureCase(seed: number, index: number): MixtureCase {
  const r = counterRng(seed, "fuzz-mixture", index);
  const configs = 1 + r.int(3);
  const runs: number[] = [];
  const offsets = [0];
  for (let c = 0; c < configs; c++) {
    const n = 2 + r.int(r.next() < 0.3 ? 6 : 50);
    const scale = SCALES[r.int(SCALES.length)];
    const center = 1 + r.next() * 10;
    const ties = r.next() < 0.3;
    for (let i = 0; i < n; i++) {
      let v = center + (r.next() < 0.5 ? r.normal() : 3 + r.normal() * 0.2);
      if (ties) v = Math.round(v * 4) / 4;
      runs.push(Math.max(1e-3, Math.abs(v)) * scale);
    }
    offsets.push(runs.length);
  }
  const fam = r.next() < 0.3 ? [...FAMILY_NAMES] : [FAMILY_NAMES[r.int(FAMILY_NAMES.length)]];
  return { runs: Float64Array.from(runs), offsets: Int32Array.from(offsets), families: fam, kmax: 1 + r.int(3) };
}

export function fuzzMixtures(seed: number, from: number, to: number, backends: KernelBackend[]): FuzzFailure[] {
  const out: FuzzFailure[] = [];
  for (let index = from; index < to; index++) {
    const c = mixtureCase(seed, index);
    const answers = backends.map((backend) =>
      answer(() => {
        const fit = fitMixtures(c.runs, c.offsets, { families: c.families, kmax: c.kmax, backend, restarts: 2 });
        return fit.rows.flatMap((row) => [row.loglik / row.n, row.bic]);
      }),
    );
    answers.forEach((a, k) => {
      if ("code" in a) {
        if (a.code.startsWith("UNCODED")) out.push({ target: `mixture/${backends[k].name}`, index, kind: "uncoded", problem: a.code });
        return;
      }
      // loglik per run (even entries) must be below log(DBL_MAX): a density above 1e308 is not a density.
      const bad = a.values.find((v, i) => (i % 2 === 0 ? !(v < 709.8) && v !== -Infinity : Number.isNaN(v)));
      if (bad !== undefined) out.push({ target: `mixture/${backends[k].name}`, index, kind: "absurd", problem: `log L per run ${bad}` });
    });
    if (answers.length === 2) {
      const p = compare(answers[0], answers[1], 1e-6);
      if (p) out.push({ target: "mixture/parity", index, kind: "parity", problem: p });
    }
  }
  return out;
}
