// A direct, quadratic transcription of SHEPPACK's LSHEP (Shepard weighted least squares) and LSHEPVAL, used
// only to check the k-d tree kernels' choices (neighbour ties, radii, fallback slots) on tie-heavy grids.
import { EPSILON, lstsq } from "../../ts/backend/kernels/lstsq.js";
import { selected } from "../helpers/backends.js";

function sq(a: ArrayLike<number>, ia: number, b: ArrayLike<number>, ib: number, m: number): number {
  let s = 0;
  for (let j = 0; j < m; j++) {
    const t = a[ia + j] - b[ib + j];
    s += t * t;
  }
  return s;
}

export function referenceLsp(X: Float64Array, f: Float64Array, m: number, Q: Float64Array) {
  const n = f.length;
  const np = Math.min(n - 1, Math.floor((3 * m + 1) / 2));
  const A = new Float64Array(n * m),
    rw = new Float64Array(n);
  let diam = 0,
    rankDeficient = 0;
  for (let k = 0; k < n; k++) {
    const cand: [number, number][] = [];
    for (let i = 0; i < n; i++) if (i !== k) cand.push([sq(X, i * m, X, k * m, m), i]);
    for (const [d] of cand) diam = Math.max(diam, d);
    cand.sort((a, b) => a[0] - b[0] || a[1] - b[1]); // SORT: ascending, equal distances by lower index
    const near = cand.slice(0, np);
    const dist = near.map(([d]) => Math.sqrt(d));
    rw[k] = dist[np - 1];
    const rp = 1.1 * rw[k];
    const alpha = new Float64Array(np * m),
      beta = new Float64Array(np),
      omega = new Float64Array(np);
    near.forEach(([, i], r) => {
      for (let j = 0; j < m; j++) alpha[r * m + j] = X[i * m + j] - X[k * m + j];
      beta[r] = f[i] - f[k];
      omega[r] = (rp - dist[r]) / (rp * dist[r]);
    });
    const sol = lstsq(selected, { A: alpha, b: beta, w: omega, offsets: Int32Array.from([0, np]), n: m, rcond: np * EPSILON });
    A.set(sol.x, k * m);
    if (sol.rank[0] < m) rankDeficient++;
  }
  for (let k = 0; k < n; k++) rw[k] = Math.min(Math.sqrt(diam) / 2, rw[k]);

  const nq = Q.length / m;
  const values = new Float64Array(nq),
    ierr = new Int32Array(nq);
  for (let q = 0; q < nq; q++) {
    const sw: number[] = [],
      swc: number[] = [];
    const D = new Array(m + 1).fill(0),
      ID = new Array(m + 1).fill(0);
    let J = 0,
      temp = 0,
      done = false;
    for (let k = 0; k < n && !done; k++) {
      const dist = Math.sqrt(sq(Q, q * m, X, k * m, m));
      if (dist < rw[k]) {
        if (rw[k] - dist === rw[k]) {
          values[q] = f[k];
          done = true;
          break;
        }
        sw.push(((rw[k] - dist) / (rw[k] * dist)) ** 2);
        let s = 0;
        for (let j = 0; j < m; j++) s += A[k * m + j] * (Q[q * m + j] - X[k * m + j]);
        swc.push(s + f[k]);
      } else {
        const w = 1 / dist;
        if (w > temp) {
          D[J] = w;
          ID[J] = k;
          J = 0;
          for (let s = 1; s <= m; s++) if (D[s] < D[J]) J = s;
          temp = D[J];
        }
      }
    }
    if (done) continue;
    if (sw.length === 0) {
      const D2 = D.map((v) => v * v);
      const sum = D2.reduce((a, b) => a + b, 0);
      values[q] = D2.reduce((a, v, s) => a + (v / sum) * f[ID[s]], 0);
      ierr[q] = 1;
      continue;
    }
    const sum = sw.reduce((a, b) => a + b, 0);
    const w = sw.map((v) => v / sum);
    values[q] = w.reduce((a, v, i) => a + v * swc[i], 0);
    // (IER = 2 uses the covering nodes in index order, as the kernels do.)
    const cover: number[] = [];
    for (let k = 0; k < n; k++) if (Math.sqrt(sq(Q, q * m, X, k * m, m)) < rw[k]) cover.push(k);
    const slope = new Array(m + 1).fill(0);
    cover.forEach((k, i) => {
      for (let j = 0; j < m; j++) slope[j] += A[k * m + j] * w[i];
      slope[m] += -w[i];
    });
    const sn = Math.sqrt(slope.reduce((a, v) => a + v * v, 0));
    for (const k of cover) {
      let nn = 0;
      for (let j = 0; j < m; j++) nn += A[k * m + j] ** 2;
      nn = Math.sqrt(nn + 1);
      let dot = 0;
      for (let j = 0; j < m; j++) dot += (slope[j] / sn) * (A[k * m + j] / nn);
      dot += (slope[m] / sn) * (-1 / nn);
      if (dot < 0.9) {
        ierr[q] = 2;
        break;
      }
    }
  }
  return { A, rw, values, ierr, rankDeficient };
}
