// Mixture EM over a batch of configurations × (family, k) (mirror of native/src/mixture.cc: same arithmetic,
// same order of operations, same generator). See native/include/varmap/mixture.h for the contract.
import { OK, BAD_ARGUMENT, NONFINITE, allFinite } from "./lib/status";
import { vexp, vexpInRange, vexpInRange2, vlog, vlog1p, vexp2, vlog2, vlog1p2 } from "./lib/fastmath";
export { alloc, free } from "./lib/memory";

const MIXTURE_NONPOSITIVE: i32 = 10;
const MIXTURE_BAD_MODEL: i32 = 11;
const MIXTURE_TOO_FEW: i32 = 12;

const FAM_NORMAL: i32 = 0;
const FAM_GAMMA: i32 = 1;
const FAM_WEIBULL: i32 = 2;
const FAM_LOGNORMAL: i32 = 3;
const FAM_LOGLOGISTIC: i32 = 4;
const FAM_FRECHET: i32 = 5;
const FAM_COUNT: i32 = 6; // number of families (codes 0 .. FAM_COUNT - 1)

const LOG_2PI: f64 = 1.8378770664093453;
const PI: f64 = 3.141592653589793;
const EULER: f64 = 0.5772156649015329;
const KMAX: i32 = 16;
const SHORT_ITER: i32 = 25;
// (mirror) short runs more than PRUNE_GAP_A + PRUNE_GAP_B·n below the best so far after PRUNE_AT iterations stop
const PRUNE_AT: i32 = 5;
const PRUNE_GAP_A: f64 = 5.0;
const PRUNE_GAP_B: f64 = 0.05;
const EXP_CUTOFF: f64 = -40.0;
const DUP_TOL: f64 = 1e-3;
const SHORT_TOL: f64 = 1e-7;
const GAMMA_T_DIRECT: f64 = 1e-4;
const MAX_STARTS: i32 = 64;

@inline function ld(p: usize, i: i32): f64 { return load<f64>(p + (<usize>i << 3)); }
@inline function st(p: usize, i: i32, v: f64): void { store<f64>(p + (<usize>i << 3), v); }
@inline function ldi(p: usize, i: i32): i32 { return load<i32>(p + (<usize>i << 2)); }
@inline function sti(p: usize, i: i32, v: i32): void { store<i32>(p + (<usize>i << 2), v); }

// ---------- SplitMix64 ----------
function mix64(z: u64): u64 {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EB;
  return z ^ (z >> 31);
}
let rngState: u64 = 0;
function uniform(): f64 {
  rngState += 0x9E3779B97F4A7C15;
  return <f64>(mix64(rngState) >> 11) * (1.0 / 9007199254740992.0);
}
function streamKey(seed: u64, cid: i32, fam: i32, k: i32, restart: i32): u64 {
  let h = mix64(seed + 0x9E3779B97F4A7C15);
  h = mix64(h ^ <u64><u32>cid);
  h = mix64(h ^ ((<u64><u32>fam << 32) | <u64><u32>k));
  return mix64(h ^ <u64><u32>restart);
}

// ---------- special functions ----------
function lgam(x: f64): f64 {
  let p = 1.0;
  while (x < 15.0) { p *= x; x += 1.0; }
  const xi = 1.0 / x, x2 = xi * xi;
  const series = xi * (1.0 / 12 + x2 * (-1.0 / 360 + x2 * (1.0 / 1260 + x2 * (-1.0 / 1680 + x2 * (1.0 / 1188 + x2 * (-691.0 / 360360))))));
  return (x - 0.5) * Math.log(x) - x + 0.9189385332046728 + series - Math.log(p);
}
function lmpsi(a: f64): f64 {
  const a0 = a;
  let acc = 0.0;
  while (a < 12.0) { acc += 1.0 / a; a += 1.0; }
  const xi = 1.0 / a, x2 = xi * xi;
  const asym = 0.5 * xi + x2 * (1.0 / 12 + x2 * (-1.0 / 120 + x2 * (1.0 / 252 + x2 * (-1.0 / 240 + x2 * (1.0 / 132)))));
  return a == a0 ? asym : asym + acc - Math.log(a / a0);
}
function apsi1m1(a: f64): f64 {
  if (a >= 12.0) {
    const xi = 1.0 / a, x2 = xi * xi;
    return 0.5 * xi + x2 * (1.0 / 6 + x2 * (-1.0 / 30 + x2 * (1.0 / 42 + x2 * (-1.0 / 30 + x2 * (5.0 / 66)))));
  }
  let b = a, acc = 0.0;
  while (b < 12.0) { acc += 1.0 / (b * b); b += 1.0; }
  const xi = 1.0 / b, x2 = xi * xi;
  const tri = xi + 0.5 * x2 + xi * x2 * (1.0 / 6 + x2 * (-1.0 / 30 + x2 * (1.0 / 42 + x2 * (-1.0 / 30 + x2 * (5.0 / 66)))));
  return a * (tri + acc) - 1.0;
}
@inline function trigam(a: f64): f64 { return (apsi1m1(a) + 1.0) / a; }

// Gamma log-density without cancellation for large shapes (mirror of native gamma_const / gamma_logpdf).
// ---------- elementary functions for the per-run loops: wasm/lib/fastmath.ts (mirror of native/include/varmap/
// fastmath.h, shared with the gp kernel), scalar and two runs at a time (wasm SIMD) ----------
@inline function splat(x: f64): v128 { return f64x2.splat(x); }
@inline function vadd(a: v128, b: v128): v128 { return f64x2.add(a, b); }
@inline function vsub(a: v128, b: v128): v128 { return f64x2.sub(a, b); }
@inline function vmul(a: v128, b: v128): v128 { return f64x2.mul(a, b); }
@inline function vsel(a: v128, b: v128, mask: v128): v128 { return v128.bitselect(a, b, mask); } // mask ? a : b
@inline function vld(p: usize, i: i32): v128 { return v128.load(p + (<usize>i << 3)); }
@inline function vst(p: usize, i: i32, v: v128): void { v128.store(p + (<usize>i << 3), v); }

const GAMMA_BIG: f64 = 15.0;
function gammaConst(a: f64, b: f64): f64 {
  if (a < GAMMA_BIG) return -lgam(a) - a * Math.log(b);
  const xi = 1.0 / a, x2 = xi * xi;
  const tail = xi * (1.0 / 12 + x2 * (-1.0 / 360 + x2 * (1.0 / 1260 + x2 * (-1.0 / 1680 + x2 * (1.0 / 1188 + x2 * (-691.0 / 360360))))));
  return 0.5 * Math.log(a) - 0.5 * LOG_2PI - tail;
}
@inline function gammaLogpdf(a: f64, b: f64, c: f64, x: f64, y: f64): f64 {
  if (a < GAMMA_BIG) return c + (a - 1.0) * y - x / b;
  const u = x / (a * b) - 1.0;
  return c - a * (u - vlog1p(u)) - y;
}

// Work counter: point × component evaluations (mirror of native g_work).
let gWork: f64 = 0;

// ---------- per-configuration work state ----------
let wN: i32 = 0;
let wX: usize = 0;
let wY: usize = 0;
let wDx: f64 = 0;
let wDy: f64 = 0;
let wAmax: f64 = 0;
// MAP prior on the component scale (mirror of native Work::prior_s, varx, vary, px2, py2)
let wPriorS: f64 = 0;
let wVarX: f64 = 0;
let wVarY: f64 = 0;
let wPX2: f64 = 0;
let wPY2: f64 = 0;
let wResp: usize = 0;
let wRowMax: usize = 0; // E-step scratch: per run the largest log-density, then the log-sum-exp
let wRowSum: usize = 0; // E-step scratch: per run the sum of exponentials, then its inverse
let wGroup: usize = 0;
let wOrder: usize = 0;
// M-step outputs (a, b)
let outA: f64 = 0;
let outB: f64 = 0;

// ---------- sums over the runs (mirror of native lane_sum, lane_dot, lane_wsq, ls_moments) ----------
// The Newton sums (ls_moments): four interleaved lanes (lane l adds the runs i ≡ l mod 4, in order), combined as
// (l0 + l1) + (l2 + l3). The plain sums: sixteen lanes (below).
const LANES: i32 = 4;
const laneAcc = memory.data(6 * 4 * 8); // 6 sums × 4 lanes
@inline function laneAdd(q: i32, l: i32, v: f64): void {
  const p = laneAcc + ((<usize>(q * LANES + l)) << 3);
  store<f64>(p, load<f64>(p) + v);
}
@inline function laneTotal(q: i32): f64 {
  const p = laneAcc + ((<usize>(q * LANES)) << 3);
  return (load<f64>(p) + load<f64>(p + 8)) + (load<f64>(p + 16) + load<f64>(p + 24));
}
// The plain sums Σw, Σwv, Σw(v − mu)² and the E-step's log-likelihood (mirror of native sum16): SUM_LANES = 16 lanes
// (lane l adds the runs i ≡ l mod 16, in order; the tail's runs to lanes 0, 1, ... one by one), as eight two-lane
// vectors, combined by the pairwise tree ((l0 + l1) + (l2 + l3) + ...).
const SUM_LANES: i32 = 16;
const sumAcc = memory.data(16 * 8);
@inline function sumStore(a0: v128, a1: v128, a2: v128, a3: v128, a4: v128, a5: v128, a6: v128, a7: v128): void {
  v128.store(sumAcc, a0); v128.store(sumAcc + 16, a1); v128.store(sumAcc + 32, a2); v128.store(sumAcc + 48, a3);
  v128.store(sumAcc + 64, a4); v128.store(sumAcc + 80, a5); v128.store(sumAcc + 96, a6); v128.store(sumAcc + 112, a7);
}
// the lanes in sumAcc plus the scalar tail terms of runs i..n-1 (kind: 0 w, 1 w·v with w = 0 left out,
// 2 w·(v − mu)²), combined by the tree
function sumFinish(w: usize, v: usize, i: i32, n: i32, mu: f64, kind: i32): f64 {
  for (let l = 0; i < n; ++i, ++l) {
    const wi = ld(w, i);
    let t: f64;
    if (kind == 0) t = wi;
    else if (kind == 1) t = wi != 0.0 ? wi * ld(v, i) : 0.0;
    else {
      const d = ld(v, i) - mu;
      t = wi * d * d;
    }
    st(sumAcc, l, ld(sumAcc, l) + t);
  }
  const q0 = (ld(sumAcc, 0) + ld(sumAcc, 1)) + (ld(sumAcc, 2) + ld(sumAcc, 3));
  const q1 = (ld(sumAcc, 4) + ld(sumAcc, 5)) + (ld(sumAcc, 6) + ld(sumAcc, 7));
  const q2 = (ld(sumAcc, 8) + ld(sumAcc, 9)) + (ld(sumAcc, 10) + ld(sumAcc, 11));
  const q3 = (ld(sumAcc, 12) + ld(sumAcc, 13)) + (ld(sumAcc, 14) + ld(sumAcc, 15));
  return (q0 + q1) + (q2 + q3);
}
// Σ w_i
function laneSum(w: usize, n: i32): f64 {
  let a0 = splat(0.0), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0, a7 = a0;
  let i = 0;
  for (; i + SUM_LANES <= n; i += SUM_LANES) {
    a0 = vadd(a0, vld(w, i)); a1 = vadd(a1, vld(w, i + 2)); a2 = vadd(a2, vld(w, i + 4)); a3 = vadd(a3, vld(w, i + 6));
    a4 = vadd(a4, vld(w, i + 8)); a5 = vadd(a5, vld(w, i + 10)); a6 = vadd(a6, vld(w, i + 12)); a7 = vadd(a7, vld(w, i + 14));
  }
  sumStore(a0, a1, a2, a3, a4, a5, a6, a7);
  return sumFinish(w, 0, i, n, 0.0, 0);
}
// Σ w_i v_i, terms with w_i = 0 left out
@inline function dotTerm(w: v128, v: v128): v128 { return vsel(vmul(w, v), splat(0.0), f64x2.ne(w, splat(0.0))); }
function laneDot(w: usize, v: usize, n: i32): f64 {
  let a0 = splat(0.0), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0, a7 = a0;
  let i = 0;
  for (; i + SUM_LANES <= n; i += SUM_LANES) {
    a0 = vadd(a0, dotTerm(vld(w, i), vld(v, i))); a1 = vadd(a1, dotTerm(vld(w, i + 2), vld(v, i + 2)));
    a2 = vadd(a2, dotTerm(vld(w, i + 4), vld(v, i + 4))); a3 = vadd(a3, dotTerm(vld(w, i + 6), vld(v, i + 6)));
    a4 = vadd(a4, dotTerm(vld(w, i + 8), vld(v, i + 8))); a5 = vadd(a5, dotTerm(vld(w, i + 10), vld(v, i + 10)));
    a6 = vadd(a6, dotTerm(vld(w, i + 12), vld(v, i + 12))); a7 = vadd(a7, dotTerm(vld(w, i + 14), vld(v, i + 14)));
  }
  sumStore(a0, a1, a2, a3, a4, a5, a6, a7);
  return sumFinish(w, v, i, n, 0.0, 1);
}
// Σ w_i (v_i − mu)²
@inline function wsqTerm(w: v128, v: v128, mu: v128): v128 {
  const d = vsub(v, mu);
  return vmul(vmul(w, d), d);
}
function laneWsq(w: usize, v: usize, mu: f64, n: i32): f64 {
  const m = splat(mu);
  let a0 = splat(0.0), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0, a7 = a0;
  let i = 0;
  for (; i + SUM_LANES <= n; i += SUM_LANES) {
    a0 = vadd(a0, wsqTerm(vld(w, i), vld(v, i), m)); a1 = vadd(a1, wsqTerm(vld(w, i + 2), vld(v, i + 2), m));
    a2 = vadd(a2, wsqTerm(vld(w, i + 4), vld(v, i + 4), m)); a3 = vadd(a3, wsqTerm(vld(w, i + 6), vld(v, i + 6), m));
    a4 = vadd(a4, wsqTerm(vld(w, i + 8), vld(v, i + 8), m)); a5 = vadd(a5, wsqTerm(vld(w, i + 10), vld(v, i + 10), m));
    a6 = vadd(a6, wsqTerm(vld(w, i + 12), vld(v, i + 12), m)); a7 = vadd(a7, wsqTerm(vld(w, i + 14), vld(v, i + 14), m));
  }
  sumStore(a0, a1, a2, a3, a4, a5, a6, a7);
  return sumFinish(w, v, i, n, mu, 2);
}

function mstepNormal(v: usize, w: usize, n: i32, W: f64, floorSd: f64): void {
  gWork += 2.0 * n;
  const mu = laneDot(w, v, n) / W;
  const sd = Math.sqrt(laneWsq(w, v, mu, n) / W);
  outA = mu;
  outB = sd > floorSd ? sd : floorSd;
}

// Mirror of native mstep_normal_map: sd² = (Σw(v−mu)² + s·p2) / (W + s).
function mstepNormalMap(v: usize, w: usize, n: i32, W: f64, floorSd: f64, s: f64, p2: f64): void {
  gWork += 2.0 * n;
  const mu = laneDot(w, v, n) / W;
  const sd = Math.sqrt((laneWsq(w, v, mu, n) + s * p2) / (W + s));
  outA = mu;
  outB = sd > floorSd ? sd : floorSd;
}

function mstepGamma(x: usize, y: usize, w: usize, n: i32, W: f64, amax: f64): void {
  gWork += 2.0 * n;
  const s = laneDot(w, x, n), sy = laneDot(w, y, n);
  const xbar = s / W;
  let t = Math.log(xbar) - sy / W; // log x̄ − mean log x (x̄ is O(1): runs scaled to mean 1)
  if (!(t > GAMMA_T_DIRECT)) {
    // a tight component: mean_w [u − log1p(u)], u = x/x̄ − 1, without the cancellation
    t = 0.0;
    for (let i = 0; i < n; ++i) {
      const wi = ld(w, i);
      if (wi == 0.0) continue;
      const u = ld(x, i) / xbar - 1.0;
      t += wi * (u - Math.log1p(u));
    }
    t /= W;
  }
  let a: f64;
  if (!(t > 0.0) || lmpsi(amax) > t) {
    a = amax;
  } else {
    a = (3.0 - t + Math.sqrt((t - 3.0) * (t - 3.0) + 24.0 * t)) / (12.0 * t);
    if (a > amax) a = amax;
    let lt = Math.log(a);
    for (let it = 0; it < 100; ++it) {
      const f = lmpsi(a) - t;
      const d = -apsi1m1(a);
      let step = -f / d;
      if (step > 2.0) step = 2.0;
      if (step < -2.0) step = -2.0;
      let nt = lt + step;
      if (nt > Math.log(amax)) nt = Math.log(amax);
      const done = Math.abs(nt - lt);
      lt = nt;
      a = Math.exp(lt);
      if (done < 1e-15 * (1.0 + Math.abs(lt))) break;
    }
  }
  outA = a;
  outB = xbar / a;
}

// ---------- families: one block per family (mirror of the family structs of native/src/mixture.cc) ----------
// A family's block holds everything specific to it: its E-step rows (log w + log-density at every run), the
// log-density of one run, the M-step with its start rule and tie floor, whether the floor binds, the conversion to
// the original scale, and the keys that order and compare components. The location-scale families of y = log x
// (Weibull, loglogistic, Fréchet) hold their h, its derivatives and their start location; LocationScale holds
// what they share. One switch per operation (below the blocks) dispatches on the family code; the EM driver
// calls only those and knows no family.

// The shared normal: the E-step rows and the log-density of a normal on v (x or y).
function gaussLogDensities(v: usize, logw: f64, a: f64, b: f64, Rj: usize): void {
  const n = wN;
  const cj = logw - Math.log(b) - 0.5 * LOG_2PI, ij = 1.0 / b;
  const av = splat(a), iv = splat(ij), cv = splat(cj), half = splat(0.5);
  let i = 0;
  for (; i + 2 <= n; i += 2) {
    const z = vmul(vsub(vld(v, i), av), iv);
    vst(Rj, i, vsub(cv, vmul(vmul(half, z), z)));
  }
  for (; i < n; ++i) {
    const z = (ld(v, i) - a) * ij;
    st(Rj, i, cj - 0.5 * z * z);
  }
}
@inline function gaussLogpdf(a: f64, b: f64, v: f64): f64 {
  const z = (v - a) / b;
  return -Math.log(b) - 0.5 * LOG_2PI - 0.5 * z * z;
}

// Normal on x: closed-form M-step, sd >= dx.
namespace Normal {
  export const ON_LOG = false;
  export function logDensities(logw: f64, a: f64, b: f64, Rj: usize): void { gaussLogDensities(wX, logw, a, b, Rj); }
  export function logpdf(a: f64, b: f64, x: f64): f64 { return gaussLogpdf(a, b, x); }
  export function mstep(w: usize, W: f64): void {
    if (wPriorS > 0.0) mstepNormalMap(wX, w, wN, W, wDx, wPriorS, wPX2);
    else mstepNormal(wX, w, wN, W, wDx);
  }
  export function floorBinds(b: f64): bool { return b <= wDx * (1.0 + 1e-12); }
  export function toOriginal(a: f64, b: f64, mean: f64): void { outA = a * mean; outB = b * mean; }
}

// Lognormal: a normal on y, sigma >= dy.
namespace Lognormal {
  export const ON_LOG = true;
  export function logDensities(logw: f64, a: f64, b: f64, Rj: usize): void { gaussLogDensities(wY, logw, a, b, Rj); }
  export function logpdf(a: f64, b: f64, y: f64): f64 { return gaussLogpdf(a, b, y); }
  export function mstep(w: usize, W: f64): void {
    if (wPriorS > 0.0) mstepNormalMap(wY, w, wN, W, wDy, wPriorS, wPY2);
    else mstepNormal(wY, w, wN, W, wDy);
  }
  export function floorBinds(b: f64): bool { return b <= wDy * (1.0 + 1e-12); }
  export function toOriginal(a: f64, b: f64, logMean: f64): void { outA = a + logMean; outB = b; }
}

// Gamma (shape a, scale b) on x: log-density by gammaConst / gammaLogpdf, M-step mstepGamma (shape capped at amax:
// the tie floor); components ordered by their mean a·b, shapes compared relatively.
namespace Gamma {
  export const ON_LOG = false;
  export function logDensities(logw: f64, a: f64, b: f64, Rj: usize): void {
    const n = wN;
    const cj = logw + gammaConst(a, b);
    let i = 0;
    if (a < GAMMA_BIG) {
      const am1 = splat(a - 1.0), bv = splat(b), cv = splat(cj);
      for (; i + 2 <= n; i += 2) vst(Rj, i, vsub(vadd(cv, vmul(am1, vld(wY, i))), f64x2.div(vld(wX, i), bv)));
    } else {
      const abv = splat(a * b), av = splat(a), cv = splat(cj);
      for (; i + 2 <= n; i += 2) {
        const u = vsub(f64x2.div(vld(wX, i), abv), splat(1.0));
        vst(Rj, i, vsub(vsub(cv, vmul(av, vsub(u, vlog1p2(u)))), vld(wY, i)));
      }
    }
    for (; i < n; ++i) st(Rj, i, gammaLogpdf(a, b, cj, ld(wX, i), ld(wY, i)));
  }
  export function logpdf(a: f64, b: f64, x: f64, y: f64): f64 { return gammaLogpdf(a, b, gammaConst(a, b), x, y); }
  export function mstep(w: usize, W: f64): void { mstepGamma(wX, wY, w, wN, W, wAmax); }
  export function floorBinds(a: f64): bool { return a >= wAmax * (1.0 - 1e-12); }
  export function toOriginal(a: f64, b: f64, mean: f64): void { outA = a; outB = b * mean; }
  export function locationKey(a: f64, b: f64): f64 { return a * b; }
  export function locationUnit(a: f64): f64 { return Math.abs(a); }
}

// Weibull: smallest extreme value on y, h(z) = z − e^z (e = e^z); sd = sigma·π/√6; moment start mu = mean + γ·sigma.
namespace Weibull {
  export function sdFactor(): f64 { return PI / Math.sqrt(6.0); }
  export function startLocation(m: f64, b: f64): f64 { return m + EULER * b; }
  export function h(z: f64): f64 { return z - vexp(z); }
  export function fill(mu: f64, inv: f64, H: usize, E: usize): void {
    const n = wN, muv = splat(mu), invv = splat(inv);
    let i = 0;
    for (; i + 2 <= n; i += 2) {
      const z = vmul(vsub(vld(wY, i), muv), invv);
      const e = vexp2(z);
      vst(E, i, e);
      vst(H, i, vsub(z, e));
    }
    for (; i < n; ++i) {
      const z = (ld(wY, i) - mu) * inv;
      const e = vexp(z);
      st(E, i, e);
      st(H, i, z - e);
    }
  }
  // h' and h'' from aux = e (two runs, one run)
  @inline export function h1v(aux: v128): v128 { return vsub(splat(1.0), aux); }
  @inline export function h2v(aux: v128): v128 { return f64x2.neg(aux); }
  @inline export function h1(aux: f64): f64 { return 1.0 - aux; }
  @inline export function h2(aux: f64): f64 { return -aux; }
}

// Loglogistic: logistic on y, h(z) = −|z| − 2 log(1 + e^−|z|) (e = e^−|z|); sd = sigma·π/√3; moment start mu = mean.
namespace Loglogistic {
  export function sdFactor(): f64 { return PI / Math.sqrt(3.0); }
  export function startLocation(m: f64, b: f64): f64 { return m; }
  export function h(z: f64): f64 {
    const az = Math.abs(z);
    return -az - 2.0 * vlog1p(vexp(-az));
  }
  export function fill(mu: f64, inv: f64, H: usize, E: usize): void {
    const n = wN, muv = splat(mu), invv = splat(inv);
    let i = 0;
    for (; i + 2 <= n; i += 2) vst(E, i, vexp2(f64x2.neg(f64x2.abs(vmul(vsub(vld(wY, i), muv), invv)))));
    // a second pass for log1p (as native: shorter dependency chains per loop)
    for (let q = 0; q + 2 <= n; q += 2) {
      const az = f64x2.abs(vmul(vsub(vld(wY, q), muv), invv));
      vst(H, q, vsub(f64x2.neg(az), vmul(splat(2.0), vlog1p2(vld(E, q)))));
    }
    for (; i < n; ++i) {
      const az = Math.abs((ld(wY, i) - mu) * inv), e = vexp(-az);
      st(E, i, e);
      st(H, i, -az - 2.0 * vlog1p(e));
    }
  }
  // h' and h'' from aux = p = (z ≥ 0 ? 1 : e) / (1 + e) (two runs, one run)
  @inline export function aux2(z: v128, e: v128): v128 {
    const one = splat(1.0);
    return f64x2.div(vsel(one, e, f64x2.ge(z, splat(0.0))), vadd(one, e));
  }
  @inline export function aux(z: f64, e: f64): f64 { return (z >= 0 ? 1.0 : e) / (1.0 + e); }
  @inline export function h1v(p: v128): v128 { return vsub(splat(1.0), vmul(splat(2.0), p)); }
  @inline export function h2v(p: v128): v128 { return vmul(vmul(splat(-2.0), p), vsub(splat(1.0), p)); }
  @inline export function h1(p: f64): f64 { return 1.0 - 2.0 * p; }
  @inline export function h2(p: f64): f64 { return -2.0 * p * (1.0 - p); }
}

// Fréchet: largest extreme value on y, h(z) = −z − e^−z (e = e^−z); sd = sigma·π/√6; moment start mu = mean − γ·sigma.
namespace Frechet {
  export function sdFactor(): f64 { return PI / Math.sqrt(6.0); }
  export function startLocation(m: f64, b: f64): f64 { return m - EULER * b; }
  export function h(z: f64): f64 { return -z - vexp(-z); }
  export function fill(mu: f64, inv: f64, H: usize, E: usize): void {
    const n = wN, muv = splat(mu), invv = splat(inv);
    let i = 0;
    for (; i + 2 <= n; i += 2) {
      const z = vmul(vsub(vld(wY, i), muv), invv);
      const e = vexp2(f64x2.neg(z));
      vst(E, i, e);
      vst(H, i, vsub(f64x2.neg(z), e));
    }
    for (; i < n; ++i) {
      const z = (ld(wY, i) - mu) * inv;
      const e = vexp(-z);
      st(E, i, e);
      st(H, i, -z - e);
    }
  }
  // h' and h'' from aux = e (two runs, one run)
  @inline export function h1v(aux: v128): v128 { return vsub(aux, splat(1.0)); }
  @inline export function h2v(aux: v128): v128 { return f64x2.neg(aux); }
  @inline export function h1(aux: f64): f64 { return aux - 1.0; }
  @inline export function h2(aux: f64): f64 { return -aux; }
}

// The location-scale rules dispatched by family code (Weibull, loglogistic, Fréchet).
function lsSdFactor(fam: i32): f64 {
  switch (fam) {
    case FAM_WEIBULL: return Weibull.sdFactor();
    case FAM_LOGLOGISTIC: return Loglogistic.sdFactor();
    default: return Frechet.sdFactor();
  }
}
function lsStartLocation(fam: i32, m: f64, b: f64): f64 {
  switch (fam) {
    case FAM_WEIBULL: return Weibull.startLocation(m, b);
    case FAM_LOGLOGISTIC: return Loglogistic.startLocation(m, b);
    default: return Frechet.startLocation(m, b);
  }
}
function lsH(fam: i32, z: f64): f64 {
  switch (fam) {
    case FAM_WEIBULL: return Weibull.h(z);
    case FAM_LOGLOGISTIC: return Loglogistic.h(z);
    default: return Frechet.h(z);
  }
}
function lsFill(fam: i32, mu: f64, inv: f64, H: usize, E: usize): void {
  switch (fam) {
    case FAM_WEIBULL: Weibull.fill(mu, inv, H, E); break;
    case FAM_LOGLOGISTIC: Loglogistic.fill(mu, inv, H, E); break;
    default: Frechet.fill(mu, inv, H, E);
  }
}
// h', h'' of two runs (aux: the family's auxiliary value from z and e) and of one run
@inline function lsAux2(fam: i32, z: v128, e: v128): v128 { return fam == FAM_LOGLOGISTIC ? Loglogistic.aux2(z, e) : e; }
@inline function lsH1v(fam: i32, aux: v128): v128 {
  switch (fam) {
    case FAM_WEIBULL: return Weibull.h1v(aux);
    case FAM_LOGLOGISTIC: return Loglogistic.h1v(aux);
    default: return Frechet.h1v(aux);
  }
}
@inline function lsH2v(fam: i32, aux: v128): v128 {
  switch (fam) {
    case FAM_WEIBULL: return Weibull.h2v(aux);
    case FAM_LOGLOGISTIC: return Loglogistic.h2v(aux);
    default: return Frechet.h2v(aux);
  }
}
@inline function lsAux(fam: i32, z: f64, e: f64): f64 { return fam == FAM_LOGLOGISTIC ? Loglogistic.aux(z, e) : e; }
@inline function lsH1(fam: i32, aux: f64): f64 {
  switch (fam) {
    case FAM_WEIBULL: return Weibull.h1(aux);
    case FAM_LOGLOGISTIC: return Loglogistic.h1(aux);
    default: return Frechet.h1(aux);
  }
}
@inline function lsH2(fam: i32, aux: f64): f64 {
  switch (fam) {
    case FAM_WEIBULL: return Weibull.h2(aux);
    case FAM_LOGLOGISTIC: return Loglogistic.h2(aux);
    default: return Frechet.h2(aux);
  }
}

// (mirror of native Work's cache) per slot: h(z_i) and the exponential inside it at (fam, mu, sig) for all runs;
// slot j < KMAX is component j's, slot KMAX a trial step's. hSlot/eSlot hold the slots' array addresses.
let hSlot: usize = 0;
let eSlot: usize = 0;
let tagFam: usize = 0;
let tagMu: usize = 0;
let tagSig: usize = 0;
@inline function slotH(s: i32): usize { return load<usize>(hSlot + (<usize>s * sizeof<usize>())); }
@inline function slotE(s: i32): usize { return load<usize>(eSlot + (<usize>s * sizeof<usize>())); }
function hfill(fam: i32, slot: i32, mu: f64, sig: f64): void {
  if (ldi(tagFam, slot) == fam && ld(tagMu, slot) == mu && ld(tagSig, slot) == sig) return;
  lsFill(fam, mu, 1.0 / sig, slotH(slot), slotE(slot));
  sti(tagFam, slot, fam);
  st(tagMu, slot, mu);
  st(tagSig, slot, sig);
}
function hswap(s: i32, t: i32): void {
  const sh = <usize>s * sizeof<usize>(), th = <usize>t * sizeof<usize>();
  let p = load<usize>(hSlot + sh); store<usize>(hSlot + sh, load<usize>(hSlot + th)); store<usize>(hSlot + th, p);
  p = load<usize>(eSlot + sh); store<usize>(eSlot + sh, load<usize>(eSlot + th)); store<usize>(eSlot + th, p);
  const f = ldi(tagFam, s); sti(tagFam, s, ldi(tagFam, t)); sti(tagFam, t, f);
  let v = ld(tagMu, s); st(tagMu, s, ld(tagMu, t)); st(tagMu, t, v);
  v = ld(tagSig, s); st(tagSig, s, ld(tagSig, t)); st(tagSig, t, v);
}

// Mirror of native ls_penalty: the MAP prior on sd = sigma·sd_factor as a penalty on ls = log sigma.
function lsPenalty(ps: f64, pb: f64, ls: f64): f64 { return -ps * ls - 0.5 * ps * pb * vexp(-2.0 * ls); }
function lsObjective(fam: i32, w: usize, n: i32, W: f64, mu: f64, sig: f64, ps: f64, pb: f64): f64 {
  gWork += <f64>n;
  hfill(fam, KMAX, mu, sig);
  const q = laneDot(w, slotH(KMAX), n) - W * vlog(sig);
  return ps > 0.0 ? q + lsPenalty(ps, pb, vlog(sig)) : q;
}

// The six Newton sums of runs 0 .. n4-1 (n4 a multiple of 4) into laneAcc (mirror of native ls_moments): runs i, i+1
// to lanes 0, 1 and runs i+2, i+3 to lanes 2, 3, each sum kept in two vector locals while the loop runs (the
// same additions in the same order as four scalar lanes).
function lsMomentsPairs(fam: i32, w: usize, y: usize, E: usize, H: usize, n4: i32, mu: f64, inv: f64): void {
  const zero = splat(0.0), muv = splat(mu), invv = splat(inv);
  let a0 = zero, a1 = zero, a2 = zero, a3 = zero, a4 = zero, a5 = zero; // lanes 0, 1
  let b0 = zero, b1 = zero, b2 = zero, b3 = zero, b4 = zero, b5 = zero; // lanes 2, 3
  for (let i = 0; i < n4; i += 4) {
    let wi = vld(w, i), z = vmul(vsub(vld(y, i), muv), invv), e = vld(E, i);
    let aux = lsAux2(fam, z, e);
    let h1 = lsH1v(fam, aux), h2 = lsH2v(fam, aux);
    let on = f64x2.ne(wi, zero), wz = vmul(wi, z);
    a0 = vadd(a0, vsel(vmul(wi, vld(H, i)), zero, on));
    a1 = vadd(a1, vsel(vmul(wi, h1), zero, on));
    a2 = vadd(a2, vsel(vmul(wi, h2), zero, on));
    a3 = vadd(a3, vsel(vmul(wz, h1), zero, on));
    a4 = vadd(a4, vsel(vmul(wz, h2), zero, on));
    a5 = vadd(a5, vsel(vmul(vmul(wz, z), h2), zero, on));
    const i2 = i + 2;
    wi = vld(w, i2);
    z = vmul(vsub(vld(y, i2), muv), invv);
    e = vld(E, i2);
    aux = lsAux2(fam, z, e);
    h1 = lsH1v(fam, aux);
    h2 = lsH2v(fam, aux);
    on = f64x2.ne(wi, zero);
    wz = vmul(wi, z);
    b0 = vadd(b0, vsel(vmul(wi, vld(H, i2)), zero, on));
    b1 = vadd(b1, vsel(vmul(wi, h1), zero, on));
    b2 = vadd(b2, vsel(vmul(wi, h2), zero, on));
    b3 = vadd(b3, vsel(vmul(wz, h1), zero, on));
    b4 = vadd(b4, vsel(vmul(wz, h2), zero, on));
    b5 = vadd(b5, vsel(vmul(vmul(wz, z), h2), zero, on));
  }
  lanePut(0, a0, b0);
  lanePut(1, a1, b1);
  lanePut(2, a2, b2);
  lanePut(3, a3, b3);
  lanePut(4, a4, b4);
  lanePut(5, a5, b5);
}
@inline function lanePut(q: i32, lo: v128, hi: v128): void {
  const p = laneAcc + (<usize>(q * LANES) << 3);
  v128.store(p, lo);
  v128.store(p + 16, hi);
}

function mstepLs(fam: i32, slot: i32, y: usize, w: usize, n: i32, W: f64, sfloor: f64, maxit: i32, ps: f64, pb: f64, mu0: f64, sig0: f64): void {
  let mu = mu0, sig = sig0;
  if (sig < sfloor) sig = sfloor;
  const lfloor = vlog(sfloor); // (mirror: fast-math log and exp of sigma)
  for (let it = 0; it < maxit; ++it) {
    gWork += <f64>n;
    const inv = 1.0 / sig;
    hfill(fam, slot, mu, sig);
    const H = slotH(slot), E = slotE(slot);
    let i = n & ~3;
    lsMomentsPairs(fam, w, y, E, H, i, mu, inv);
    for (let l = 0; i < n; ++i, ++l) {
      const wi = ld(w, i);
      const z = (ld(y, i) - mu) * inv;
      const e = ld(E, i);
      const aux = lsAux(fam, z, e);
      const h1 = lsH1(fam, aux), h2 = lsH2(fam, aux);
      const on = wi != 0.0;
      laneAdd(0, l, on ? wi * ld(H, i) : 0.0);
      laneAdd(1, l, on ? wi * h1 : 0.0);
      laneAdd(2, l, on ? wi * h2 : 0.0);
      laneAdd(3, l, on ? wi * z * h1 : 0.0);
      laneAdd(4, l, on ? wi * z * h2 : 0.0);
      laneAdd(5, l, on ? wi * z * z * h2 : 0.0);
    }
    const A0 = laneTotal(0), A1 = laneTotal(1), A2 = laneTotal(2), B1 = laneTotal(3), B2 = laneTotal(4), C2 = laneTotal(5);
    const ls = vlog(sig);
    let Q = A0 - W * ls;
    const gm = -A1 * inv;
    let gs = -W - B1;
    const Hmm = A2 * inv * inv, Hms = (A1 + B2) * inv;
    let Hss = B1 + C2;
    if (ps > 0.0) {
      const e2 = ps * pb * vexp(-2.0 * ls); // vexp: the same bits as native
      Q += lsPenalty(ps, pb, ls);
      gs += e2 - ps;
      Hss -= 2.0 * e2;
    }
    let dm: f64, ds: f64;
    const atFloor = ls <= lfloor && gs <= 0.0;
    if (atFloor) {
      dm = Hmm < 0.0 ? -gm / Hmm : gm * sig * sig / W;
      ds = 0.0;
    } else {
      const det = Hmm * Hss - Hms * Hms;
      if (Hmm < 0.0 && det > 0.0) {
        dm = -(Hss * gm - Hms * gs) / det;
        ds = -(Hmm * gs - Hms * gm) / det;
      } else {
        dm = gm * sig * sig / W;
        ds = gs / W;
      }
    }
    if (ds > 1.0) ds = 1.0;
    if (ds < -1.0) ds = -1.0;
    if (dm > 2.0 * sig) dm = 2.0 * sig;
    if (dm < -2.0 * sig) dm = -2.0 * sig;
    let step = 1.0;
    let moved = false;
    for (let bt = 0; bt < 40; ++bt) {
      const nm = mu + step * dm;
      let nls = ls + step * ds;
      if (nls < lfloor) nls = lfloor;
      const nsig = vexp(nls);
      const nQ = lsObjective(fam, w, n, W, nm, nsig, ps, pb);
      if (nQ >= Q) {
        moved = nm != mu || nsig != sig;
        mu = nm;
        sig = nsig;
        hswap(slot, KMAX); // the accepted trial's h values become the component's
        break;
      }
      step *= 0.5;
    }
    if (!moved) break;
    if (Math.abs(step * dm) <= 1e-13 * sig && Math.abs(step * ds) <= 1e-13) break;
  }
  outA = mu;
  outB = sig;
}

// What the location-scale families share (the family's own rules come through the ls* switches above).
namespace LocationScale {
  export const ON_LOG = true;
  export function logDensities(fam: i32, slot: i32, logw: f64, a: f64, b: f64, Rj: usize): void {
    const n = wN;
    const cj = logw - Math.log(b);
    hfill(fam, slot, a, b);
    const Hj = slotH(slot), cv = splat(cj);
    let i = 0;
    for (; i + 2 <= n; i += 2) vst(Rj, i, vadd(cv, vld(Hj, i)));
    for (; i < n; ++i) st(Rj, i, cj + ld(Hj, i));
  }
  export function logpdf(fam: i32, a: f64, b: f64, y: f64): f64 { return -Math.log(b) + lsH(fam, (y - a) / b); }
  // `warm`: (a, b) are the previous values; otherwise Newton starts from the moments of y
  export function mstep(fam: i32, slot: i32, w: usize, W: f64, maxit: i32, warm: bool, a: f64, b: f64): void {
    const n = wN;
    const f = lsSdFactor(fam);
    const sfloor = wDy / f;
    if (!warm) { // moment start
      mstepNormal(wY, w, n, W, wDy);
      const m = outA, sd = outB;
      b = sd / f;
      a = lsStartLocation(fam, m, b);
    }
    mstepLs(fam, slot, wY, w, n, W, sfloor, maxit, wPriorS, wPY2 / (f * f), a, b);
  }
  export function floorBinds(fam: i32, b: f64): bool { return b * lsSdFactor(fam) <= wDy * (1.0 + 1e-12); }
  export function toOriginal(a: f64, b: f64, logMean: f64): void { outA = a + logMean; outB = b; }
}

// ---------- the family switch: one per operation ----------
function famOnLog(fam: i32): bool {
  switch (fam) {
    case FAM_NORMAL: return Normal.ON_LOG;
    case FAM_GAMMA: return Gamma.ON_LOG;
    case FAM_LOGNORMAL: return Lognormal.ON_LOG;
    default: return LocationScale.ON_LOG;
  }
}
// E-step rows: Rj[i] = log w + log-density of run i (slot: the component, for the cached h values)
function famLogDensities(fam: i32, slot: i32, logw: f64, a: f64, b: f64, Rj: usize): void {
  switch (fam) {
    case FAM_NORMAL: Normal.logDensities(logw, a, b, Rj); break;
    case FAM_GAMMA: Gamma.logDensities(logw, a, b, Rj); break;
    case FAM_LOGNORMAL: Lognormal.logDensities(logw, a, b, Rj); break;
    default: LocationScale.logDensities(fam, slot, logw, a, b, Rj);
  }
}
// log-density of one run (x scaled, y = log x) in the family's domain
function famLogpdf(fam: i32, a: f64, b: f64, x: f64, y: f64): f64 {
  switch (fam) {
    case FAM_NORMAL: return Normal.logpdf(a, b, x);
    case FAM_GAMMA: return Gamma.logpdf(a, b, x, y);
    case FAM_LOGNORMAL: return Lognormal.logpdf(a, b, y);
    default: return LocationScale.logpdf(fam, a, b, y);
  }
}
// One component's weighted MLE into (outA, outB); (a, b) are the previous values when warm.
function mstepComponent(fam: i32, slot: i32, w: usize, W: f64, maxit: i32, warm: bool, a: f64, b: f64): void {
  switch (fam) {
    case FAM_NORMAL: Normal.mstep(w, W); break;
    case FAM_GAMMA: Gamma.mstep(w, W); break;
    case FAM_LOGNORMAL: Lognormal.mstep(w, W); break;
    default: LocationScale.mstep(fam, slot, w, W, maxit, warm, a, b);
  }
}
function famFloorBinds(fam: i32, a: f64, b: f64): bool {
  switch (fam) {
    case FAM_NORMAL: return Normal.floorBinds(b);
    case FAM_GAMMA: return Gamma.floorBinds(a);
    case FAM_LOGNORMAL: return Lognormal.floorBinds(b);
    default: return LocationScale.floorBinds(fam, b);
  }
}
// (a, b) on the original runs' scale into (outA, outB)
function famToOriginal(fam: i32, a: f64, b: f64, mean: f64, logMean: f64): void {
  switch (fam) {
    case FAM_NORMAL: Normal.toOriginal(a, b, mean); break;
    case FAM_GAMMA: Gamma.toOriginal(a, b, mean); break;
    case FAM_LOGNORMAL: Lognormal.toOriginal(a, b, logMean); break;
    default: LocationScale.toOriginal(a, b, logMean);
  }
}
// the key that orders components for output, and the unit of location differences when short runs are compared
function famLocationKey(fam: i32, a: f64, b: f64): f64 { return fam == FAM_GAMMA ? Gamma.locationKey(a, b) : a; }
function famLocationUnit(fam: i32, a: f64, scale: f64): f64 { return fam == FAM_GAMMA ? Gamma.locationUnit(a) : scale; }

// E-step into wResp; returns the log-likelihood of the scaled runs (−Inf when a run has zero density).
function estep(fam: i32, k: i32, pw: usize, pa: usize, pb: usize): f64 {
  const n = wN;
  gWork += <f64>n * k;
  // component log-densities, component-major into R, then the log-sum-exp over components (mirror of native
  // estep_normalize), two runs at a time
  const R = wResp;
  for (let j = 0; j < k; ++j) famLogDensities(fam, j, Math.log(ld(pw, j)), ld(pa, j), ld(pb, j), R + ((<usize>j * n) << 3));
  const M = wRowMax, S = wRowSum;
  const n2 = n & ~1;
  for (let i = 0; i < n2; i += 2) {
    vst(M, i, splat(-Infinity));
    vst(S, i, splat(0.0));
  }
  if (n2 < n) { st(M, n2, -Infinity); st(S, n2, 0.0); }
  for (let j = 0; j < k; ++j) {
    const Rj = R + ((<usize>j * n) << 3);
    for (let i = 0; i < n2; i += 2) {
      const r = vld(Rj, i), m = vld(M, i);
      vst(M, i, vsel(r, m, f64x2.gt(r, m)));
    }
    if (n2 < n) { const r = ld(Rj, n2); if (r > ld(M, n2)) st(M, n2, r); }
  }
  for (let i = 0; i < n; ++i) if (!(ld(M, i) > -Infinity)) return -Infinity;
  const cut = splat(EXP_CUTOFF), zero = splat(0.0);
  for (let j = 0; j < k; ++j) {
    const Rj = R + ((<usize>j * n) << 3);
    for (let i = 0; i < n2; i += 2) {
      const d = vsub(vld(Rj, i), vld(M, i));
      const below = f64x2.lt(d, cut); // below e^-40 a term is lost in the sum anyway
      // (both lost: no exponential; d in [EXP_CUTOFF, 0] where it is taken: no range clamps needed)
      const e = i64x2.all_true(below) ? zero : vsel(zero, vexpInRange2(d), below);
      vst(Rj, i, e);
      vst(S, i, vadd(vld(S, i), e));
    }
    if (n2 < n) {
      const d = ld(Rj, n2) - ld(M, n2);
      const e = d < EXP_CUTOFF ? 0.0 : vexpInRange(d);
      st(Rj, n2, e);
      st(S, n2, ld(S, n2) + e);
    }
  }
  for (let i = 0; i < n2; i += 2) {
    const sv = vld(S, i);
    vst(M, i, vadd(vld(M, i), vlog2(sv)));
    vst(S, i, f64x2.div(splat(1.0), sv));
  }
  if (n2 < n) {
    const sv = ld(S, n2);
    st(M, n2, ld(M, n2) + vlog(sv));
    st(S, n2, 1.0 / sv);
  }
  for (let j = 0; j < k; ++j) {
    const Rj = R + ((<usize>j * n) << 3);
    for (let i = 0; i < n2; i += 2) vst(Rj, i, vmul(vld(Rj, i), vld(S, i)));
    if (n2 < n) st(Rj, n2, ld(Rj, n2) * ld(S, n2));
  }
  const L = laneSum(M, n); // in lanes, as native
  return L;
}

function lloyd(k: i32, centers: usize, group: usize, sum: usize, cnt: usize): void {
  const n = wN;
  for (let it = 0; it < 100; ++it) {
    let changed = false;
    for (let i = 0; i < n; ++i) {
      let best = 0;
      let bd = Math.abs(ld(wX, i) - ld(centers, 0));
      for (let j = 1; j < k; ++j) {
        const d = Math.abs(ld(wX, i) - ld(centers, j));
        if (d < bd) { bd = d; best = j; }
      }
      if (it == 0 || ldi(group, i) != best) changed = true;
      sti(group, i, best);
    }
    if (!changed) break;
    for (let j = 0; j < k; ++j) { st(sum, j, 0.0); st(cnt, j, 0.0); }
    for (let i = 0; i < n; ++i) {
      const g = ldi(group, i);
      st(sum, g, ld(sum, g) + ld(wX, i));
      st(cnt, g, ld(cnt, g) + 1.0);
    }
    for (let j = 0; j < k; ++j) if (ld(cnt, j) > 0) st(centers, j, ld(sum, j) / ld(cnt, j));
  }
}

function startGroups(k: i32, restart: i32, key: u64, group: usize, centers: usize, sum: usize, cnt: usize): void {
  const n = wN;
  if (restart == 0) {
    for (let j = 0; j < k; ++j) { st(sum, j, 0.0); st(cnt, j, 0.0); }
    for (let r = 0; r < n; ++r) {
      const j = <i32>((<i64>r * k) / n);
      st(sum, j, ld(sum, j) + ld(wX, ldi(wOrder, r)));
      st(cnt, j, ld(cnt, j) + 1.0);
    }
    for (let j = 0; j < k; ++j) st(centers, j, ld(cnt, j) > 0 ? ld(sum, j) / ld(cnt, j) : ld(wX, ldi(wOrder, n - 1)));
  } else {
    rngState = key;
    st(centers, 0, ld(wX, <i32>(uniform() * n)));
    const d2 = wResp;
    for (let i = 0; i < n; ++i) {
      const d = ld(wX, i) - ld(centers, 0);
      st(d2, i, d * d);
    }
    for (let j = 1; j < k; ++j) {
      let tot = 0.0;
      for (let i = 0; i < n; ++i) tot += ld(d2, i);
      let pick = n - 1;
      const u = uniform();
      if (tot > 0.0) {
        const target = u * tot;
        let acc = 0.0;
        for (let i = 0; i < n; ++i) {
          acc += ld(d2, i);
          if (acc > target) { pick = i; break; }
        }
      } else {
        pick = <i32>(u * n);
      }
      st(centers, j, ld(wX, pick));
      for (let i = 0; i < n; ++i) {
        const d = ld(wX, i) - ld(centers, j);
        if (d * d < ld(d2, i)) st(d2, i, d * d);
      }
    }
  }
  lloyd(k, centers, group, sum, cnt);
}

function initFromWeights(fam: i32, k: i32, pw: usize, pa: usize, pb: usize): void {
  const n = wN;
  for (let j = 0; j < k; ++j) {
    const wj = wResp + ((<usize>j * n) << 3);
    const cnt = laneSum(wj, n);
    if (cnt == 0.0) {
      for (let i = 0; i < n; ++i) st(wj, i, 1.0);
      mstepComponent(fam, j, wj, <f64>n, 100, false, 0.0, 0.0);
      st(pw, j, 0.5 / n);
    } else {
      mstepComponent(fam, j, wj, cnt, 100, false, 0.0, 0.0);
      st(pw, j, cnt / n);
    }
    st(pa, j, outA);
    st(pb, j, outB);
  }
  let t = 0.0;
  for (let j = 0; j < k; ++j) t += ld(pw, j);
  for (let j = 0; j < k; ++j) st(pw, j, ld(pw, j) / t);
}

function initParams(fam: i32, k: i32, group: usize, pw: usize, pa: usize, pb: usize): void {
  const n = wN;
  for (let j = 0; j < k; ++j) {
    const wj = wResp + ((<usize>j * n) << 3);
    for (let i = 0; i < n; ++i) st(wj, i, ldi(group, i) == j ? 1.0 : 0.0);
  }
  initFromWeights(fam, k, pw, pa, pb);
}

let sUsedLo: usize = 0;
let sUsedHi: usize = 0;
function initCore(fam: i32, k: i32, frac: f64, pw: usize, pa: usize, pb: usize): void {
  const n = wN;
  let h = <i32>(frac * n / (k - 1));
  if (h < 3) h = 3;
  if (h > n) h = n;
  for (let i = 0; i < n; ++i) st(wResp, i, 1.0);
  for (let j = 1; j < k; ++j) {
    const wj = wResp + ((<usize>j * n) << 3);
    for (let i = 0; i < n; ++i) st(wj, i, 0.0);
  }
  for (let j = 1; j < k; ++j) {
    let best = Infinity;
    let bi = -1;
    for (let i = 0; i + h <= n; ++i) {
      let overlap = false;
      for (let q = 1; q < j; ++q) if (i <= ldi(sUsedHi, q) && i + h - 1 >= ldi(sUsedLo, q)) overlap = true;
      if (overlap) continue;
      const range = ld(wX, ldi(wOrder, i + h - 1)) - ld(wX, ldi(wOrder, i));
      if (range < best) { best = range; bi = i; }
    }
    if (bi < 0) break;
    sti(sUsedLo, j, bi);
    sti(sUsedHi, j, bi + h - 1);
    const wj = wResp + ((<usize>j * n) << 3);
    for (let r = bi; r < bi + h; ++r) st(wj, ldi(wOrder, r), 1.0);
  }
  initFromWeights(fam, k, pw, pa, pb);
  for (let j = 0; j < k; ++j) st(pw, j, 1.0 / k);
}

function spikeCandidates(want: i32, pos: usize): i32 {
  const n = wN;
  let m = <i32>(Math.sqrt(<f64>n) * 0.5);
  if (m < 2) m = 2;
  let found = 0;
  for (let s = 0; s < want; ++s) {
    let bs = Infinity;
    let bi = -1;
    for (let i = 0; i + 1 < n; ++i) {
      let taken = false;
      for (let q = 0; q < found; ++q) if (i - ldi(pos, q) <= 1 && ldi(pos, q) - i <= 1) taken = true;
      if (taken) continue;
      let g = ld(wX, ldi(wOrder, i + 1)) - ld(wX, ldi(wOrder, i));
      if (g < wDx) g = wDx;
      const lo = i - m > 0 ? i - m : 0;
      const hi = i + 1 + m < n - 1 ? i + 1 + m : n - 1;
      const sp = (ld(wX, ldi(wOrder, hi)) - ld(wX, ldi(wOrder, lo))) / <f64>(hi - lo);
      const score = sp > 0.0 ? g / sp : 0.0;
      if (score < bs) { bs = score; bi = i; }
    }
    if (bi < 0) break;
    sti(pos, found++, bi);
  }
  return found;
}

let sT: usize = 0;
function residualWindow(fam: i32, h: i32, km1: i32, qw: usize, qa: usize, qb: usize): i32 {
  const onLog = famOnLog(fam);
  const v = onLog ? wY : wX;
  const res = onLog ? wDy : wDx;
  let best = -Infinity;
  let bi = 0;
  for (let i = 0; i + h <= wN; ++i) {
    let range = ld(v, ldi(wOrder, i + h - 1)) - ld(v, ldi(wOrder, i));
    if (range < res) range = res;
    const mid = ldi(wOrder, i + h / 2);
    let m = -Infinity;
    for (let j = 0; j < km1; ++j) {
      const t = Math.log(ld(qw, j)) + famLogpdf(fam, ld(qa, j), ld(qb, j), ld(wX, mid), ld(wY, mid));
      st(sT, j, t);
      if (t > m) m = t;
    }
    let sum = 0.0;
    for (let j = 0; j < km1; ++j) sum += Math.exp(ld(sT, j) - m);
    const score = Math.log(<f64>h / (wN * range)) - (m + Math.log(sum));
    if (score > best) { best = score; bi = i; }
  }
  return bi;
}

function initGreedy(fam: i32, k: i32, qw: usize, qa: usize, qb: usize, lo: i32, hi: i32, pw: usize, pa: usize, pb: usize): void {
  const n = wN;
  const w0 = wResp;
  for (let i = 0; i < n; ++i) st(w0, i, 0.0);
  for (let r = lo; r <= hi; ++r) st(w0, ldi(wOrder, r), 1.0);
  const cnt = <f64>(hi - lo + 1);
  mstepComponent(fam, k - 1, w0, cnt, 100, false, 0.0, 0.0);
  st(pa, k - 1, outA);
  st(pb, k - 1, outB);
  const share = cnt / n;
  st(pw, k - 1, share);
  for (let j = 0; j < k - 1; ++j) {
    st(pw, j, ld(qw, j) * (1.0 - share));
    st(pa, j, ld(qa, j));
    st(pb, j, ld(qb, j));
  }
}

// EM result of the last run
let emL: f64 = 0;
let emIters: i32 = 0;
let emConv: bool = false;

// scratch: pointers to k-sized arrays, set per call
let sNw: usize = 0;
let sNa: usize = 0;
let sNb: usize = 0;

// (mirror of native Seen) states of the model's short runs after PRUNE_AT iterations, components by location,
// 3*KMAX doubles each; a later run arriving at (nearly) the same state is stopped there.
let seenBase: usize = 0;
let seenCount: i32 = 0;
// (mirror of native racing, strategy 2) at iteration RACE_AT_c a short run whose projected log L is below that of RACE_KEEP_c
// earlier starts of the model is given up; projections as native (Aitken, gain capped at RACE_CAP changes).
const RACE_AT_0: i32 = 10;
const RACE_AT_1: i32 = 15;
const RACE_KEEP_0: i32 = 3;
const RACE_KEEP_1: i32 = 1;
const RACE_CAP: f64 = 50.0;
const raced = memory.data(2 * MAX_STARTS * 8); // per checkpoint, the projections of earlier starts
let nRaced0: i32 = 0;
let nRaced1: i32 = 0;
function raceReset(): void { nRaced0 = 0; nRaced1 = 0; }
// at checkpoint c: true when RACE_KEEP_c earlier starts are ahead of L; L is remembered
function raceBehind(c: i32, L: f64): bool {
  const base = raced + ((<usize>(c * MAX_STARTS)) << 3);
  const count = c == 0 ? nRaced0 : nRaced1;
  let ahead = 0;
  for (let q = 0; q < count; ++q) if (ld(base, q) > L) ++ahead;
  if (count < MAX_STARTS) {
    st(base, count, L);
    if (c == 0) ++nRaced0;
    else ++nRaced1;
  }
  return ahead >= (c == 0 ? RACE_KEEP_0 : RACE_KEEP_1);
}
// a start that converged after `it` iterations stands with its final L at the checkpoints it did not reach
function raceConverged(it: i32, L: f64): void {
  if (it < RACE_AT_0 && nRaced0 < MAX_STARTS) st(raced, nRaced0++, L);
  if (it < RACE_AT_1 && nRaced1 < MAX_STARTS) st(raced + ((<usize>MAX_STARTS) << 3), nRaced1++, L);
}
function sameState(fam: i32, k: i32, u: usize, v: usize): bool {
  for (let j = 0; j < k; ++j) {
    const sc = ld(u, 2 * k + j) > ld(v, 2 * k + j) ? ld(u, 2 * k + j) : ld(v, 2 * k + j);
    if (Math.abs(ld(u, j) - ld(v, j)) > DUP_TOL) return false;
    const locUnit = famLocationUnit(fam, ld(u, k + j), sc);
    if (Math.abs(ld(u, k + j) - ld(v, k + j)) > DUP_TOL * locUnit) return false;
    if (Math.abs(ld(u, 2 * k + j) - ld(v, 2 * k + j)) > DUP_TOL * sc) return false;
  }
  return true;
}
let sIdx: usize = 0;
function seenBefore(fam: i32, k: i32, pw: usize, pa: usize, pb: usize): bool {
  for (let j = 0; j < k; ++j) sti(sIdx, j, j);
  for (let j = 1; j < k; ++j) {
    const t = ldi(sIdx, j);
    let q = j - 1;
    while (q >= 0 && ld(pa, ldi(sIdx, q)) > ld(pa, t)) {
      sti(sIdx, q + 1, ldi(sIdx, q));
      --q;
    }
    sti(sIdx, q + 1, t);
  }
  const slot = seenCount < MAX_STARTS ? seenCount : MAX_STARTS - 1;
  const stp = seenBase + ((<usize>slot * 3 * KMAX) << 3);
  for (let j = 0; j < k; ++j) {
    st(stp, j, ld(pw, ldi(sIdx, j)));
    st(stp, k + j, ld(pa, ldi(sIdx, j)));
    st(stp, 2 * k + j, ld(pb, ldi(sIdx, j)));
  }
  for (let q = 0; q < seenCount; ++q)
    if (sameState(fam, k, seenBase + ((<usize>q * 3 * KMAX) << 3), stp)) return true;
  if (seenCount < MAX_STARTS) ++seenCount;
  return false;
}

// `abandon`: a short run still below this after PRUNE_AT iterations is given up (-Infinity keeps every run);
// with `dedupe`, so is one whose state then repeats an earlier short run's; with `race`, one that loses the race.
function runEm(fam: i32, k: i32, maxIter: i32, tol: f64, pw: usize, pa: usize, pb: usize, abandon: f64 = -Infinity, dedupe: bool = false, race: bool = false): void {
  const n = wN;
  let L = estep(fam, k, pw, pa, pb);
  if (!isFinite(L)) { emL = -Infinity; emIters = 0; emConv = false; return; }
  let it = 0;
  let conv = false;
  let prevChange = 0.0;
  while (it < maxIter) {
    for (let j = 0; j < k; ++j) {
      const wj = wResp + ((<usize>j * n) << 3);
      const W = laneSum(wj, n);
      st(sNa, j, ld(pa, j));
      st(sNb, j, ld(pb, j));
      st(sNw, j, W / n);
      if (W > 1e-10) {
        mstepComponent(fam, j, wj, W, 1, true, ld(pa, j), ld(pb, j));
        st(sNa, j, outA);
        st(sNb, j, outB);
      }
    }
    ++it;
    const nL = estep(fam, k, sNw, sNa, sNb);
    if (!isFinite(nL)) break;
    for (let j = 0; j < k; ++j) {
      st(pw, j, ld(sNw, j));
      st(pa, j, ld(sNa, j));
      st(pb, j, ld(sNb, j));
    }
    const change = Math.abs(nL - L);
    const scale = Math.abs(nL) > 1.0 ? Math.abs(nL) : 1.0;
    L = nL;
    if (change < tol * scale) {
      conv = true;
      if (race) raceConverged(it, L);
      break;
    }
    if (it == PRUNE_AT && (L < abandon || (dedupe && seenBefore(fam, k, pw, pa, pb)))) break;
    if (race) {
      const r = prevChange > 0.0 ? change / prevChange : 1.0;
      let gain = r < 1.0 ? change * r / (1.0 - r) : RACE_CAP * change;
      if (gain > RACE_CAP * change) gain = RACE_CAP * change;
      let out = false;
      if (it == RACE_AT_0) out = raceBehind(0, L + gain);
      if (it == RACE_AT_1) out = raceBehind(1, L + gain);
      if (out) break;
    }
    prevChange = change;
  }
  emL = L; emIters = it; emConv = conv;
}

// (mirror of native smem_refine) split-and-merge refinement (SMEM, Ueda et al. 2000) after the best start has
// converged: merge the two components whose responsibilities overlap most, split a third one its runs fit worst
// (largest |excess kurtosis| in the family's domain) at its weighted median, rerun EM, keep only an improvement.
const SMEM_MOVES: i32 = 4;
const SMEM_GAP: f64 = 1.0; // a move still this far behind the fit after PRUNE_AT iterations is given up
let smScore: usize = 0; // KMAX doubles
let smPairI: usize = 0; // KMAX*(KMAX-1)/2 i32
let smPairJ: usize = 0; // KMAX*(KMAX-1)/2 i32
let smPairV: usize = 0; // KMAX*(KMAX-1)/2 doubles
let smL: f64 = 0;
let smIt: i32 = 0;
let smConv: bool = false;
function smemRefine(fam: i32, k: i32, maxIter: i32, tol: f64, bw: usize, ba: usize, bb: usize, pw: usize, pa: usize, pb: usize): void {
  const n = wN;
  const v = famOnLog(fam) ? wY : wX;
  let tried = 0;
  let improved = true;
  while (improved && tried < SMEM_MOVES) {
    improved = false;
    seenCount = 0; // the model's starts are done: the buffer now holds the current fit and the moves' states
    seenBefore(fam, k, bw, ba, bb);
    estep(fam, k, bw, ba, bb);
    const R = wResp;
    for (let l = 0; l < k; ++l) {
      const r = R + ((<usize>l * n) << 3);
      let W = 0.0, m = 0.0;
      for (let i = 0; i < n; ++i) { W += ld(r, i); m += ld(r, i) * ld(v, i); }
      if (W < 4.0) { st(smScore, l, -1.0); continue; }
      m /= W;
      let m2 = 0.0, m4 = 0.0;
      for (let i = 0; i < n; ++i) {
        const d = (ld(v, i) - m) * (ld(v, i) - m);
        m2 += ld(r, i) * d;
        m4 += ld(r, i) * d * d;
      }
      m2 /= W;
      m4 /= W;
      st(smScore, l, m2 > 0 ? Math.abs(m4 / (m2 * m2) - 3.0) : -1.0);
    }
    let npair = 0;
    for (let i = 0; i < k; ++i)
      for (let j = i + 1; j < k; ++j) {
        const ri = R + ((<usize>i * n) << 3);
        const rj = R + ((<usize>j * n) << 3);
        let s = 0.0, si = 0.0, sj = 0.0;
        for (let q = 0; q < n; ++q) { s += ld(ri, q) * ld(rj, q); si += ld(ri, q) * ld(ri, q); sj += ld(rj, q) * ld(rj, q); }
        const val = si > 0 && sj > 0 ? s / Math.sqrt(si * sj) : 0.0;
        let p = npair++;
        while (p > 0 && ld(smPairV, p - 1) < val) {
          st(smPairV, p, ld(smPairV, p - 1)); sti(smPairI, p, ldi(smPairI, p - 1)); sti(smPairJ, p, ldi(smPairJ, p - 1)); --p;
        }
        st(smPairV, p, val); sti(smPairI, p, i); sti(smPairJ, p, j);
      }
    for (let p = 0; p < npair && !improved && tried < SMEM_MOVES; ++p) {
      const mi = ldi(smPairI, p), mj = ldi(smPairJ, p);
      let sl = -1;
      for (let l = 0; l < k; ++l)
        if (l != mi && l != mj && ld(smScore, l) >= 0 && (sl < 0 || ld(smScore, l) > ld(smScore, sl))) sl = l;
      if (sl < 0) continue;
      ++tried;
      // new responsibilities: mi <- r_mi + r_mj; mj <- lower half of sl; sl <- upper half of sl
      estep(fam, k, bw, ba, bb);
      const rmi = wResp + ((<usize>mi * n) << 3);
      const rmj = wResp + ((<usize>mj * n) << 3);
      const rsl = wResp + ((<usize>sl * n) << 3);
      let W = 0.0;
      for (let i = 0; i < n; ++i) { st(rmi, i, ld(rmi, i) + ld(rmj, i)); W += ld(rsl, i); }
      let acc = 0.0;
      for (let r = 0; r < n; ++r) {
        const i = ldi(wOrder, r);
        const lower = acc < 0.5 * W;
        acc += ld(rsl, i);
        st(rmj, i, lower ? ld(rsl, i) : 0.0);
        if (lower) st(rsl, i, 0.0);
      }
      initFromWeights(fam, k, pw, pa, pb);
      // a short run first (abandoned when hopelessly behind); only one that already beats the fit is continued
      const shortIter = maxIter < SHORT_ITER ? maxIter : SHORT_ITER;
      const loose = SHORT_TOL > tol;
      runEm(fam, k, shortIter, loose ? SHORT_TOL : tol, pw, pa, pb, smL - SMEM_GAP, true);
      if (!(emL > smL)) continue;
      let fL = emL, fIt = emIters, fConv = emConv;
      if (loose || !emConv) {
        runEm(fam, k, maxIter - fIt, tol, pw, pa, pb);
        if (emL > -Infinity) { fL = emL; fIt = fIt + emIters; fConv = emConv; }
      }
      if (fL > smL + 1e-9 * (Math.abs(smL) > 1.0 ? Math.abs(smL) : 1.0)) {
        smL = fL; smIt = fIt; smConv = fConv;
        for (let j = 0; j < k; ++j) { st(bw, j, ld(pw, j)); st(ba, j, ld(pa, j)); st(bb, j, ld(pb, j)); }
        improved = true;
      }
    }
  }
}

const CONTINUED: i32 = 1; // (mirror) best short runs iterated to convergence: the single best here
const SPIKE_STARTS: i32 = 3;
const CORE_STARTS: i32 = 2;
const GREEDY_WINDOWS: i32 = 3;
const GREEDY_TAILS: i32 = 2;
@inline function coreFraction(i: i32): f64 { return i == 0 ? 0.5 : 0.2; }
@inline function greedyFraction(i: i32): f64 { return i == 0 ? 0.5 : i == 1 ? 0.2 : 0.08; }

// Memoized fits of the current configuration: entry = [have, L, iters, conv, work, w[KMAX], a[KMAX], b[KMAX]]
const ESZ: i32 = 5 + 3 * KMAX;
let cacheBase: usize = 0;
@inline function entry(fam: i32, k: i32): usize { return cacheBase + ((<usize>(fam * (KMAX + 1) + k) * ESZ) << 3); }
let cxSeed: u64 = 0;
let cxCid: i32 = 0;
let cxRestarts: i32 = 0;
let cxMaxIter: i32 = 0;
let cxTol: f64 = 0;
let cxNspikes: i32 = 0;
let cxPartitionsOnly: bool = false;
let cxRace: bool = false; // strategy 2
let cxSpikes: usize = 0;
let sPw: usize = 0;
let sPa: usize = 0;
let sPb: usize = 0;
let sCenters: usize = 0;
let sCsum: usize = 0;
let sCcnt: usize = 0;

// Mirror of native fit_model.
// The initial states (w, a, b) of the current model's starts (mirror of native Ctx::repeated_start).
let startBase: usize = 0;
let startCount: i32 = 0;
function repeatedStart(k: i32, pw: usize, pa: usize, pb: usize): bool {
  for (let q = 0; q < startCount; ++q) {
    const s = startBase + ((<usize>q * 3 * KMAX) << 3);
    let same = true;
    for (let j = 0; j < k && same; ++j) same = ld(s, j) == ld(pw, j) && ld(s, k + j) == ld(pa, j) && ld(s, 2 * k + j) == ld(pb, j);
    if (same) return true;
  }
  if (startCount < MAX_STARTS) {
    const s = startBase + ((<usize>startCount * 3 * KMAX) << 3);
    for (let j = 0; j < k; ++j) { st(s, j, ld(pw, j)); st(s, k + j, ld(pa, j)); st(s, 2 * k + j, ld(pb, j)); }
    ++startCount;
  }
  return false;
}

function fitModel(fam: i32, k: i32): usize {
  const out = entry(fam, k);
  if (ld(out, 0) != 0.0) return out;
  let prev: usize = 0;
  let greedy = false;
  if (k >= 2) {
    prev = fitModel(fam, k - 1);
    greedy = ld(prev, 1) > -Infinity;
  }
  wPX2 = wVarX / (<f64>k * k); // the prior's spread for k components (the recursion above set k − 1's)
  wPY2 = wVarY / (<f64>k * k);
  const work0 = gWork;
  const n = wN;
  const restarts = cxRestarts, nspikes = cxPartitionsOnly ? 0 : cxNspikes;
  const ncore = cxPartitionsOnly ? 0 : CORE_STARTS;
  const base = restarts + nspikes + ncore;
  const nrest = k == 1 ? 1 : base + (greedy && !cxPartitionsOnly ? nspikes + GREEDY_WINDOWS + GREEDY_TAILS : 0);
  const shortIter = cxMaxIter < SHORT_ITER ? cxMaxIter : SHORT_ITER;
  const ow = out + (<usize>5 << 3), oa = out + (<usize>(5 + KMAX) << 3), ob = out + (<usize>(5 + 2 * KMAX) << 3);
  const qw = prev + (<usize>5 << 3), qa = prev + (<usize>(5 + KMAX) << 3), qb = prev + (<usize>(5 + 2 * KMAX) << 3);
  const pw = sPw, pa = sPa, pb = sPb;
  let bestL = -Infinity, bestIt = 0, bestConv = false;
  seenCount = 0;
  raceReset();
  startCount = 0;
  for (let rs = 0; rs < nrest; ++rs) {
    if (k == 1) {
      for (let i = 0; i < n; ++i) sti(wGroup, i, 0);
      initParams(fam, k, wGroup, pw, pa, pb);
    } else if (rs >= base) {
      const g = rs - base;
      let lo: i32, hi: i32;
      if (g < nspikes) {
        lo = ldi(cxSpikes, g);
        hi = lo + 1;
      } else if (g >= nspikes + GREEDY_WINDOWS) {
        let h = n / (4 * k);
        if (h < 3) h = 3;
        if (h > n) h = n;
        lo = g == nspikes + GREEDY_WINDOWS ? 0 : n - h;
        hi = lo + h - 1;
      } else {
        let h = <i32>(greedyFraction(g - nspikes) * n / k);
        if (h < 3) h = 3;
        if (h > n) h = n;
        lo = residualWindow(fam, h, k - 1, qw, qa, qb);
        hi = lo + h - 1;
      }
      initGreedy(fam, k, qw, qa, qb, lo, hi, pw, pa, pb);
    } else if (rs >= restarts + nspikes) {
      initCore(fam, k, coreFraction(rs - restarts - nspikes), pw, pa, pb);
    } else if (rs >= restarts) {
      startGroups(k - 1, 0, 0, wGroup, sCenters, sCsum, sCcnt);
      const pair = ldi(cxSpikes, rs - restarts);
      sti(wGroup, ldi(wOrder, pair), k - 1);
      sti(wGroup, ldi(wOrder, pair + 1), k - 1);
      initParams(fam, k, wGroup, pw, pa, pb);
    } else {
      startGroups(k, rs, streamKey(cxSeed, cxCid, fam, k, rs), wGroup, sCenters, sCsum, sCcnt);
      initParams(fam, k, wGroup, pw, pa, pb);
    }
    // (mirror) a start repeating an earlier start's initial state exactly cannot change the fit: skipped unless racing
    if (!cxRace && repeatedStart(k, pw, pa, pb)) continue;
    const abandon = bestL > -Infinity ? bestL - (PRUNE_GAP_A + PRUNE_GAP_B * n) : -Infinity;
    // short runs stop at the looser SHORT_TOL (only ranked); the best one is then run on to cxTol
    const loose = SHORT_TOL > cxTol;
    runEm(fam, k, shortIter, loose ? SHORT_TOL : cxTol, pw, pa, pb, abandon, true, cxRace);
    if (loose) emConv = false;
    if (!(emL > -Infinity)) continue;
    if (emL > bestL) {
      bestL = emL; bestIt = emIters; bestConv = emConv;
      for (let j = 0; j < k; ++j) { st(ow, j, ld(pw, j)); st(oa, j, ld(pa, j)); st(ob, j, ld(pb, j)); }
    }
  }
  if (bestL > -Infinity && !bestConv && bestIt < cxMaxIter) {
    runEm(fam, k, cxMaxIter - bestIt, cxTol, ow, oa, ob);
    if (emL > -Infinity) { bestL = emL; bestIt = bestIt + emIters; bestConv = emConv; }
  }
  if (k >= 3 && !cxPartitionsOnly && bestL > -Infinity) {
    smL = bestL; smIt = bestIt; smConv = bestConv;
    smemRefine(fam, k, cxMaxIter, cxTol, ow, oa, ob, pw, pa, pb);
    bestL = smL; bestIt = smIt; bestConv = smConv;
  }
  st(out, 0, 1.0);
  st(out, 1, bestL);
  st(out, 2, <f64>bestIt);
  st(out, 3, bestConv ? 1.0 : 0.0);
  st(out, 4, gWork - work0);
  return out;
}

export function mixtureFit(runs: usize, offsets: usize, nconf: i32, configIds: usize, models: usize, nmodels: i32,
  seed: f64, restarts: i32, maxIter: i32, tol: f64, pstride: i32, strategy: i32, priorStrength: f64, loglik: usize, bic: usize, iterations: usize,
  converged: usize, floorBound: usize, params: usize, resolution: usize, work: usize): i32 {
  if (strategy < 0 || strategy > 2 || !(priorStrength >= 0.0 && priorStrength < Infinity)) return BAD_ARGUMENT;
  if (nconf < 0 || nmodels < 0 || restarts < 1 || maxIter < 0 || !(tol >= 0.0) || pstride < 3 || !(seed >= 0.0)) return BAD_ARGUMENT;
  if (ldi(offsets, 0) != 0) return BAD_ARGUMENT;
  for (let c = 0; c < nconf; ++c) if (ldi(offsets, c + 1) < ldi(offsets, c)) return BAD_ARGUMENT;
  let nmax = 0;
  for (let c = 0; c < nconf; ++c) {
    const n = ldi(offsets, c + 1) - ldi(offsets, c);
    if (n < 2) return MIXTURE_TOO_FEW;
    if (n > nmax) nmax = n;
  }
  let kmax = 1;
  for (let m = 0; m < nmodels; ++m) {
    const fam = ldi(models, 2 * m), k = ldi(models, 2 * m + 1);
    if (fam < 0 || fam >= FAM_COUNT || k < 1 || k > KMAX || 3 * k > pstride) return MIXTURE_BAD_MODEL;
    if (k > kmax) kmax = k;
  }
  const total = <usize>ldi(offsets, nconf);
  if (!allFinite(runs, total)) return NONFINITE;
  for (let i: usize = 0; i < total; ++i) if (!(load<f64>(runs + (i << 3)) > 0.0)) return MIXTURE_NONPOSITIVE;

  const useed = <u64>seed;
  const nm = <usize>nmax;
  const xs = heap.alloc(nm << 3), ys = heap.alloc(nm << 3);
  const order = heap.alloc(nm << 2), buf = heap.alloc(nm << 2), group = heap.alloc(nm << 2);
  wResp = heap.alloc((<usize>kmax * nm) << 3);
  wRowMax = heap.alloc(nm << 3);
  wRowSum = heap.alloc(nm << 3);
  const small = heap.alloc(<usize>KMAX * 20 << 3);  // 20 k-sized arrays
  const K8 = <usize>KMAX << 3;
  sNw = small; sNa = small + K8; sNb = small + 2 * K8;
  // (slots 3..9 unused)
  const pw = small + 10 * K8, pa = small + 11 * K8, pb = small + 12 * K8;
  const centers = small + 13 * K8, csum = small + 14 * K8, ccnt = small + 15 * K8;
  const idx = small + 16 * K8;  // i32 use
  sUsedLo = small + 17 * K8; sUsedHi = small + 18 * K8; sT = small + 19 * K8;
  sPw = pw; sPa = pa; sPb = pb; sCenters = centers; sCsum = csum; sCcnt = ccnt;
  cxSpikes = heap.alloc(<usize>SPIKE_STARTS << 2);
  cacheBase = heap.alloc((<usize>FAM_COUNT * (KMAX + 1) * ESZ) << 3);
  seenBase = heap.alloc((<usize>MAX_STARTS * 3 * KMAX) << 3);
  startBase = heap.alloc((<usize>MAX_STARTS * 3 * KMAX) << 3);
  const hStore = heap.alloc((<usize>(KMAX + 1) * nm) << 3), eStore = heap.alloc((<usize>(KMAX + 1) * nm) << 3);
  hSlot = heap.alloc(<usize>(KMAX + 1) * sizeof<usize>());
  eSlot = heap.alloc(<usize>(KMAX + 1) * sizeof<usize>());
  tagFam = heap.alloc(<usize>(KMAX + 1) << 2);
  tagMu = heap.alloc(<usize>(KMAX + 1) << 3);
  tagSig = heap.alloc(<usize>(KMAX + 1) << 3);
  sIdx = heap.alloc(<usize>KMAX << 2);
  const npairMax = <usize>(KMAX * (KMAX - 1) / 2);
  smScore = heap.alloc(<usize>KMAX << 3);
  smPairI = heap.alloc(npairMax << 2);
  smPairJ = heap.alloc(npairMax << 2);
  smPairV = heap.alloc(npairMax << 3);

  for (let c = 0; c < nconf; ++c) {
    const off = ldi(offsets, c);
    const n = ldi(offsets, c + 1) - off;
    const r = runs + (<usize>off << 3);
    let mean = 0.0;
    for (let i = 0; i < n; ++i) mean += ld(r, i);
    mean /= n;
    for (let i = 0; i < n; ++i) {
      st(xs, i, ld(r, i) / mean);
      st(ys, i, Math.log(ld(xs, i)));
    }
    for (let i = 0; i < n; ++i) sti(order, i, i);
    // bottom-up merge sort of indices by x (stable; the same as native)
    let a = order, b = buf;
    for (let width = 1; width < n; width *= 2) {
      for (let lo = 0; lo < n; lo += 2 * width) {
        const mid = lo + width < n ? lo + width : n;
        const hi = lo + 2 * width < n ? lo + 2 * width : n;
        let i = lo, j = mid, o = lo;
        while (i < mid && j < hi) {
          if (ld(xs, ldi(a, j)) < ld(xs, ldi(a, i))) { sti(b, o++, ldi(a, j++)); } else { sti(b, o++, ldi(a, i++)); }
        }
        while (i < mid) sti(b, o++, ldi(a, i++));
        while (j < hi) sti(b, o++, ldi(a, j++));
      }
      const t = a; a = b; b = t;
    }
    if (a != order) for (let i = 0; i < n; ++i) sti(order, i, ldi(a, i));
    let dx = Infinity, dy = Infinity;
    for (let i = 1; i < n; ++i) {
      const lo = ld(xs, ldi(order, i - 1)), hi = ld(xs, ldi(order, i));
      if (hi > lo) {
        if (hi - lo < dx) dx = hi - lo;
        const g = ld(ys, ldi(order, i)) - ld(ys, ldi(order, i - 1));
        if (g > 0.0 && g < dy) dy = g;
      }
    }
    if (!(dx < Infinity)) dx = 1e-9;
    if (!(dy < Infinity)) dy = 1e-9;
    st(resolution, 2 * c, dx * mean);
    st(resolution, 2 * c + 1, dy);
    let blo = Math.log(1e-8), bhi = Math.log(1e300);
    for (let it = 0; it < 200; ++it) {
      const mid = 0.5 * (blo + bhi);
      if (trigam(Math.exp(mid)) > dy * dy) blo = mid; else bhi = mid;
    }
    for (let q = 0; q <= KMAX; ++q) { // fresh h caches for the configuration
      store<usize>(hSlot + (<usize>q * sizeof<usize>()), hStore + ((<usize>q * nm) << 3));
      store<usize>(eSlot + (<usize>q * sizeof<usize>()), eStore + ((<usize>q * nm) << 3));
      sti(tagFam, q, -1);
    }
    wN = n; wX = xs; wY = ys; wDx = dx; wDy = dy; wAmax = Math.exp(blo); wOrder = order; wGroup = group;
    let sumy = 0.0;
    for (let i = 0; i < n; ++i) sumy += ld(ys, i);
    let vx = 0.0, vy = 0.0; // the MAP prior's spread: variances of x (mean 1) and of y
    for (let i = 0; i < n; ++i) vx += (ld(xs, i) - 1.0) * (ld(xs, i) - 1.0);
    for (let i = 0; i < n; ++i) vy += (ld(ys, i) - sumy / n) * (ld(ys, i) - sumy / n);
    wPriorS = priorStrength; wVarX = vx / n; wVarY = vy / n;
    cxSeed = useed; cxCid = ldi(configIds, c); cxRestarts = restarts; cxMaxIter = maxIter; cxTol = tol; cxPartitionsOnly = strategy == 1; cxRace = strategy == 2;
    cxNspikes = spikeCandidates(SPIKE_STARTS, cxSpikes);
    for (let f = 0; f < FAM_COUNT; ++f) for (let q = 0; q <= KMAX; ++q) st(entry(f, q), 0, 0.0);

    for (let m = 0; m < nmodels; ++m) {
      const fam = ldi(models, 2 * m), k = ldi(models, 2 * m + 1);
      const ri = <usize>c * nmodels + m;
      const E = fitModel(fam, k);
      const bestL = ld(E, 1), bestIt = <i32>ld(E, 2), bestConv = ld(E, 3) != 0.0;
      const bw = E + (<usize>5 << 3), ba = E + (<usize>(5 + KMAX) << 3), bb = E + (<usize>(5 + 2 * KMAX) << 3);
      st(work, <i32>ri, ld(E, 4));
      const P = params + ((ri * <usize>pstride) << 3);
      for (let q = 0; q < pstride; ++q) st(P, q, NaN);
      if (!(bestL > -Infinity)) {
        st(loglik, <i32>ri, NaN);
        st(bic, <i32>ri, NaN);
        sti(iterations, <i32>ri, bestIt);
        store<u8>(converged + ri, 0);
        store<u8>(floorBound + ri, 0);
        continue;
      }
      const Lx = famOnLog(fam) ? bestL - sumy : bestL;
      const L = Lx - n * Math.log(mean);
      st(loglik, <i32>ri, L);
      st(bic, <i32>ri, -2.0 * L + (3.0 * k - 1.0) * Math.log(<f64>n));
      sti(iterations, <i32>ri, bestIt);
      store<u8>(converged + ri, bestConv ? 1 : 0);
      let bound = false;
      for (let j = 0; j < k; ++j) bound = bound || famFloorBinds(fam, ld(ba, j), ld(bb, j));
      store<u8>(floorBound + ri, bound ? 1 : 0);
      for (let j = 0; j < k; ++j) sti(idx, j, j);
      for (let j = 1; j < k; ++j) {
        const t = ldi(idx, j);
        const key = famLocationKey(fam, ld(ba, t), ld(bb, t));
        let q = j - 1;
        while (q >= 0 && famLocationKey(fam, ld(ba, ldi(idx, q)), ld(bb, ldi(idx, q))) > key) {
          sti(idx, q + 1, ldi(idx, q));
          --q;
        }
        sti(idx, q + 1, t);
      }
      const lm = Math.log(mean);
      for (let j = 0; j < k; ++j) {
        const s = ldi(idx, j);
        st(P, j, ld(bw, s));
        famToOriginal(fam, ld(ba, s), ld(bb, s), mean, lm);
        st(P, k + j, outA);
        st(P, 2 * k + j, outB);
      }
    }
  }
  heap.free(xs); heap.free(ys); heap.free(order); heap.free(buf); heap.free(group); heap.free(wResp); heap.free(wRowMax); heap.free(wRowSum); heap.free(small); heap.free(cxSpikes); heap.free(cacheBase);
  heap.free(smScore); heap.free(smPairI); heap.free(smPairJ); heap.free(smPairV); heap.free(startBase);
  return OK;
}
