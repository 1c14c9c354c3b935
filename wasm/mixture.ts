// Mixture EM over a batch of configurations × (family, k) (mirror of native/src/mixture.cc: same arithmetic,
// same order of operations, same generator). See native/include/varmap/mixture.h for the contract.
import { OK, BAD_ARGUMENT, NONFINITE, allFinite } from "./lib/status";
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

const LOG_2PI: f64 = 1.8378770664093453;
const PI: f64 = 3.141592653589793;
const EULER: f64 = 0.5772156649015329;
const KMAX: i32 = 16;
const SHORT_ITER: i32 = 25;

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

// ---------- families ----------
@inline function logDomain(fam: i32): bool { return fam >= FAM_WEIBULL; }
function sdFactor(fam: i32): f64 {
  if (fam == FAM_WEIBULL || fam == FAM_FRECHET) return PI / Math.sqrt(6.0);
  if (fam == FAM_LOGLOGISTIC) return PI / Math.sqrt(3.0);
  return 1.0;
}
let H1: f64 = 0;
let H2: f64 = 0;
function hval(fam: i32, z: f64): f64 {
  if (fam == FAM_WEIBULL) {
    const e = Math.exp(z);
    H1 = 1.0 - e; H2 = -e;
    return z - e;
  }
  if (fam == FAM_FRECHET) {
    const e = Math.exp(-z);
    H1 = e - 1.0; H2 = -e;
    return -z - e;
  }
  const az = Math.abs(z), e = Math.exp(-az);
  const p = z >= 0 ? 1.0 / (1.0 + e) : e / (1.0 + e);
  H1 = 1.0 - 2.0 * p;
  H2 = -2.0 * p * (1.0 - p);
  return -az - 2.0 * Math.log1p(e);
}
@inline function honly(fam: i32, z: f64): f64 {
  if (fam == FAM_WEIBULL) return z - Math.exp(z);
  if (fam == FAM_FRECHET) return -z - Math.exp(-z);
  const az = Math.abs(z);
  return -az - 2.0 * Math.log1p(Math.exp(-az));
}

// ---------- per-configuration work state ----------
let wN: i32 = 0;
let wX: usize = 0;
let wY: usize = 0;
let wDx: f64 = 0;
let wDy: f64 = 0;
let wAmax: f64 = 0;
let wResp: usize = 0;
let wGroup: usize = 0;
let wOrder: usize = 0;
// M-step outputs (a, b)
let outA: f64 = 0;
let outB: f64 = 0;

function mstepNormal(v: usize, w: usize, n: i32, W: f64, floorSd: f64): void {
  let s = 0.0;
  for (let i = 0; i < n; ++i) s += ld(w, i) * ld(v, i);
  const mu = s / W;
  let q = 0.0;
  for (let i = 0; i < n; ++i) {
    const d = ld(v, i) - mu;
    q += ld(w, i) * d * d;
  }
  const sd = Math.sqrt(q / W);
  outA = mu;
  outB = sd > floorSd ? sd : floorSd;
}

function mstepGamma(x: usize, w: usize, n: i32, W: f64, amax: f64): void {
  let s = 0.0;
  for (let i = 0; i < n; ++i) s += ld(w, i) * ld(x, i);
  const xbar = s / W;
  let t = 0.0;
  for (let i = 0; i < n; ++i) {
    const wi = ld(w, i);
    if (wi == 0.0) continue;
    const u = ld(x, i) / xbar - 1.0;
    t += wi * (u - Math.log1p(u));
  }
  t /= W;
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

function lsObjective(fam: i32, y: usize, w: usize, n: i32, W: f64, mu: f64, sig: f64): f64 {
  const inv = 1.0 / sig;
  let q = 0.0;
  for (let i = 0; i < n; ++i) {
    const wi = ld(w, i);
    if (wi != 0.0) q += wi * honly(fam, (ld(y, i) - mu) * inv);
  }
  return q - W * Math.log(sig);
}

function mstepLs(fam: i32, y: usize, w: usize, n: i32, W: f64, sfloor: f64, maxit: i32, mu0: f64, sig0: f64): void {
  let mu = mu0, sig = sig0;
  if (sig < sfloor) sig = sfloor;
  const lfloor = Math.log(sfloor);
  for (let it = 0; it < maxit; ++it) {
    const inv = 1.0 / sig;
    let A0 = 0.0, A1 = 0.0, A2 = 0.0, B1 = 0.0, B2 = 0.0, C2 = 0.0;
    for (let i = 0; i < n; ++i) {
      const wi = ld(w, i);
      if (wi == 0.0) continue;
      const z = (ld(y, i) - mu) * inv;
      const h = hval(fam, z);
      const h1 = H1, h2 = H2;
      A0 += wi * h;
      A1 += wi * h1;
      A2 += wi * h2;
      B1 += wi * z * h1;
      B2 += wi * z * h2;
      C2 += wi * z * z * h2;
    }
    const ls = Math.log(sig);
    const Q = A0 - W * ls;
    const gm = -A1 * inv, gs = -W - B1;
    const Hmm = A2 * inv * inv, Hms = (A1 + B2) * inv, Hss = B1 + C2;
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
      const nsig = Math.exp(nls);
      const nQ = lsObjective(fam, y, w, n, W, nm, nsig);
      if (nQ >= Q) {
        moved = nm != mu || nsig != sig;
        mu = nm;
        sig = nsig;
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

// One component's weighted MLE into (outA, outB); (a, b) are the previous values when warm.
function mstepComponent(fam: i32, w: usize, W: f64, maxit: i32, warm: bool, a: f64, b: f64): void {
  const n = wN;
  if (fam == FAM_NORMAL) { mstepNormal(wX, w, n, W, wDx); return; }
  if (fam == FAM_LOGNORMAL) { mstepNormal(wY, w, n, W, wDy); return; }
  if (fam == FAM_GAMMA) { mstepGamma(wX, w, n, W, wAmax); return; }
  const f = sdFactor(fam);
  const sfloor = wDy / f;
  if (!warm) {
    mstepNormal(wY, w, n, W, wDy);
    const m = outA, sd = outB;
    b = sd / f;
    a = fam == FAM_WEIBULL ? m + EULER * b : fam == FAM_FRECHET ? m - EULER * b : m;
  }
  mstepLs(fam, wY, w, n, W, sfloor, maxit, a, b);
}

// E-step into wResp; returns the log-likelihood of the scaled runs (−Inf when a run has zero density).
function estep(fam: i32, k: i32, pw: usize, pa: usize, pb: usize, c: usize, inv: usize, g1: usize, lp: usize): f64 {
  const n = wN;
  for (let j = 0; j < k; ++j) {
    const l = Math.log(ld(pw, j));
    if (fam == FAM_GAMMA) {
      st(c, j, l - lgam(ld(pa, j)) - ld(pa, j) * Math.log(ld(pb, j)));
      st(inv, j, 1.0 / ld(pb, j));
      st(g1, j, ld(pa, j) - 1.0);
    } else {
      st(c, j, l - Math.log(ld(pb, j)) - (fam == FAM_NORMAL || fam == FAM_LOGNORMAL ? 0.5 * LOG_2PI : 0.0));
      st(inv, j, 1.0 / ld(pb, j));
    }
  }
  const R = wResp;
  let L = 0.0;
  for (let i = 0; i < n; ++i) {
    const xi = ld(wX, i), yi = ld(wY, i);
    let m = -Infinity;
    for (let j = 0; j < k; ++j) {
      let v: f64;
      if (fam == FAM_NORMAL) {
        const z = (xi - ld(pa, j)) * ld(inv, j);
        v = ld(c, j) - 0.5 * z * z;
      } else if (fam == FAM_LOGNORMAL) {
        const z = (yi - ld(pa, j)) * ld(inv, j);
        v = ld(c, j) - 0.5 * z * z;
      } else if (fam == FAM_GAMMA) {
        v = ld(c, j) + ld(g1, j) * yi - xi * ld(inv, j);
      } else {
        v = ld(c, j) + honly(fam, (yi - ld(pa, j)) * ld(inv, j));
      }
      st(lp, j, v);
      if (v > m) m = v;
    }
    if (!(m > -Infinity)) return -Infinity;
    let s = 0.0;
    for (let j = 0; j < k; ++j) {
      const e = Math.exp(ld(lp, j) - m);
      st(lp, j, e);
      s += e;
    }
    const is = 1.0 / s;
    for (let j = 0; j < k; ++j) st(R, j * n + i, ld(lp, j) * is);
    L += m + Math.log(s);
  }
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

function initParams(fam: i32, k: i32, group: usize, pw: usize, pa: usize, pb: usize): void {
  const n = wN;
  const w = wResp;
  for (let j = 0; j < k; ++j) {
    const wj = w + ((<usize>j * n) << 3);
    let cnt = 0.0;
    for (let i = 0; i < n; ++i) {
      const v = ldi(group, i) == j ? 1.0 : 0.0;
      st(wj, i, v);
      cnt += v;
    }
    if (cnt == 0.0) {
      for (let i = 0; i < n; ++i) st(wj, i, 1.0);
      mstepComponent(fam, wj, <f64>n, 100, false, 0.0, 0.0);
      st(pw, j, 0.5 / n);
    } else {
      mstepComponent(fam, wj, cnt, 100, false, 0.0, 0.0);
      st(pw, j, cnt / n);
    }
    st(pa, j, outA);
    st(pb, j, outB);
  }
  let t = 0.0;
  for (let j = 0; j < k; ++j) t += ld(pw, j);
  for (let j = 0; j < k; ++j) st(pw, j, ld(pw, j) / t);
}

// EM result of the last run
let emL: f64 = 0;
let emIters: i32 = 0;
let emConv: bool = false;

// scratch: pointers to k-sized arrays, set per call
let sNw: usize = 0;
let sNa: usize = 0;
let sNb: usize = 0;
let sC: usize = 0;
let sInv: usize = 0;
let sG1: usize = 0;
let sLp: usize = 0;

function runEm(fam: i32, k: i32, maxIter: i32, tol: f64, pw: usize, pa: usize, pb: usize): void {
  const n = wN;
  let L = estep(fam, k, pw, pa, pb, sC, sInv, sG1, sLp);
  if (!isFinite(L)) { emL = -Infinity; emIters = 0; emConv = false; return; }
  let it = 0;
  let conv = false;
  while (it < maxIter) {
    for (let j = 0; j < k; ++j) {
      const wj = wResp + ((<usize>j * n) << 3);
      let W = 0.0;
      for (let i = 0; i < n; ++i) W += ld(wj, i);
      st(sNa, j, ld(pa, j));
      st(sNb, j, ld(pb, j));
      st(sNw, j, W / n);
      if (W > 1e-10) {
        mstepComponent(fam, wj, W, 1, true, ld(pa, j), ld(pb, j));
        st(sNa, j, outA);
        st(sNb, j, outB);
      }
    }
    ++it;
    const nL = estep(fam, k, sNw, sNa, sNb, sC, sInv, sG1, sLp);
    if (!isFinite(nL)) break;
    for (let j = 0; j < k; ++j) {
      st(pw, j, ld(sNw, j));
      st(pa, j, ld(sNa, j));
      st(pb, j, ld(sNb, j));
    }
    const change = Math.abs(nL - L);
    const scale = Math.abs(nL) > 1.0 ? Math.abs(nL) : 1.0;
    L = nL;
    if (change < tol * scale) { conv = true; break; }
  }
  emL = L; emIters = it; emConv = conv;
}

@inline function locationKey(fam: i32, a: f64, b: f64): f64 { return fam == FAM_GAMMA ? a * b : a; }

export function mixtureFit(runs: usize, offsets: usize, nconf: i32, configIds: usize, models: usize, nmodels: i32,
  seed: f64, restarts: i32, maxIter: i32, tol: f64, pstride: i32, loglik: usize, bic: usize, iterations: usize,
  converged: usize, floorBound: usize, params: usize, resolution: usize): i32 {
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
    if (fam < 0 || fam > 5 || k < 1 || k > KMAX || 3 * k > pstride) return MIXTURE_BAD_MODEL;
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
  const small = heap.alloc(<usize>KMAX * 20 << 3);  // 20 k-sized f64 arrays
  const K8 = <usize>KMAX << 3;
  sNw = small; sNa = small + K8; sNb = small + 2 * K8; sC = small + 3 * K8; sInv = small + 4 * K8;
  sG1 = small + 5 * K8; sLp = small + 6 * K8;
  const bw = small + 7 * K8, ba = small + 8 * K8, bb = small + 9 * K8;
  const pw = small + 10 * K8, pa = small + 11 * K8, pb = small + 12 * K8;
  const centers = small + 13 * K8, csum = small + 14 * K8, ccnt = small + 15 * K8;
  const idx = small + 16 * K8;  // i32 use

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
    wN = n; wX = xs; wY = ys; wDx = dx; wDy = dy; wAmax = Math.exp(blo); wOrder = order; wGroup = group;
    let sumy = 0.0;
    for (let i = 0; i < n; ++i) sumy += ld(ys, i);
    const cid = ldi(configIds, c);

    for (let m = 0; m < nmodels; ++m) {
      const fam = ldi(models, 2 * m), k = ldi(models, 2 * m + 1);
      const ri = <usize>c * nmodels + m;
      let bestL = -Infinity, bestIt = 0, bestConv = false;
      const nrest = k == 1 ? 1 : restarts;
      const shortIter = maxIter < SHORT_ITER ? maxIter : SHORT_ITER;
      for (let rs = 0; rs < nrest; ++rs) {
        if (k == 1) {
          for (let i = 0; i < n; ++i) sti(group, i, 0);
        } else {
          startGroups(k, rs, streamKey(useed, cid, fam, k, rs), group, centers, csum, ccnt);
        }
        initParams(fam, k, group, pw, pa, pb);
        runEm(fam, k, shortIter, tol, pw, pa, pb);
        if (emL > bestL) {
          bestL = emL; bestIt = emIters; bestConv = emConv;
          for (let j = 0; j < k; ++j) { st(bw, j, ld(pw, j)); st(ba, j, ld(pa, j)); st(bb, j, ld(pb, j)); }
        }
      }
      if (bestL > -Infinity && !bestConv && bestIt < maxIter) {
        runEm(fam, k, maxIter - bestIt, tol, bw, ba, bb);
        if (emL > -Infinity) { bestL = emL; bestIt = bestIt + emIters; bestConv = emConv; }
      }
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
      const Lx = logDomain(fam) || fam == FAM_LOGNORMAL ? bestL - sumy : bestL;
      const L = Lx - n * Math.log(mean);
      st(loglik, <i32>ri, L);
      st(bic, <i32>ri, -2.0 * L + (3.0 * k - 1.0) * Math.log(<f64>n));
      sti(iterations, <i32>ri, bestIt);
      store<u8>(converged + ri, bestConv ? 1 : 0);
      let bound = false;
      const f = sdFactor(fam);
      for (let j = 0; j < k; ++j) {
        if (fam == FAM_NORMAL) bound = bound || ld(bb, j) <= dx * (1.0 + 1e-12);
        else if (fam == FAM_GAMMA) bound = bound || ld(ba, j) >= wAmax * (1.0 - 1e-12);
        else bound = bound || ld(bb, j) * f <= dy * (1.0 + 1e-12);
      }
      store<u8>(floorBound + ri, bound ? 1 : 0);
      for (let j = 0; j < k; ++j) sti(idx, j, j);
      for (let j = 1; j < k; ++j) {
        const t = ldi(idx, j);
        const key = locationKey(fam, ld(ba, t), ld(bb, t));
        let q = j - 1;
        while (q >= 0 && locationKey(fam, ld(ba, ldi(idx, q)), ld(bb, ldi(idx, q))) > key) {
          sti(idx, q + 1, ldi(idx, q));
          --q;
        }
        sti(idx, q + 1, t);
      }
      const lm = Math.log(mean);
      for (let j = 0; j < k; ++j) {
        const s = ldi(idx, j);
        st(P, j, ld(bw, s));
        if (fam == FAM_NORMAL) {
          st(P, k + j, ld(ba, s) * mean);
          st(P, 2 * k + j, ld(bb, s) * mean);
        } else if (fam == FAM_GAMMA) {
          st(P, k + j, ld(ba, s));
          st(P, 2 * k + j, ld(bb, s) * mean);
        } else {
          st(P, k + j, ld(ba, s) + lm);
          st(P, 2 * k + j, ld(bb, s));
        }
      }
    }
  }
  heap.free(xs); heap.free(ys); heap.free(order); heap.free(buf); heap.free(group); heap.free(wResp); heap.free(small);
  return OK;
}
