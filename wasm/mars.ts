// MARS as R's earth fits it (mirror of native/src/mars.cc: same steps, same arithmetic order).
import { OK, BAD_ARGUMENT, NONFINITE, allFinite } from "./lib/status";
export { alloc, free } from "./lib/memory";

const MARS_SINGULAR: i32 = 11;
const MIN_GRSQ: f64 = -10.0;
const QR_TOL: f64 = 1e-8;
const MIN_BX_SOS: f64 = 0.01;
const ALMOST_ZERO: f64 = 1e-10;
const MAX_DEGREE: i32 = 100;
const INF: f64 = Infinity;

// @ts-ignore: decorator
@inline function sq(v: f64): f64 {
  return v * v;
}
function maybeZero(v: f64): f64 {
  return v > -ALMOST_ZERO && v < ALMOST_ZERO ? 0.0 : v;
}
function meanOf(v: StaticArray<f64>, off: i32, n: i32): f64 {
  let s: f64 = 0;
  for (let i = 0; i < n; ++i) s += unchecked(v[off + i]);
  return s / <f64>n;
}

// A sum kept as hi + lo (Knuth's TwoSum), to round like R's extended-precision sums.
class DoubleDouble {
  hi: f64 = 0;
  lo: f64 = 0;
  add(v: f64): void {
    const s = this.hi + v;
    const bb = s - this.hi;
    this.lo += (this.hi - (s - bb)) + (v - bb);
    this.hi = s;
  }
  value(): f64 {
    return this.hi + this.lo;
  }
  dividedBy(d: f64): f64 {
    const q = this.hi / d;
    const split: f64 = 134217729.0;
    let t = split * q;
    const qh = t - (t - q);
    const ql = q - qh;
    t = split * d;
    const dh = t - (t - d);
    const dl = d - dh;
    const p = q * d;
    const pe = ((qh * dh - p) + qh * dl + ql * dh) + ql * dl;
    return q + (((this.hi - p) - pe) + this.lo) / d;
  }
}

class Options {
  degree: i32 = 1;
  nk: i32 = 21;
  minspan: i32 = 0;
  endspan: i32 = 0;
  fastK: i32 = 20;
  thresh: f64 = 0.001;
  penalty: f64 = 2;
  fastBeta: f64 = 1;
  newvarPenalty: f64 = 0;
  adjustEndspan: f64 = 2;
  autoLinpreds: bool = true;
  scaleY: bool = true;
}

// Fast MARS queue entries as parallel arrays: parent, rssDelta, nTermsForRssDelta, agedRank.
class Queue {
  parent: StaticArray<i32>;
  rss: StaticArray<f64>;
  nt: StaticArray<i32>;
  aged: StaticArray<f64>;
  constructor(m: i32) {
    this.parent = new StaticArray<i32>(m);
    this.rss = new StaticArray<f64>(m);
    this.nt = new StaticArray<i32>(m);
    this.aged = new StaticArray<f64>(m);
  }
  copyFrom(o: Queue, i: i32, j: i32): void {
    unchecked((this.parent[i] = o.parent[j]));
    unchecked((this.rss[i] = o.rss[j]));
    unchecked((this.nt[i] = o.nt[j]));
    unchecked((this.aged[i] = o.aged[j]));
  }
  // true if entry i sorts before entry j
  byRss(i: i32, j: i32): bool {
    const a = unchecked(this.rss[i]);
    const b = unchecked(this.rss[j]);
    if (a != b) return a > b;
    return unchecked(this.parent[i]) < unchecked(this.parent[j]);
  }
  byAged(i: i32, j: i32): bool {
    const a = unchecked(this.aged[i]);
    const b = unchecked(this.aged[j]);
    if (a != b) return a < b;
    return this.byRss(i, j);
  }
  // insertion sort of entries 0..n-1 using slot n as scratch (the arrays have one spare slot)
  sort(n: i32, aged: bool): void {
    for (let i = 1; i < n; ++i) {
      this.copyFrom(this, n, i);
      let j = i - 1;
      while (j >= 0 && (aged ? this.byAged(n, j) : this.byRss(n, j))) {
        this.copyFrom(this, j + 1, j);
        --j;
      }
      this.copyFrom(this, j + 1, n);
    }
  }
}

class Forward {
  x: StaticArray<f64>; // column-major n x d
  y: StaticArray<f64>;
  n: i32;
  d: i32;
  M: i32;
  o: Options;
  bx: StaticArray<f64>;
  dirs: StaticArray<i32>;
  cuts: StaticArray<f64>;
  fullSet: StaticArray<u8>;
  degree: StaticArray<i32>;
  nUses: StaticArray<i32>;
  bxOrth: StaticArray<f64>;
  bxOrthCT: StaticArray<f64>;
  bxOrthMean: StaticArray<f64>;
  betaCache: StaticArray<f64>;
  useCache: bool = true;
  cacheCount: StaticArray<i32>;
  xbx: StaticArray<f64>;
  covSx: StaticArray<f64>;
  covCol: StaticArray<f64>;
  ycbo: StaticArray<f64>;
  order: StaticArray<i32>;
  q: Queue;
  sorted: Queue;
  nQ: i32 = 0;
  nFastK: i32 = 0;
  yMean: f64 = 0;
  nTerms: i32 = 1;
  termCond: i32 = 0;
  forwardRsq: f64 = 0;
  // find_term outputs
  bestCase: i32 = -1;
  bestPred: i32 = -1;
  bestParent: i32 = -1;
  bestDelta: f64 = 0;
  isNewForm: bool = false;
  linBest: bool = false;

  constructor(x: StaticArray<f64>, y: StaticArray<f64>, n: i32, d: i32, o: Options) {
    this.x = x;
    this.y = y;
    this.n = n;
    this.d = d;
    this.M = o.nk;
    this.o = o;
    const M = o.nk;
    this.bx = new StaticArray<f64>(n * M);
    this.dirs = new StaticArray<i32>(M * d);
    this.cuts = new StaticArray<f64>(M * d);
    this.fullSet = new StaticArray<u8>(M);
    this.degree = new StaticArray<i32>(M);
    this.nUses = new StaticArray<i32>(d);
    this.bxOrth = new StaticArray<f64>(n * M);
    this.bxOrthCT = new StaticArray<f64>(M * n);
    this.bxOrthMean = new StaticArray<f64>(M);
    // no beta cache when nk^2 * d is large (identical results, see mars.cc)
    const useCache = <i64>M * M * d <= 1 << 24;
    this.betaCache = new StaticArray<f64>(useCache ? M * M * d : 1);
    this.xbx = new StaticArray<f64>(n);
    this.covSx = new StaticArray<f64>(M);
    this.covCol = new StaticArray<f64>(M);
    this.ycbo = new StaticArray<f64>(M);
    this.q = new Queue(M + 1);
    this.sorted = new Queue(M + 1);
    this.order = new StaticArray<i32>(n * d);
    this.useCache = useCache;
    this.cacheCount = new StaticArray<i32>(useCache ? M * d : 1);
    const tmp = new StaticArray<i32>(n);
    for (let j = 0; j < d; ++j) stableOrder(x, j * n, n, this.order, j * n, tmp);
  }

  run(): void {
    const n = this.n;
    for (let i = 0; i < n; ++i) unchecked((this.bx[i] = 1.0));
    this.initOrthCol(this.bx, 0, 0, -1, -1);
    unchecked((this.fullSet[0] = 1));
    this.yMean = meanOf(this.y, 0, n);
    let rssNull: f64 = 0;
    for (let i = 0; i < n; ++i) rssNull += sq(unchecked(this.y[i]) - this.yMean);
    if (rssNull < 1e-8 * <f64>n) rssNull = 1e-8 * <f64>n;
    let rss = rssNull;
    let rssDelta = rssNull;
    let rsq: f64 = 0;
    let rsqDelta: f64 = 0;
    let nUsedTerms = 1;
    let gcv: f64 = 0;
    const gcvNull = this.getGcv(nUsedTerms, rssNull);
    this.nFastK = this.o.fastK <= 0 ? 10001 : max(this.o.fastK, 3);
    for (let k = 0; k < this.M; ++k) {
      unchecked((this.q.parent[k] = k));
      unchecked((this.q.rss[k] = -1.0));
      unchecked((this.q.nt[k] = -99));
      unchecked((this.q.aged[k] = -1.0));
    }
    this.nQ = 0;
    this.addToQueue(0, 1, rssNull, true);
    let nTerms = 1;
    let bestCase = -1;
    if (this.M >= 3) {
      while (true) {
        const maxLegal = min(1.01 * rss, 10 * rssDelta);
        this.findTerm(nTerms, maxLegal);
        bestCase = this.bestCase;
        rssDelta = this.bestDelta;
        let linBest = this.linBest;
        if (!this.o.autoLinpreds) linBest = false;
        if (bestCase >= 0) this.addTermPair(nTerms, this.bestParent, bestCase, this.bestPred, linBest);
        const isPair = bestCase > 0 && this.isNewForm;
        nUsedTerms += isPair ? 2 : 1;
        rss = maybeZero(rss - rssDelta);
        gcv = this.getGcv(nUsedTerms, rss);
        const old = rsq;
        rsq = 1 - rss / rssNull;
        rsqDelta = maybeZero(rsq - old);
        if (bestCase < 0 || (this.o.thresh != 0 && rsqDelta < this.o.thresh) || (this.o.thresh != 0 && 1 - gcv / gcvNull < MIN_GRSQ)) {
          unchecked((this.fullSet[nTerms] = 0));
          if (nTerms + 1 < this.M) unchecked((this.fullSet[nTerms + 1] = 0));
          break;
        }
        if (!linBest && this.isNewForm) {
          this.addToQueue(nTerms, nTerms, INF, false);
          this.addToQueue(nTerms + 1, nTerms, INF, true);
        } else {
          this.addToQueue(nTerms, nTerms, INF, true);
        }
        nTerms += 2;
        if (rsq >= 1 - this.o.thresh) break;
        if (nTerms >= this.M - 1) break;
      }
    }
    this.nTerms = nTerms;
    this.forwardRsq = rsq;
    const grsq = 1 - gcv / gcvNull;
    let tc = 7;
    if (this.M < 3) tc = 1;
    else if (this.o.thresh != 0 && grsq < MIN_GRSQ) tc = grsq < -1000 ? 2 : 3;
    else if (this.o.thresh != 0 && rsqDelta < this.o.thresh) tc = 4;
    else if (rsq >= 1 - this.o.thresh) tc = 5;
    else if (bestCase < 0) tc = 6;
    this.termCond = tc;
  }

  getGcv(nTerms: i32, rss: f64): f64 {
    let cost: f64 = 0;
    if (this.o.penalty != -1) cost = (<f64>nTerms + this.o.penalty * ((<f64>nTerms - 1) / 2)) / <f64>this.n;
    return cost >= 1 ? INF : rss / (<f64>this.n * sq(1 - cost));
  }

  addToQueue(term: i32, nTerms: i32, rssDelta: f64, sort: bool): void {
    const q = this.q;
    const k = this.nQ;
    unchecked((q.nt[k] = nTerms));
    unchecked((q.rss[k] = max(q.rss[term], rssDelta)));
    this.nQ = k + 1;
    if (!sort) return;
    const s = this.sorted;
    for (let i = 0; i < this.nQ; ++i) s.copyFrom(q, i, i);
    s.sort(this.nQ, false);
    if (this.o.fastBeta > 0) {
      for (let r = 0; r < this.nQ; ++r) unchecked((s.aged[r] = <f64>r + this.o.fastBeta * <f64>(nTerms - s.nt[r])));
      s.sort(this.nQ, true);
    }
  }

  // v (at offset voff of array va) orthogonalized and normalized into bxOrth column t; returns "good column".
  initOrthCol(va: StaticArray<f64>, voff: i32, t: i32, cacheParent: i32, pred: i32): bool {
    const n = this.n;
    const o = this.bxOrth;
    const base = t * n;
    let good = true;
    if (t == 0) {
      const len = 1 / Math.sqrt(<f64>n);
      for (let i = 0; i < n; ++i) unchecked((o[base + i] = len));
      unchecked((this.bxOrthMean[0] = len));
    } else if (t == 1) {
      const m = meanOf(va, voff, n);
      for (let i = 0; i < n; ++i) unchecked((o[base + i] = va[voff + i] - m));
    } else {
      this.orthogResiduals(base, va, voff, t, cacheParent, pred);
    }
    if (t > 0) {
      let ss: f64 = 0;
      for (let i = 0; i < n; ++i) ss += unchecked(o[base + i]) * unchecked(o[base + i]);
      if (ss <= MIN_BX_SOS) good = false;
      if (ss > (cacheParent < 0 ? 0 : MIN_BX_SOS)) {
        unchecked((this.bxOrthMean[t] = meanOf(o, base, n)));
        const len = Math.sqrt(ss);
        for (let i = 0; i < n; ++i) unchecked((o[base + i] = o[base + i] / len));
      } else {
        unchecked((this.bxOrthMean[t] = 0));
        for (let i = 0; i < n; ++i) unchecked((o[base + i] = 0));
      }
    }
    const M = this.M;
    const mt = unchecked(this.bxOrthMean[t]);
    for (let i = 0; i < n; ++i) unchecked((this.bxOrthCT[t + i * M] = o[base + i] - mt));
    return good;
  }

  orthogResiduals(outBase: i32, va: StaticArray<f64>, voff: i32, t: i32, cacheParent: i32, pred: i32): void {
    const n = this.n;
    const M = this.M;
    const o = this.bxOrth;
    const useCache = cacheParent >= 0 && this.useCache;
    const cbase = useCache ? cacheParent * M + pred * M * M : 0;
    const cnt = useCache ? unchecked(this.cacheCount[cacheParent + pred * M]) : 0;
    for (let i = 0; i < n; ++i) unchecked((o[outBase + i] = va[voff + i]));
    for (let k = 0; k < t; ++k) {
      if (!unchecked(this.fullSet[k])) continue;
      const b = k * n;
      let beta: f64;
      if (useCache && k < cnt) {
        beta = unchecked(this.betaCache[cbase + k]);
      } else {
        let s: f64 = 0;
        for (let i = 0; i < n; ++i) s += unchecked(o[b + i]) * unchecked(o[outBase + i]);
        beta = s;
        if (useCache) unchecked((this.betaCache[cbase + k] = beta));
      }
      for (let i = 0; i < n; ++i) unchecked((o[outBase + i] = o[outBase + i] - beta * o[b + i]));
    }
    if (useCache && cnt < t) unchecked((this.cacheCount[cacheParent + pred * M] = t));
  }

  newForm(pred: i32, parent: i32, nTerms: i32): bool {
    const d = this.d;
    let isNew = true;
    for (let i = 1; i < nTerms; ++i) {
      if (!unchecked(this.fullSet[i])) continue;
      isNew = false;
      if (unchecked(this.dirs[i * d + pred]) == 0) return true;
      for (let j = 0; j < d; ++j)
        if (j != pred && (unchecked(this.dirs[i * d + j]) != 0) != (unchecked(this.dirs[parent * d + j]) != 0)) return true;
    }
    return isNew;
  }

  endSpan(termDegree: i32): i32 {
    let e = 1;
    if (this.o.endspan > 0) e = this.o.endspan;
    else e = <i32>(7.32193 + Math.log(<f64>this.d) / 0.69315);
    if (termDegree >= 2) e += <i32>(this.o.adjustEndspan * <f64>e + 0.5);
    const half = this.n / 2 - 1;
    if (e > half) e = half;
    return max(1, e);
  }

  // returns minSpan, endSpan, startSpan packed in spans[0..2]
  spanParams(spans: StaticArray<i32>, termDegree: i32, parent: i32): void {
    const n = this.n;
    const e = this.endSpan(termDegree);
    let start = 0;
    let ms = 0;
    if (this.o.minspan < 0) {
      ms = <i32>Math.ceil(<f64>n / (1.0 - <f64>this.o.minspan));
      start = ms;
      while (start < e) start += ms;
      start = max(1, start - 1);
    } else {
      if (this.o.minspan > 0) {
        ms = this.o.minspan;
      } else {
        let nUsed = 0;
        const pb = parent * n;
        for (let i = 0; i < n; ++i) if (unchecked(this.bx[pb + i]) > 0) ++nUsed;
        ms = <i32>((2.9702 + Math.log(<f64>(this.d * nUsed))) / 1.7329);
      }
      ms = max(1, ms);
      const avail = max(0, n - 2 * e);
      start = avail / 2;
      if (avail > ms) {
        const nDiv = avail / ms;
        start = avail == nDiv * ms ? ms / 2 : (avail - nDiv * ms) / 2;
      }
      start = max(1, e + start);
    }
    unchecked((spans[0] = ms));
    unchecked((spans[1] = e));
    unchecked((spans[2] = start));
  }

  findTerm(nTerms: i32, maxLegal: f64): void {
    const n = this.n;
    this.bestCase = -1;
    this.bestDelta = 0;
    this.linBest = false;
    this.isNewForm = false;
    for (let t = 0; t < this.M; ++t) unchecked((this.ycbo[t] = 0));
    for (let t = 0; t < nTerms; ++t) {
      const b = t * n;
      let s: f64 = 0;
      for (let i = 0; i < n; ++i) s += (unchecked(this.y[i]) - this.yMean) * unchecked(this.bxOrth[b + i]);
      unchecked((this.ycbo[t] = s));
    }
    const spans = new StaticArray<i32>(3);
    const nParents = min(this.nQ, this.nFastK);
    for (let iq = 0; iq < nParents; ++iq) {
      const parent = unchecked(this.sorted.parent[iq]);
      if (unchecked(this.degree[parent]) >= this.o.degree) continue;
      this.spanParams(spans, unchecked(this.degree[parent]) + 1, parent);
      const bestForParent = this.findPredGivenParent(parent, nTerms, maxLegal, spans[0], spans[1], spans[2]);
      unchecked((this.q.nt[parent] = nTerms));
      unchecked((this.q.rss[parent] = bestForParent));
    }
  }

  findPredGivenParent(parent: i32, nTerms: i32, maxLegal: f64, minSpan: i32, endSpan: i32, startSpan: i32): f64 {
    const d = this.d;
    let bestForParent: f64 = -1;
    let updated = false;
    for (let pred = 0; pred < d; ++pred) {
      if (unchecked(this.dirs[parent * d + pred]) != 0) continue;
      const adjust = 1 / (1 + (unchecked(this.nUses[pred]) == 0 ? this.o.newvarPenalty : 0));
      let deltaLin: f64 = 0;
      let unadjustedLin: f64 = 0;
      let isNew = this.newForm(pred, parent, nTerms);
      if (isNew) {
        // candidate parent * x[pred] at column nTerms
        const n = this.n;
        const xb = pred * n;
        const pb = parent * n;
        for (let i = 0; i < n; ++i) unchecked((this.xbx[i] = this.x[xb + i] * this.bx[pb + i]));
        isNew = this.initOrthCol(this.xbx, 0, nTerms, parent, pred);
        const ob = nTerms * n;
        let s: f64 = 0;
        let yo: f64 = 0;
        for (let i = 0; i < n; ++i) s += (unchecked(this.y[i]) - this.yMean) * unchecked(this.bxOrth[ob + i]);
        unchecked((this.ycbo[nTerms] = s));
        for (let i = 0; i < n; ++i) yo += unchecked(this.y[i]) * unchecked(this.bxOrth[ob + i]);
        unadjustedLin = yo * yo;
        deltaLin = adjust * unadjustedLin;
        if (deltaLin > bestForParent) bestForParent = deltaLin;
        if (deltaLin > this.bestDelta) {
          updated = true;
          this.bestDelta = deltaLin;
          this.linBest = true;
          this.bestCase = 0;
          this.bestPred = pred;
          this.bestParent = parent;
        }
      }
      const pairDelta = this.findKnot(deltaLin, isNew ? nTerms + 1 : nTerms, parent, pred, unadjustedLin, maxLegal, startSpan, minSpan, endSpan, adjust);
      if (pairDelta > bestForParent) bestForParent = pairDelta;
      if (pairDelta > this.bestDelta) {
        updated = true;
        this.bestDelta = pairDelta;
        this.linBest = false;
        this.bestCase = this.knotCase;
        this.bestPred = pred;
        this.bestParent = parent;
        this.isNewForm = isNew;
      }
    }
    if (updated && this.o.newvarPenalty != 0 && unchecked(this.nUses[this.bestPred]) == 0) this.bestDelta *= 1 + this.o.newvarPenalty;
    return bestForParent;
  }

  knotCase: i32 = -1;

  // Returns the best pair delta (starting from pairDelta); the knot's case position goes to this.knotCase.
  findKnot(pairDelta: f64, newCol: i32, parent: i32, pred: i32, deltaLinUnadj: f64, maxLegal: f64, startSpan: i32, minSpan: i32, endSpan: i32, adjust: f64): f64 {
    const n = this.n;
    const M = this.M;
    const tol: f64 = newCol < 15 ? 0.01 : 1e-5;
    const covCol = this.covCol;
    const covSx = this.covSx;
    const ycbo = this.ycbo;
    const ct = this.bxOrthCT;
    const ord = this.order;
    const xs = this.x;
    const bx = this.bx;
    const y = this.y;
    const yMean = this.yMean;
    this.knotCase = -1;
    unchecked((ycbo[newCol] = 0));
    for (let k = 0; k <= newCol; ++k) {
      unchecked((covCol[k] = 0));
      unchecked((covSx[k] = 0));
    }
    let ybxSum: f64 = 0;
    let bxSum: f64 = 0;
    let bxSqSum: f64 = 0;
    let bxSqxSum: f64 = 0;
    let bxxSum: f64 = 0;
    let st: f64 = 0;
    let span = startSpan;
    let dot1: f64 = 0;
    let dot2: f64 = 0;
    let covStale = true;
    const ob = pred * n;
    const pb = parent * n;
    const nn = <f64>n;
    for (let i = n - 2; i >= endSpan; --i) {
      const ix0 = unchecked(ord[ob + i]);
      const x0 = unchecked(xs[ob + ix0]);
      const ix1 = unchecked(ord[ob + i + 1]);
      const x1 = unchecked(xs[ob + ix1]);
      const b1 = unchecked(bx[pb + ix1]);
      const bSq = b1 * b1;
      const dx = x1 - x0;
      const cb = ix1 * M;
      // skip the exact no-op halves (b1 == 0 or dx == 0), as mars.cc does
      if (b1 != 0 && dx != 0) {
        for (let k = 0; k < newCol; ++k) {
          const sx = unchecked(covSx[k]) + b1 * unchecked(ct[cb + k]);
          unchecked((covSx[k] = sx));
          unchecked((covCol[k] = covCol[k] + dx * sx));
        }
      } else if (b1 != 0) {
        for (let k = 0; k < newCol; ++k) unchecked((covSx[k] = covSx[k] + b1 * ct[cb + k]));
      } else if (dx != 0) {
        for (let k = 0; k < newCol; ++k) unchecked((covCol[k] = covCol[k] + dx * covSx[k]));
      }
      if (dx != 0) covStale = true;
      bxSum += b1;
      bxSqSum += bSq;
      bxxSum += b1 * x1;
      bxSqxSum += bSq * x1;
      const su = st;
      st = bxxSum - bxSum * x0;
      unchecked((covCol[newCol] = covCol[newCol] + (dx * (2 * bxSqxSum - bxSqSum * (x0 + x1)) + (su * su - st * st) / nn)));
      ybxSum += (unchecked(y[ix1]) - yMean) * b1;
      unchecked((ycbo[newCol] = ycbo[newCol] + dx * ybxSum));
      if (b1 > 0 && unchecked(covCol[newCol]) > 0) {
        --span;
        if (span == 0) {
          span = minSpan;
          if (covStale) {
            // covCol[0..newCol) changes only when dx != 0: reuse the dots between tied knots (as mars.cc)
            dot1 = 0;
            dot2 = 0;
            for (let k = 0; k < newCol; ++k) dot1 += unchecked(ycbo[k]) * unchecked(covCol[k]);
            for (let k = 0; k < newCol; ++k) dot2 += unchecked(covCol[k]) * unchecked(covCol[k]);
            covStale = false;
          }
          const t1 = unchecked(ycbo[newCol]) - dot1;
          const t2 = unchecked(covCol[newCol]) - dot2;
          let delta: f64 = 0;
          if (t2 / unchecked(covCol[newCol]) > tol) delta = (t1 * t1) / t2;
          delta = adjust * (deltaLinUnadj + delta);
          if (delta > pairDelta && delta < maxLegal) {
            this.knotCase = i;
            pairDelta = delta;
          }
        }
      }
    }
    return pairDelta;
  }

  addTermPair(nTerms: i32, parent: i32, bestCase: i32, pred: i32, linBest: bool): void {
    const n = this.n;
    const d = this.d;
    const t1 = nTerms + 1;
    for (let j = 0; j < d; ++j) {
      const dv = unchecked(this.dirs[parent * d + j]);
      const cv = unchecked(this.cuts[parent * d + j]);
      unchecked((this.dirs[nTerms * d + j] = dv));
      unchecked((this.dirs[t1 * d + j] = dv));
      unchecked((this.cuts[nTerms * d + j] = cv));
      unchecked((this.cuts[t1 * d + j] = cv));
    }
    const deg = unchecked(this.degree[parent]) + 1;
    unchecked((this.degree[nTerms] = deg));
    unchecked((this.degree[t1] = deg));
    const dirEntry = linBest ? 2 : 1;
    unchecked((this.dirs[nTerms * d + pred] = dirEntry));
    unchecked((this.dirs[t1 * d + pred] = -1));
    const ob = pred * n;
    const cut = unchecked(this.x[ob + this.order[ob + bestCase]]);
    unchecked((this.cuts[nTerms * d + pred] = cut));
    unchecked((this.cuts[t1 * d + pred] = cut));
    const c0 = nTerms * n;
    const c1 = t1 * n;
    const pb = parent * n;
    if (dirEntry == 2) {
      for (let i = 0; i < n; ++i) unchecked((this.bx[c0 + i] = this.bx[pb + i] * this.x[ob + i]));
    } else {
      for (let i = 0; i < n; ++i) {
        const io = unchecked(this.order[ob + i]);
        if (i > bestCase) unchecked((this.bx[c0 + io] = this.bx[pb + io] * (this.x[ob + io] - cut)));
        else unchecked((this.bx[c1 + io] = this.bx[pb + io] * (cut - this.x[ob + io])));
      }
    }
    unchecked((this.nUses[pred] = this.nUses[pred] + 1));
    unchecked((this.fullSet[nTerms] = 1));
    this.initOrthCol(this.bx, c0, nTerms, -1, pred);
    if (!linBest && this.isNewForm) unchecked((this.fullSet[t1] = 1));
    if (unchecked(this.fullSet[t1])) this.initOrthCol(this.bx, c1, t1, -1, pred);
    if (!unchecked(this.fullSet[t1])) {
      unchecked((this.degree[t1] = MAX_DEGREE + 1));
      for (let i = 0; i < n; ++i) unchecked((this.bxOrth[c1 + i] = 0));
      unchecked((this.bxOrthMean[t1] = 0));
      for (let i = 0; i < n; ++i) unchecked((this.bxOrthCT[t1 + i * this.M] = 0));
    }
  }
}

// Stable ascending order of x[off .. off+n) into out[ooff ..] (merge sort; ties keep case order).
function stableOrder(x: StaticArray<f64>, off: i32, n: i32, out: StaticArray<i32>, ooff: i32, tmp: StaticArray<i32>): void {
  for (let i = 0; i < n; ++i) unchecked((out[ooff + i] = i));
  for (let width = 1; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = min(lo + width, n);
      const hi = min(lo + 2 * width, n);
      let a = lo;
      let b = mid;
      let k = lo;
      while (a < mid && b < hi) {
        const ia = unchecked(out[ooff + a]);
        const ib = unchecked(out[ooff + b]);
        if (unchecked(x[off + ib]) < unchecked(x[off + ia])) {
          unchecked((tmp[k++] = ib));
          ++b;
        } else {
          unchecked((tmp[k++] = ia));
          ++a;
        }
      }
      while (a < mid) unchecked((tmp[k++] = out[ooff + a++]));
      while (b < hi) unchecked((tmp[k++] = out[ooff + b++]));
      for (let i = lo; i < hi; ++i) unchecked((out[ooff + i] = tmp[i]));
    }
  }
}

// Householder QR with dqrdc2's limited pivoting (see mars.cc). W: n x k column-major copy of the columns.
class Qr {
  rank: i32 = 0;
  order: StaticArray<i32>;
  R: StaticArray<f64>; // rank x rank column-major
  qty: StaticArray<f64>;
  constructor(k: i32, n: i32) {
    this.order = new StaticArray<i32>(k);
    this.R = new StaticArray<f64>(1);
    this.qty = new StaticArray<f64>(n);
  }
}

function householderQr(A: StaticArray<f64>, n: i32, cols: StaticArray<i32>, k: i32, y: StaticArray<f64>, pivot: bool): Qr {
  const W = new StaticArray<f64>(n * k);
  const orig = new StaticArray<f64>(k);
  const r = new Qr(k, n);
  for (let c = 0; c < k; ++c) {
    unchecked((r.order[c] = cols[c]));
    const src = unchecked(cols[c]) * n;
    let s: f64 = 0;
    for (let i = 0; i < n; ++i) {
      const v = unchecked(A[src + i]);
      unchecked((W[c * n + i] = v));
      s += v * v;
    }
    unchecked((orig[c] = Math.sqrt(s) == 0 ? 1 : Math.sqrt(s)));
  }
  for (let i = 0; i < n; ++i) unchecked((r.qty[i] = y[i]));
  let lup = k;
  const steps = min(k, n);
  const tmp = new StaticArray<f64>(n);
  for (let l = 0; l < steps; ++l) {
    if (pivot) {
      while (true) {
        if (l >= lup) break;
        let s: f64 = 0;
        for (let i = l; i < n; ++i) s += unchecked(W[l * n + i]) * unchecked(W[l * n + i]);
        if (Math.sqrt(s) >= unchecked(orig[l]) * QR_TOL) break;
        for (let i = 0; i < n; ++i) unchecked((tmp[i] = W[l * n + i]));
        const o = unchecked(orig[l]);
        const id = unchecked(r.order[l]);
        for (let c = l; c < k - 1; ++c) {
          for (let i = 0; i < n; ++i) unchecked((W[c * n + i] = W[(c + 1) * n + i]));
          unchecked((orig[c] = orig[c + 1]));
          unchecked((r.order[c] = r.order[c + 1]));
        }
        for (let i = 0; i < n; ++i) unchecked((W[(k - 1) * n + i] = tmp[i]));
        unchecked((orig[k - 1] = o));
        unchecked((r.order[k - 1] = id));
        --lup;
      }
      if (l >= lup) break;
    }
    const wb = l * n;
    let s: f64 = 0;
    for (let i = l; i < n; ++i) s += unchecked(W[wb + i]) * unchecked(W[wb + i]);
    let nrm = Math.sqrt(s);
    if (nrm == 0) continue;
    if (unchecked(W[wb + l]) < 0) nrm = -nrm;
    for (let i = l; i < n; ++i) unchecked((W[wb + i] = W[wb + i] / nrm));
    unchecked((W[wb + l] = W[wb + l] + 1));
    const wl = unchecked(W[wb + l]);
    for (let c = l + 1; c < k; ++c) {
      const vb = c * n;
      let t: f64 = 0;
      for (let i = l; i < n; ++i) t -= unchecked(W[wb + i]) * unchecked(W[vb + i]);
      t /= wl;
      for (let i = l; i < n; ++i) unchecked((W[vb + i] = W[vb + i] + t * W[wb + i]));
    }
    let t: f64 = 0;
    for (let i = l; i < n; ++i) t -= unchecked(W[wb + i]) * unchecked(r.qty[i]);
    t /= wl;
    for (let i = l; i < n; ++i) unchecked((r.qty[i] = r.qty[i] + t * W[wb + i]));
    unchecked((W[wb + l] = -nrm));
  }
  r.rank = min(lup, steps);
  const rk = r.rank;
  r.R = new StaticArray<f64>(max(1, rk * rk));
  for (let c = 0; c < rk; ++c) for (let i = 0; i <= c; ++i) unchecked((r.R[c * rk + i] = W[c * n + i]));
  return r;
}

// leaps-style backward elimination keeping the best subset of each size among all prefixes (see mars.cc).
// subsets: m x m, row s-1 holds the s positions of the best subset of size s.
function backwardEliminate(R: StaticArray<f64>, z: StaticArray<f64>, m: i32, rssFull: f64, rssVec: StaticArray<f64>, subsets: StaticArray<i32>): void {
  const pos = new StaticArray<i32>(m);
  for (let i = 0; i < m; ++i) unchecked((pos[i] = i));
  let active = m;
  let rss = rssFull;
  const prefixRss = new StaticArray<f64>(m + 1);
  const Rinv = new StaticArray<f64>(m * m);
  // initial order: every prefix
  reportPrefixes(z, pos, active, rss, 1, m, true, prefixRss, rssVec, subsets, m);
  for (let k = m; k >= 2; --k) {
    for (let c = 0; c < k; ++c) {
      for (let i = c; i >= 0; --i) {
        let s: f64 = i == c ? 1.0 : 0.0;
        for (let j = i + 1; j <= c; ++j) s -= unchecked(R[j * m + i]) * unchecked(Rinv[c * k + j]);
        unchecked((Rinv[c * k + i] = s / R[i * m + i]));
      }
    }
    let drop = -1;
    let best = INF;
    for (let j = 1; j < k; ++j) {
      let beta: f64 = 0;
      let w: f64 = 0;
      for (let c = j; c < k; ++c) {
        beta += unchecked(Rinv[c * k + j]) * unchecked(z[c]);
        w += sq(unchecked(Rinv[c * k + j]));
      }
      const delta = (beta * beta) / w;
      if (delta < best) {
        best = delta;
        drop = j;
      }
    }
    for (let c = drop; c < k - 1; ++c) for (let i = 0; i < m; ++i) unchecked((R[c * m + i] = R[(c + 1) * m + i]));
    for (let i = drop; i < k - 1; ++i) {
      const a = unchecked(R[i * m + i]);
      const b = unchecked(R[i * m + i + 1]);
      const h = Math.sqrt(a * a + b * b);
      if (h == 0) continue;
      const c = a / h;
      const s = b / h;
      for (let col = i; col < k - 1; ++col) {
        const u = unchecked(R[col * m + i]);
        const v = unchecked(R[col * m + i + 1]);
        unchecked((R[col * m + i] = c * u + s * v));
        unchecked((R[col * m + i + 1] = -s * u + c * v));
      }
      const u = unchecked(z[i]);
      const v = unchecked(z[i + 1]);
      unchecked((z[i] = c * u + s * v));
      unchecked((z[i + 1] = -s * u + c * v));
    }
    rss += sq(unchecked(z[k - 1]));
    for (let i = drop; i < k - 1; ++i) unchecked((pos[i] = pos[i + 1]));
    active = k - 1;
    if (drop < k - 1) reportPrefixes(z, pos, active, rss, drop + 1, k - 1, false, prefixRss, rssVec, subsets, m);
  }
}

function reportPrefixes(z: StaticArray<f64>, pos: StaticArray<i32>, k: i32, rss: f64, fromSize: i32, toSize: i32, initial: bool, prefixRss: StaticArray<f64>, rssVec: StaticArray<f64>, subsets: StaticArray<i32>, m: i32): void {
  let tail: f64 = 0;
  unchecked((prefixRss[k] = rss));
  for (let s = k - 1; s >= 1; --s) {
    tail += unchecked(z[s]) * unchecked(z[s]);
    unchecked((prefixRss[s] = rss + tail));
  }
  for (let s = fromSize; s <= toSize; ++s) {
    if (initial || unchecked(prefixRss[s]) < unchecked(rssVec[s - 1])) {
      unchecked((rssVec[s - 1] = prefixRss[s]));
      for (let i = 0; i < m; ++i) unchecked((subsets[(s - 1) * m + i] = i < s ? pos[i] : -1));
    }
  }
}

function gcvOf(k: i32, rss: f64, penalty: f64, n: i32): f64 {
  const nparams: f64 = penalty < 0 ? 0 : <f64>k + penalty * (<f64>(k - 1) / 2.0);
  return nparams >= <f64>n ? INF : rss / (<f64>n * sq(1 - nparams / <f64>n));
}

export function mars_fit(X: usize, yp: usize, n: i32, d: i32, opts: usize, dirsOut: usize, cutsOut: usize, termFlags: usize, coefOut: usize, rssOut: usize, info: usize): i32 {
  if (n < 2 || d < 1) return BAD_ARGUMENT;
  if (!allFinite(X, <usize>n * d) || !allFinite(yp, <usize>n) || !allFinite(opts, 12)) return NONFINITE;
  const o = new Options();
  o.degree = <i32>load<f64>(opts);
  o.nk = <i32>load<f64>(opts + 8);
  o.thresh = load<f64>(opts + 16);
  o.penalty = load<f64>(opts + 24);
  o.minspan = <i32>load<f64>(opts + 32);
  o.endspan = <i32>load<f64>(opts + 40);
  o.fastK = <i32>load<f64>(opts + 48);
  o.fastBeta = load<f64>(opts + 56);
  o.newvarPenalty = load<f64>(opts + 64);
  o.autoLinpreds = load<f64>(opts + 72) != 0;
  o.adjustEndspan = load<f64>(opts + 80);
  o.scaleY = load<f64>(opts + 88) != 0;
  if (o.degree < 1 || o.nk < 1 || o.nk > 1000 || o.endspan < 0 || o.thresh < 0) return BAD_ARGUMENT;
  const M = o.nk;

  const x = new StaticArray<f64>(n * d);
  for (let i = 0; i < n; ++i) for (let j = 0; j < d; ++j) unchecked((x[i + j * n] = load<f64>(X + ((<usize>(i * d + j)) << 3))));
  const y = new StaticArray<f64>(n);
  for (let i = 0; i < n; ++i) unchecked((y[i] = load<f64>(yp + (<usize>i << 3))));
  const yMean = meanOf(y, 0, n);
  let tss: f64 = 0;
  for (let i = 0; i < n; ++i) tss += sq(unchecked(y[i]) - yMean);
  // |y| near 1e154 overflows the squared sums: refuse (the TypeScript layer rescales y by a power of 2 first).
  if (!isFinite(tss)) return NONFINITE;
  const ys = new StaticArray<f64>(n);
  for (let i = 0; i < n; ++i) unchecked((ys[i] = y[i]));
  if (o.scaleY) {
    const sum = new DoubleDouble();
    for (let i = 0; i < n; ++i) sum.add(unchecked(y[i]));
    const center = sum.dividedBy(<f64>n);
    const c = new StaticArray<f64>(n);
    const ss = new DoubleDouble();
    for (let i = 0; i < n; ++i) {
      const v = unchecked(y[i]) - center;
      unchecked((c[i] = v));
      ss.add(v * v);
    }
    const sd = Math.sqrt(ss.value() / <f64>(n - 1));
    if (sd > 0) for (let i = 0; i < n; ++i) unchecked((ys[i] = c[i] / sd));
  }

  const fp = new Forward(x, ys, n, d, o);
  fp.run();
  const nTerms = fp.nTerms;
  const lim = min(nTerms, M);

  // drop linearly dependent terms; when none is, the same factorization serves the pruning (as mars.cc)
  const used = new StaticArray<i32>(M);
  let m = 0;
  for (let t = 0; t < lim; ++t) if (unchecked(fp.fullSet[t])) unchecked((used[m++] = t));
  let q = householderQr(fp.bx, n, used, m, y, true);
  if (q.rank < m) {
    for (let c = q.rank; c < m; ++c) unchecked((fp.fullSet[q.order[c]] = 0));
    m = 0;
    for (let t = 0; t < lim; ++t) if (unchecked(fp.fullSet[t])) unchecked((used[m++] = t));
    q = householderQr(fp.bx, n, used, m, y, false);
  }

  if (q.rank < m) return MARS_SINGULAR;
  for (let i = 0; i < m; ++i) if (!(Math.abs(unchecked(q.R[i * m + i])) > 0)) return MARS_SINGULAR;
  let rssFull: f64 = 0;
  for (let i = m; i < n; ++i) rssFull += sq(unchecked(q.qty[i]));
  const z = new StaticArray<f64>(m);
  for (let i = 0; i < m; ++i) unchecked((z[i] = q.qty[i]));
  const rssVec = new StaticArray<f64>(m);
  const subsets = new StaticArray<i32>(m * m);
  backwardEliminate(q.R, z, m, rssFull, rssVec, subsets);

  let bestSize = 1;
  let bestGcv = INF;
  for (let k = 1; k <= m; ++k) {
    const g = gcvOf(k, unchecked(rssVec[k - 1]), o.penalty, n);
    if (g < bestGcv) {
      bestGcv = g;
      bestSize = k;
    }
  }
  if (bestGcv == INF) {
    bestGcv = gcvOf(1, rssVec[0], o.penalty, n);
    bestSize = 1;
  }
  const sel = new StaticArray<i32>(bestSize);
  for (let i = 0; i < bestSize; ++i) unchecked((sel[i] = used[subsets[(bestSize - 1) * m + i]]));
  // ascending (insertion sort; small)
  for (let i = 1; i < bestSize; ++i) {
    const v = unchecked(sel[i]);
    let j = i - 1;
    while (j >= 0 && unchecked(sel[j]) > v) {
      unchecked((sel[j + 1] = sel[j]));
      --j;
    }
    unchecked((sel[j + 1] = v));
  }
  const s = bestSize;
  const f = householderQr(fp.bx, n, sel, s, y, false);
  const b = new StaticArray<f64>(s);
  for (let i = s - 1; i >= 0; --i) {
    let v = unchecked(f.qty[i]);
    for (let j = i + 1; j < s; ++j) v -= unchecked(f.R[j * s + i]) * unchecked(b[j]);
    unchecked((b[i] = v / f.R[i * s + i]));
  }

  for (let t = 0; t < M; ++t) {
    store<i32>(termFlags + (<usize>t << 2), unchecked(fp.fullSet[t]) ? 1 : 0);
    store<f64>(coefOut + (<usize>t << 3), 0);
    store<f64>(rssOut + (<usize>t << 3), t < m ? unchecked(rssVec[t]) : 0);
    for (let j = 0; j < d; ++j) {
      store<i32>(dirsOut + (<usize>(t * d + j) << 2), unchecked(fp.dirs[t * d + j]));
      store<f64>(cutsOut + (<usize>(t * d + j) << 3), unchecked(fp.cuts[t * d + j]));
    }
  }
  for (let i = 0; i < s; ++i) {
    const t = unchecked(sel[i]);
    store<i32>(termFlags + (<usize>t << 2), load<i32>(termFlags + (<usize>t << 2)) | 2);
    store<f64>(coefOut + (<usize>t << 3), unchecked(b[i]));
  }
  const rss = unchecked(rssVec[bestSize - 1]);
  store<f64>(info, <f64>lim);
  store<f64>(info + 8, <f64>fp.termCond);
  store<f64>(info + 16, <f64>m);
  store<f64>(info + 24, <f64>s);
  store<f64>(info + 32, rss);
  store<f64>(info + 40, bestGcv);
  store<f64>(info + 48, 1 - rss / rssVec[0]);
  store<f64>(info + 56, 1 - bestGcv / gcvOf(1, rssVec[0], o.penalty, n));
  store<f64>(info + 64, tss);
  store<f64>(info + 72, fp.forwardRsq);
  return OK;
}

export function mars_predict(dirs: usize, cuts: usize, coef: usize, nTerms: i32, d: i32, Xq: usize, nq: i32, out: usize): i32 {
  if (nTerms < 0 || d < 1 || nq < 0) return BAD_ARGUMENT;
  if (!allFinite(Xq, <usize>nq * d) || !allFinite(coef, <usize>nTerms) || !allFinite(cuts, <usize>nTerms * d)) return NONFINITE;
  for (let q = 0; q < nq; ++q) {
    const xq = Xq + ((<usize>q * d) << 3);
    let s: f64 = 0;
    for (let t = 0; t < nTerms; ++t) {
      let b: f64 = 1;
      for (let j = 0; j < d; ++j) {
        const dir = load<i32>(dirs + (<usize>(t * d + j) << 2));
        if (dir == 0) continue;
        const c = load<f64>(cuts + (<usize>(t * d + j) << 3));
        const v = load<f64>(xq + (<usize>j << 3));
        if (dir == 1) b *= v > c ? v - c : 0.0;
        else if (dir == -1) b *= c > v ? c - v : 0.0;
        else if (dir == 2) b *= v;
        else return BAD_ARGUMENT;
      }
      s += load<f64>(coef + (<usize>t << 3)) * b;
    }
    store<f64>(out + (<usize>q << 3), s);
  }
  return OK;
}
