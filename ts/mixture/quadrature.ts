// Adaptive Gauss–Kronrod (G7K15) integration of a vector-valued integrand over a finite interval with
// breakpoints, and the special functions the sample-size mathematics needs (digamma, trigamma).
// Used by samplesize.ts for the Fisher information of a mixture (one vector integral per configuration,
// spec A.2.3) and for the gamma quantile's derivative in the shape (A.2.2).

const XGK = [
  0.991455371120812639206854697526329, 0.949107912342758524526189684047851, 0.864864423359769072789712788640926, 0.741531185599394439863864773280788,
  0.586087235467691130294144845693013, 0.405845151377397166906606412076961, 0.207784955007898467600689403773245, 0,
];
const WGK = [
  0.02293532201052922496373200805897, 0.063092092629978553290700663189204, 0.104790010322250183839876322541518, 0.140653259715525918745189590510238,
  0.16900472663926790282658342659855, 0.190350578064785409913256402421014, 0.204432940075298892414161999234649, 0.209482141084727828012999174891714,
];
/** 7-point Gauss weights at XGK[1], XGK[3], XGK[5], XGK[7]. */
const WG = [0.129484966168869693270611432679082, 0.27970539148927666790146777142378, 0.381830050505118944950369775488975, 0.417959183673469387755102040816327];

export interface VectorIntegral {
  value: Float64Array;
  /** Σ over subintervals of max over entries |K15 − G7|. */
  error: number;
  /** The subdivision limit stopped the refinement before the tolerance was met. */
  inexact: boolean;
}

interface Piece {
  a: number;
  b: number;
  k: Float64Array;
  err: number;
}

/**
 * ∫ f over [breaks[0], breaks[last]] for f: R → R^dim (f(x, out) fills out). Bisects the subinterval with the
 * largest error estimate until Σ err ≤ relTol · max_i |I_i| (or absTol), with at most maxPieces subintervals.
 */
export function integrateVector(
  f: (x: number, out: Float64Array) => void,
  dim: number,
  breaks: readonly number[],
  opts: { relTol?: number; absTol?: number; maxPieces?: number } = {},
): VectorIntegral {
  const relTol = opts.relTol ?? 1e-13;
  const absTol = opts.absTol ?? 0;
  const maxPieces = opts.maxPieces ?? 2000;
  const tmp = new Float64Array(dim);
  const fc = new Float64Array(dim * 15);
  const rule = (a: number, b: number): Piece => {
    const c = 0.5 * (a + b),
      h = 0.5 * (b - a);
    const k = new Float64Array(dim),
      g = new Float64Array(dim);
    for (let i = 0; i < 15; i++) {
      const x = i < 7 ? c - h * XGK[i] : i === 7 ? c : c + h * XGK[14 - i];
      f(x, tmp);
      fc.set(tmp, i * dim);
    }
    for (let i = 0; i < 15; i++) {
      const node = i < 8 ? i : 14 - i;
      const wk = WGK[node] * h;
      const wg = node % 2 === 1 ? WG[(node - 1) / 2] * h : node === 7 ? WG[3] * h : 0;
      for (let d = 0; d < dim; d++) {
        const v = fc[i * dim + d];
        k[d] += wk * v;
        if (wg !== 0) g[d] += wg * v;
      }
    }
    let err = 0;
    for (let d = 0; d < dim; d++) err = Math.max(err, Math.abs(k[d] - g[d]));
    return { a, b, k, err };
  };
  const pieces: Piece[] = [];
  for (let i = 0; i + 1 < breaks.length; i++) if (breaks[i + 1] > breaks[i]) pieces.push(rule(breaks[i], breaks[i + 1]));
  // Running totals, updated as pieces are split (O(dim) per step); summed afresh at the end.
  const total = new Float64Array(dim);
  let err = 0;
  for (const pc of pieces) {
    for (let d = 0; d < dim; d++) total[d] += pc.k[d];
    err += pc.err;
  }
  const finish = (inexact: boolean): VectorIntegral => {
    total.fill(0);
    let e = 0;
    for (const pc of pieces) {
      for (let d = 0; d < dim; d++) total[d] += pc.k[d];
      e += pc.err;
    }
    return { value: total, error: e, inexact };
  };
  for (;;) {
    let scale = 0;
    for (let d = 0; d < dim; d++) scale = Math.max(scale, Math.abs(total[d]));
    if (pieces.length === 0 || err <= Math.max(relTol * scale, absTol)) return finish(false);
    if (pieces.length >= maxPieces) return finish(true);
    let worst = 0;
    for (let p = 1; p < pieces.length; p++) if (pieces[p].err > pieces[worst].err) worst = p;
    const w = pieces[worst];
    const mid = 0.5 * (w.a + w.b);
    if (!(mid > w.a && mid < w.b)) return finish(true);
    const left = rule(w.a, mid),
      right = rule(mid, w.b);
    for (let d = 0; d < dim; d++) total[d] += left.k[d] + right.k[d] - w.k[d];
    err += left.err + right.err - w.err;
    pieces[worst] = left;
    pieces.push(right);
  }
}

/** Scalar convenience wrapper of integrateVector. */
export function integrate(f: (x: number) => number, breaks: readonly number[], relTol = 1e-12): { value: number; error: number; inexact: boolean } {
  const r = integrateVector((x, out) => (out[0] = f(x)), 1, breaks, { relTol });
  return { value: r.value[0], error: r.error, inexact: r.inexact };
}

/** ψ(x) = d log Γ(x)/dx, x > 0: recurrence up to x ≥ 15, then the asymptotic series (as lgamma in families.ts). */
export function digamma(x: number): number {
  let acc = 0;
  while (x < 15) {
    acc -= 1 / x;
    x += 1;
  }
  const xi = 1 / x,
    x2 = xi * xi;
  return acc + Math.log(x) - 0.5 * xi - x2 * (1 / 12 - x2 * (1 / 120 - x2 * (1 / 252 - x2 * (1 / 240 - x2 * (1 / 132)))));
}

/** ψ′(x), x > 0: recurrence up to x ≥ 15, then the asymptotic series. */
export function trigamma(x: number): number {
  let acc = 0;
  while (x < 15) {
    acc += 1 / (x * x);
    x += 1;
  }
  const xi = 1 / x,
    x2 = xi * xi;
  return acc + xi + 0.5 * x2 + xi * x2 * (1 / 6 - x2 * (1 / 30 - x2 * (1 / 42 - x2 * (1 / 30 - x2 * (5 / 66)))));
}
