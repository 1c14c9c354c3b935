// GEV maximum likelihood per configuration (mirror of native/src/gev.cc; method and seed 002 errata in
// native/include/varmap/gev.h).
import { OK, BAD_ARGUMENT, NO_MEMORY } from "./lib/status";
export { alloc, free } from "./lib/memory";

const GEV_OUT: i32 = 14;
const OUT_LOC: i32 = 0, OUT_SCALE: i32 = 1, OUT_SHAPE: i32 = 2, OUT_NLLH: i32 = 3, OUT_COV: i32 = 4;
const OUT_GUMBEL_LOC: i32 = 10, OUT_GUMBEL_SCALE: i32 = 11, OUT_GUMBEL_NLLH: i32 = 12, OUT_GRAD_SE: i32 = 13;
const FIT_OK: i32 = 0, FIT_TOO_FEW: i32 = 1, FIT_DEGENERATE: i32 = 2, FIT_NONFINITE: i32 = 3;
const FIT_NOT_CONVERGED: i32 = 4, FIT_UNBOUNDED: i32 = 5, FIT_SINGULAR: i32 = 6;
const START_OK: i32 = 0, START_FAILED: i32 = 1, START_UNBOUNDED: i32 = 2;

const SERIES_BELOW: f64 = 0.1;
const TERMS: i32 = 20;
const S0 = new StaticArray<f64>(TERMS);
const S1 = new StaticArray<f64>(TERMS);
const S2 = new StaticArray<f64>(TERMS);
for (let j = 0; j < TERMS; ++j) {
  const sign: f64 = j % 2 == 0 ? 1.0 : -1.0;
  S0[j] = sign / <f64>(j + 1);
  S1[j] = (-sign * <f64>(j + 1)) / <f64>(j + 2);
  S2[j] = (sign * <f64>(j + 2) * <f64>(j + 1)) / <f64>(j + 3);
}

function horner(c: StaticArray<f64>, a: f64): f64 {
  let s = unchecked(c[TERMS - 1]);
  for (let j = TERMS - 2; j >= 0; --j) s = s * a + unchecked(c[j]);
  return s;
}

// Results of the last nllh evaluation: value, gradient (3), packed Hessian (6).
let F: f64 = Infinity;
const G = new StaticArray<f64>(3);
const H = new StaticArray<f64>(6);
// Cholesky factor, inverse, solution scratch.
const LF = new StaticArray<f64>(6);
const VI = new StaticArray<f64>(6);
const D = new StaticArray<f64>(3);
const M = new StaticArray<f64>(6);

@inline function at(x: usize, i: i32): f64 {
  return load<f64>(x + (<usize>i << 3));
}

function nllh(x: usize, n: i32, mu: f64, sigma: f64, xi: f64, derivs: bool): bool {
  F = Infinity;
  if (!(sigma > 0.0) || !isFinite<f64>(mu) || !isFinite<f64>(xi)) return false;
  const inv = 1.0 / sigma;
  let sum = 0.0, g0 = 0.0, g1 = 0.0, g2 = 0.0, h00 = 0.0, h01 = 0.0, h02 = 0.0, h11 = 0.0, h12 = 0.0, h22 = 0.0;
  for (let i = 0; i < n; ++i) {
    const z = (at(x, i) - mu) * inv;
    const a = xi * z;
    const w = 1.0 + a;
    if (!(w > 0.0)) return false;
    let L: f64, Lx = 0.0, Lxx = 0.0;
    if (Math.abs(a) < SERIES_BELOW) {
      L = z * horner(S0, a);
      if (derivs) {
        Lx = z * z * horner(S1, a);
        Lxx = z * z * z * horner(S2, a);
      }
    } else {
      L = Math.log1p(a) / xi;
      if (derivs) {
        Lx = (z / w - L) / xi;
        Lxx = (-z * z) / (xi * w * w) - (2.0 * Lx) / xi;
      }
    }
    const t = Math.exp(-L);
    sum += (1.0 + xi) * L + t;
    if (derivs) {
      const A = 1.0 + xi - t;
      const iw = 1.0 / w, sw = inv * iw;
      const Lm = -sw, Ls = -z * sw;
      const Lmm = -xi * sw * sw, Lms = sw * sw, Lss = z * (2.0 + a) * sw * sw;
      const Lmx = z * sw * iw, Lsx = z * z * sw * iw;
      g0 += A * Lm;
      g1 += A * Ls;
      g2 += A * Lx + L;
      h00 += t * Lm * Lm + A * Lmm;
      h01 += t * Lm * Ls + A * Lms;
      h02 += t * Lm * Lx + A * Lmx + Lm;
      h11 += t * Ls * Ls + A * Lss;
      h12 += t * Ls * Lx + A * Lsx + Ls;
      h22 += t * Lx * Lx + A * Lxx + 2.0 * Lx;
    }
  }
  const fv = <f64>n * Math.log(sigma) + sum;
  if (!isFinite<f64>(fv)) return false;
  F = fv;
  if (derivs) {
    G[0] = g0; G[1] = g1 + <f64>n * inv; G[2] = g2;
    H[0] = h00; H[1] = h01; H[2] = h02; H[3] = h11 - <f64>n * inv * inv; H[4] = h12; H[5] = h22;
  }
  return true;
}

function chol3(h: StaticArray<f64>, l: StaticArray<f64>): bool {
  if (!(h[0] > 0.0)) return false;
  l[0] = Math.sqrt(h[0]);
  l[1] = h[1] / l[0];
  l[2] = h[2] / l[0];
  let d = h[3] - l[1] * l[1];
  if (!(d > 0.0)) return false;
  l[3] = Math.sqrt(d);
  l[4] = (h[4] - l[2] * l[1]) / l[3];
  d = h[5] - l[2] * l[2] - l[4] * l[4];
  if (!(d > 0.0)) return false;
  l[5] = Math.sqrt(d);
  return true;
}

// Solves L L^T x = (b0, b1, b2) into D.
function chol3Solve(l: StaticArray<f64>, b0: f64, b1: f64, b2: f64): void {
  const y0 = b0 / l[0];
  const y1 = (b1 - l[1] * y0) / l[3];
  const y2 = (b2 - l[2] * y0 - l[4] * y1) / l[5];
  D[2] = y2 / l[5];
  D[1] = (y1 - l[4] * D[2]) / l[3];
  D[0] = (y0 - l[1] * D[1] - l[2] * D[2]) / l[0];
}

function chol3Inverse(l: StaticArray<f64>, v: StaticArray<f64>): void {
  chol3Solve(l, 1, 0, 0);
  v[0] = D[0];
  chol3Solve(l, 0, 1, 0);
  v[1] = D[0]; v[3] = D[1];
  chol3Solve(l, 0, 0, 1);
  v[2] = D[0]; v[4] = D[1]; v[5] = D[2];
}

// Newton state: the iterate and its nllh; iterations of the last run.
let TMU: f64 = 0, TSIG: f64 = 0, TXI: f64 = 0, TF: f64 = Infinity;
let ITER: i32 = 0;

function newton(x: usize, n: i32, maxIter: i32): i32 {
  ITER = 0;
  TF = Infinity;
  if (!nllh(x, n, TMU, TSIG, TXI, true)) return START_FAILED;
  TF = F;
  for (let it = 0; it < maxIter; ++it) {
    ITER = it + 1;
    let lambda = 0.0;
    let factored = false;
    const d0 = Math.abs(H[0]) + 1e-300, d1 = Math.abs(H[3]) + 1e-300, d2 = Math.abs(H[5]) + 1e-300;
    while (lambda <= 1e12) {
      M[0] = H[0] + lambda * d0; M[1] = H[1]; M[2] = H[2]; M[3] = H[3] + lambda * d1; M[4] = H[4]; M[5] = H[5] + lambda * d2;
      if (chol3(M, LF)) {
        factored = true;
        break;
      }
      lambda = lambda == 0.0 ? 1e-8 : lambda * 10.0;
    }
    if (factored) {
      chol3Solve(LF, -G[0], -G[1], -G[2]);
    } else {
      D[0] = -G[0] / d0; D[1] = -G[1] / d1; D[2] = -G[2] / d2;
    }
    const rel = Math.max(Math.abs(D[0]) / Math.max(1.0, Math.abs(TMU)), Math.max(Math.abs(D[1]) / TSIG, Math.abs(D[2])));
    const newtonStep = factored && lambda == 0.0;
    if (newtonStep) {
      const s0 = D[0], s1 = D[1], s2 = D[2];
      chol3Inverse(LF, VI);
      D[0] = s0; D[1] = s1; D[2] = s2;
      const gse = Math.max(Math.abs(G[0]) * Math.sqrt(VI[0]), Math.max(Math.abs(G[1]) * Math.sqrt(VI[3]), Math.abs(G[2]) * Math.sqrt(VI[5])));
      if (rel < 1e-13 || gse < 1e-12) {
        if (nllh(x, n, TMU + s0, TSIG + s1, TXI + s2, false) && F <= TF) {
          TMU += s0; TSIG += s1; TXI += s2;
          TF = F;
        }
        return START_OK;
      }
    }
    let slope = G[0] * D[0] + G[1] * D[1] + G[2] * D[2];
    if (!(slope < 0.0)) {
      D[0] = -G[0] / d0; D[1] = -G[1] / d1; D[2] = -G[2] / d2;
      slope = G[0] * D[0] + G[1] * D[1] + G[2] * D[2];
    }
    let alpha = 1.0;
    let accepted = false;
    for (let ls = 0; ls < 60; ++ls, alpha *= 0.5) {
      const tm = TMU + alpha * D[0], ts = TSIG + alpha * D[1], tx = TXI + alpha * D[2];
      if (!(ts > 0.0) || !nllh(x, n, tm, ts, tx, false)) continue;
      if (F <= TF + 1e-4 * alpha * slope || (newtonStep && alpha == 1.0 && rel < 1e-6 && F <= TF + 1e-12 * (1.0 + Math.abs(TF)))) {
        accepted = true;
        break;
      }
    }
    if (!accepted) return newtonStep && rel < 1e-8 ? START_OK : START_FAILED;
    TMU += alpha * D[0]; TSIG += alpha * D[1]; TXI += alpha * D[2];
    if (!nllh(x, n, TMU, TSIG, TXI, true)) return START_FAILED;
    TF = F;
    if (TXI <= -1.0) return START_UNBOUNDED;
  }
  return START_FAILED;
}

function feasibleScale(x: usize, n: i32, mu: f64, sigma: f64, xi: f64): f64 {
  let zmin = Infinity, zmax = -Infinity;
  for (let i = 0; i < n; ++i) {
    zmin = Math.min(zmin, (at(x, i) - mu) / sigma);
    zmax = Math.max(zmax, (at(x, i) - mu) / sigma);
  }
  const worst = xi > 0.0 ? xi * zmin : xi * zmax;
  return worst < -0.5 ? sigma * (-worst / 0.5) : sigma;
}

let GMU: f64 = 0, GSIG: f64 = 0;

// Gumbel MLE into GMU, GSIG; returns iterations or -1 (see native/src/gev.cc).
function gumbelMle(x: usize, n: i32): i32 {
  let mn = at(x, 0), mean = 0.0;
  for (let i = 0; i < n; ++i) {
    mn = Math.min(mn, at(x, i));
    mean += at(x, i);
  }
  mean /= <f64>n;
  let v = 0.0;
  for (let i = 0; i < n; ++i) v += (at(x, i) - mean) * (at(x, i) - mean);
  v /= <f64>n;
  const ubar = mean - mn;
  let s = Math.sqrt(6.0 * v) / Math.PI;
  if (!(s > 0.0)) return -1;
  let lo = 0.0, hi = Infinity;
  let it = 0;
  for (; it < 200; ++it) {
    let A0 = 0.0, A1 = 0.0, A2 = 0.0;
    for (let i = 0; i < n; ++i) {
      const u = at(x, i) - mn, e = Math.exp(-u / s);
      A0 += e;
      A1 += u * e;
      A2 += u * u * e;
    }
    const Fs = s - ubar + A1 / A0;
    if (Fs < 0.0) lo = s;
    else hi = s;
    const dF = 1.0 + (A2 * A0 - A1 * A1) / (s * s * A0 * A0);
    let sn = s - Fs / dF;
    if (!(sn > lo && sn < hi)) sn = isFinite<f64>(hi) ? 0.5 * (lo + hi) : 2.0 * s;
    const done = Math.abs(sn - s) <= 1e-15 * s || Fs == 0.0;
    s = sn;
    if (done) break;
  }
  if (it == 200) return -1;
  let A0 = 0.0;
  for (let i = 0; i < n; ++i) A0 += Math.exp(-(at(x, i) - mn) / s);
  GSIG = s;
  GMU = mn - s * Math.log(A0 / <f64>n);
  return it + 1;
}

function setOut(out: usize, k: i32, v: f64): void {
  store<f64>(out + (<usize>k << 3), v);
}

function fitOne(x: usize, n: i32, maxIter: i32, out: usize, work: usize, info: usize): void {
  for (let k = 0; k < GEV_OUT; ++k) setOut(out, k, NaN);
  store<i32>(info + 4, 0);
  if (n < 3) { store<i32>(info, FIT_TOO_FEW); return; }
  for (let i = 0; i < n; ++i) if (!isFinite<f64>(at(x, i))) { store<i32>(info, FIT_NONFINITE); return; }
  const v1 = at(x, 0);
  let j = 1;
  while (j < n && at(x, j) == v1) ++j;
  if (j == n) { store<i32>(info, FIT_DEGENERATE); return; }
  const v2 = at(x, j);
  while (j < n && (at(x, j) == v1 || at(x, j) == v2)) ++j;
  if (j == n) { store<i32>(info, FIT_DEGENERATE); return; }

  let m = 0.0;
  for (let i = 0; i < n; ++i) m += at(x, i);
  m /= <f64>n;
  let ss = 0.0;
  for (let i = 0; i < n; ++i) ss += (at(x, i) - m) * (at(x, i) - m);
  const s = Math.sqrt(ss / <f64>n);
  for (let i = 0; i < n; ++i) store<f64>(work + (<usize>i << 3), (at(x, i) - m) / s);

  let gm = 0.0, gs = 0.0;
  if (gumbelMle(work, n) < 0) {
    gs = Math.sqrt(6.0) / Math.PI;
    gm = -0.57721566490153286 * gs;
  } else {
    gm = GMU; gs = GSIG;
    const lg = m + s * gm, sg = s * gs;
    setOut(out, OUT_GUMBEL_LOC, lg);
    setOut(out, OUT_GUMBEL_SCALE, sg);
    nllh(x, n, lg, sg, 0.0, false);
    setOut(out, OUT_GUMBEL_NLLH, F);
  }

  let bmu = NaN, bsig = NaN, bxi = NaN, fbest = Infinity;
  let fmu = NaN, fsig = NaN, fxi = NaN, ffall = Infinity;
  let anyOk = false, anyUnbounded = false;
  let total = 0;
  for (let k = 0; k < 3; ++k) {
    if (k > 0 && anyOk) break;
    const xi0: f64 = k == 0 ? 0.0 : k == 1 ? 0.1 : -0.1;
    TMU = gm;
    TSIG = k == 0 ? gs : feasibleScale(work, n, gm, gs, xi0);
    TXI = xi0;
    const r = newton(work, n, maxIter);
    total += ITER;
    if (r == START_OK && TF < fbest) {
      bmu = TMU; bsig = TSIG; bxi = TXI; fbest = TF;
      anyOk = true;
    } else if (r == START_UNBOUNDED) {
      anyUnbounded = true;
    } else if (r == START_FAILED && TF < ffall) {
      fmu = TMU; fsig = TSIG; fxi = TXI; ffall = TF;
    }
  }
  // Back to the original units, then polish in the fit's own units (see native/src/gev.cc).
  let emu = anyOk ? m + s * bmu : m + s * fmu;
  let esig = anyOk ? s * bsig : s * fsig;
  let exi = anyOk ? bxi : fxi;
  if ((!anyUnbounded || anyOk) && isFinite<f64>(emu) && esig > 0.0) {
    for (let i = 0; i < n; ++i) store<f64>(work + (<usize>i << 3), (at(x, i) - emu) / esig);
    TMU = 0.0;
    TSIG = 1.0;
    TXI = exi;
    const r = newton(work, n, maxIter);
    total += ITER;
    if (r == START_OK) {
      emu = emu + esig * TMU;
      esig = esig * TSIG;
      exi = TXI;
      anyOk = true;
    } else if (r == START_UNBOUNDED && !anyOk) {
      anyUnbounded = true;
    }
  }
  store<i32>(info + 4, total);
  if (!anyOk) {
    if (anyUnbounded) { store<i32>(info, FIT_UNBOUNDED); return; }
    // A stalled fit pressing a run onto the support's end: unbounded along that endpoint (see native/src/gev.cc).
    if (isFinite<f64>(emu) && esig > 0.0) {
      let wmin = Infinity;
      for (let i = 0; i < n; ++i) wmin = Math.min(wmin, 1.0 + (exi * (at(x, i) - emu)) / esig);
      if (wmin < 1e-3) { store<i32>(info, FIT_UNBOUNDED); return; }
    }
    if (isFinite<f64>(ffall)) {
      setOut(out, OUT_LOC, emu); setOut(out, OUT_SCALE, esig); setOut(out, OUT_SHAPE, exi);
      nllh(x, n, emu, esig, exi, false);
      setOut(out, OUT_NLLH, F);
    }
    store<i32>(info, FIT_NOT_CONVERGED);
    return;
  }
  setOut(out, OUT_LOC, emu); setOut(out, OUT_SCALE, esig); setOut(out, OUT_SHAPE, exi);
  if (!nllh(x, n, emu, esig, exi, true)) { store<i32>(info, FIT_NOT_CONVERGED); return; }
  setOut(out, OUT_NLLH, F);
  if (!chol3(H, LF)) { store<i32>(info, FIT_SINGULAR); return; }
  chol3Inverse(LF, VI);
  for (let k = 0; k < 6; ++k) setOut(out, OUT_COV + k, VI[k]);
  setOut(out, OUT_GRAD_SE, Math.max(Math.abs(G[0]) * Math.sqrt(VI[0]), Math.max(Math.abs(G[1]) * Math.sqrt(VI[3]), Math.abs(G[2]) * Math.sqrt(VI[5]))));
  store<i32>(info, FIT_OK);
}

// Configuration k owns runs offsets[k] .. offsets[k+1) of x; out: nconf x 14 doubles; info: nconf x (status, iterations).
export function gev(x: usize, offsets: usize, nconf: i32, maxIter: i32, out: usize, info: usize): i32 {
  if (nconf < 0 || maxIter < 1) return BAD_ARGUMENT;
  let maxn = 0;
  for (let k = 0; k < nconf; ++k) {
    const o = load<i32>(offsets + (<usize>k << 2));
    const c = load<i32>(offsets + ((<usize>k + 1) << 2)) - o;
    if (o < 0 || c < 0) return BAD_ARGUMENT;
    if (c > maxn) maxn = c;
  }
  const work = heap.alloc((<usize>maxn + 1) << 3);
  if (!work) return NO_MEMORY;
  for (let k = 0; k < nconf; ++k) {
    const o = load<i32>(offsets + (<usize>k << 2));
    const c = load<i32>(offsets + ((<usize>k + 1) << 2)) - o;
    fitOne(x + (<usize>o << 3), c, maxIter, out + ((<usize>k * <usize>GEV_OUT) << 3), work, info + ((<usize>k * 2) << 2));
  }
  heap.free(work);
  return OK;
}
