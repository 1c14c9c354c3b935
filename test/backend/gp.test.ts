import { describe, expect, it } from "vitest";
import { GP_LOCAL_PREDICT, GP_NLL, GP_PREDICT, gpLocalPredict, gpNll, gpPredict, type GpKernelName, type GpLikelihood } from "../../ts/backend/kernels/gp.js";
import type { KernelBackend } from "../../ts/backend/kernel.js";
import { Status } from "../../ts/backend/status.js";
import { nativeBackend, nativeSkipReason, rng, selected, wasmBackend } from "../helpers/backends.js";

function problem(n: number, d: number, seed: number) {
  const r = rng(seed);
  const X = Float64Array.from({ length: n * d }, () => r());
  const y = Float64Array.from({ length: n }, (_, i) => Math.sin(4 * X[i * d]) + (d > 1 ? X[i * d + 1] ** 2 : 0) + 0.05 * (r() - 0.5));
  const p = d + 1;
  const H = new Float64Array(n * p);
  for (let i = 0; i < n; i++) {
    H[i * p] = 1;
    for (let j = 0; j < d; j++) H[i * p + j + 1] = X[i * d + j];
  }
  const theta = Float64Array.from({ length: d + 1 }, (_, k) => (k < d ? Math.log(0.2 + 0.1 * k) : Math.log(0.01)));
  return { X, y, H, n, d, p, theta };
}

function lik(b: KernelBackend, pr: ReturnType<typeof problem>, kernel: GpKernelName, theta = pr.theta, grad = true, v?: Float64Array): GpLikelihood {
  const r = gpNll(b, pr.X, pr.y, pr.H, pr.n, pr.d, pr.p, kernel, theta, grad, v);
  if ("status" in r) throw new Error(`status ${r.status}`);
  return r;
}

/** The profile likelihood computed densely in TypeScript (Gaussian elimination), for a small problem. */
function referenceNll(pr: ReturnType<typeof problem>, kernel: GpKernelName, theta = pr.theta, v?: Float64Array): number {
  const { X, y, H, n, d, p } = pr;
  const g = Math.exp(theta[d]);
  const tau = v ? Math.exp(theta[d + 1]) : 0;
  const R: number[][] = [];
  for (let i = 0; i < n; i++) {
    R.push([]);
    for (let j = 0; j < n; j++) {
      let r2 = 0;
      for (let k = 0; k < d; k++) r2 += ((X[i * d + k] - X[j * d + k]) / Math.exp(theta[k])) ** 2;
      const r = Math.sqrt(r2);
      const rho =
        kernel === "sqexp"
          ? Math.exp(-r2 / 2)
          : kernel === "matern32"
            ? (1 + Math.sqrt(3) * r) * Math.exp(-Math.sqrt(3) * r)
            : (1 + Math.sqrt(5) * r + (5 / 3) * r2) * Math.exp(-Math.sqrt(5) * r);
      R[i].push(rho + (i === j ? g + (v ? tau * v[i] : 0) : 0));
    }
  }
  // Solve R [a | B] = [y | H] and log det by LU without pivoting (R is SPD).
  const M = R.map((row, i) => [...row, y[i], ...Array.from({ length: p }, (_, c) => H[i * p + c])]);
  let logdet = 0;
  for (let k = 0; k < n; k++) {
    logdet += Math.log(M[k][k]);
    for (let i = k + 1; i < n; i++) {
      const f = M[i][k] / M[k][k];
      for (let j = k; j < M[i].length; j++) M[i][j] -= f * M[k][j];
    }
  }
  for (let k = n - 1; k >= 0; k--)
    for (let j = n; j < M[k].length; j++) {
      let s = M[k][j];
      for (let t = k + 1; t < n; t++) s -= M[k][t] * M[t][j];
      M[k][j] = s / M[k][k];
    }
  // β = (Hᵀ R⁻¹ H)⁻¹ Hᵀ R⁻¹ y
  const A = Array.from({ length: p }, (_, a) =>
    Array.from({ length: p + 1 }, (_, c) => {
      let s = 0;
      for (let i = 0; i < n; i++) s += H[i * p + a] * (c < p ? M[i][n + 1 + c] : M[i][n]);
      return s;
    }),
  );
  for (let k = 0; k < p; k++)
    for (let i = k + 1; i < p; i++) {
      const f = A[i][k] / A[k][k];
      for (let j = k; j <= p; j++) A[i][j] -= f * A[k][j];
    }
  const beta = new Array<number>(p).fill(0);
  for (let k = p - 1; k >= 0; k--) {
    let s = A[k][p];
    for (let t = k + 1; t < p; t++) s -= A[k][t] * beta[t];
    beta[k] = s / A[k][k];
  }
  let Q = 0;
  for (let i = 0; i < n; i++) {
    let ai = M[i][n];
    for (let c = 0; c < p; c++) ai -= M[i][n + 1 + c] * beta[c];
    let ri = y[i];
    for (let c = 0; c < p; c++) ri -= H[i * p + c] * beta[c];
    Q += ri * ai;
  }
  return (n / 2) * Math.log(Q / n) + logdet / 2 + (n / 2) * (1 + Math.log(2 * Math.PI));
}

describe(`gp kernels on ${selected.name}`, () => {
  for (const kernel of ["matern52", "matern32", "sqexp"] as const) {
    it(`${kernel}: the profile likelihood equals a dense reference to 1e-9 (relative)`, () => {
      const pr = problem(30, 2, 3);
      const r = lik(selected, pr, kernel);
      expect(Math.abs(r.nll - referenceNll(pr, kernel))).toBeLessThan(1e-9 * Math.abs(r.nll) + 1e-9);
    });

    it(`${kernel}: the gradient matches central differences to 1e-5 (relative)`, () => {
      const pr = problem(25, 3, 7);
      const r = lik(selected, pr, kernel);
      for (let t = 0; t <= pr.d; t++) {
        const h = 1e-5;
        const up = Float64Array.from(pr.theta),
          dn = Float64Array.from(pr.theta);
        up[t] += h;
        dn[t] -= h;
        const fd = (lik(selected, pr, kernel, up, false).nll - lik(selected, pr, kernel, dn, false).nll) / (2 * h);
        expect(Math.abs(r.grad[t] - fd), `θ_${t}`).toBeLessThan(1e-5 * Math.max(1, Math.abs(fd)));
      }
    });
  }

  /** Per-point noise variances (a 30× spread, as the real maps' measured variances) and θ with log τ last. */
  function withNoise(pr: ReturnType<typeof problem>) {
    const r = rng(pr.n + 99);
    const v = Float64Array.from({ length: pr.n }, () => 0.1 * Math.exp(3.4 * r()));
    const theta = Float64Array.from([...pr.theta, Math.log(0.05)]);
    return { v, theta };
  }

  for (const kernel of ["matern52", "matern32"] as const) {
    it(`${kernel}, per-point diagonal 1 + g + τ v_i: the likelihood equals the dense reference and the gradient (log τ too) central differences`, () => {
      const pr = problem(30, 2, 13);
      const { v, theta } = withNoise(pr);
      const r = lik(selected, pr, kernel, theta, true, v);
      expect(r.grad.length).toBe(pr.d + 2);
      expect(Math.abs(r.nll - referenceNll(pr, kernel, theta, v))).toBeLessThan(1e-9 * Math.abs(r.nll) + 1e-9);
      for (let t = 0; t <= pr.d + 1; t++) {
        const h = 1e-5;
        const up = Float64Array.from(theta),
          dn = Float64Array.from(theta);
        up[t] += h;
        dn[t] -= h;
        const fd = (lik(selected, pr, kernel, up, false, v).nll - lik(selected, pr, kernel, dn, false, v).nll) / (2 * h);
        expect(Math.abs(r.grad[t] - fd), `θ_${t}`).toBeLessThan(1e-5 * Math.max(1, Math.abs(fd)));
      }
      // The noise changes the fit: a different likelihood than without it.
      expect(Math.abs(r.nll - lik(selected, pr, kernel).nll)).toBeGreaterThan(1e-3);
    });
  }

  it("per-point variances all zero give the homoscedastic likelihood bit for bit", () => {
    const pr = problem(25, 3, 17);
    const theta = Float64Array.from([...pr.theta, Math.log(3)]);
    const a = lik(selected, pr, "matern32", theta, true, new Float64Array(pr.n));
    const b = lik(selected, pr, "matern32");
    expect(a.nll).toBe(b.nll);
    expect(Array.from(a.alpha)).toEqual(Array.from(b.alpha));
    expect(Array.from(a.grad.subarray(0, pr.d + 1))).toEqual(Array.from(b.grad));
  });

  it("predicts the training responses' smooth part: at a training point with a tiny nugget the mean interpolates and the variance is ~0", () => {
    const pr = problem(20, 2, 11);
    pr.theta[pr.d] = Math.log(1e-8);
    const r = lik(selected, pr, "matern52");
    const out = gpPredict(selected, pr.X, pr.n, pr.d, "matern52", pr.theta, r.L, r.alpha, pr.X.slice(0, 2 * pr.d), 2);
    for (let i = 0; i < 2; i++) {
      let m = out.mean[i];
      for (let c = 0; c < pr.p; c++) m += pr.H[i * pr.p + c] * r.beta[c];
      expect(m).toBeCloseTo(pr.y[i], 5);
      expect(out.variance[i]).toBeLessThan(1e-6);
    }
    // Far from the data the correlation vanishes: variance 1 (correlation scale) and residual mean 0.
    const far = gpPredict(selected, pr.X, pr.n, pr.d, "matern52", pr.theta, r.L, r.alpha, Float64Array.from([50, 50]), 1);
    expect(far.variance[0]).toBeCloseTo(1, 12);
    expect(far.mean[0]).toBeCloseTo(0, 12);
  });

  it("predicts a batch of queries to the same bits as one query at a time (blocks of 32, a partial last block)", () => {
    const pr = problem(150, 3, 23);
    const q = 70;
    const r0 = rng(29);
    const Xq = Float64Array.from({ length: q * pr.d }, () => r0());
    for (const kernel of ["sqexp", "matern32", "matern52"] as const) {
      const r = lik(selected, pr, kernel);
      const all = gpPredict(selected, pr.X, pr.n, pr.d, kernel, pr.theta, r.L, r.alpha, Xq, q);
      for (let i = 0; i < q; i++) {
        const one = gpPredict(selected, pr.X, pr.n, pr.d, kernel, pr.theta, r.L, r.alpha, Xq.slice(i * pr.d, (i + 1) * pr.d), 1);
        expect([all.mean[i], all.variance[i]]).toEqual([one.mean[0], one.variance[0]]);
      }
    }
  });

  it("reports a covariance that is not positive definite (duplicate points, no nugget) and a singular mean basis by status", () => {
    const pr = problem(10, 2, 5);
    pr.X.set(pr.X.subarray(0, 2), 2);
    pr.theta[pr.d] = Math.log(1e-300);
    expect(gpNll(selected, pr.X, pr.y, pr.H, pr.n, pr.d, pr.p, "sqexp", pr.theta, true)).toEqual({ status: 10 });
    const q = problem(10, 2, 5);
    for (let i = 0; i < q.n; i++) q.H[i * q.p + 1] = 1; // slope column equal to the intercept
    expect(gpNll(selected, q.X, q.y, q.H, q.n, q.d, q.p, "matern52", q.theta, false)).toEqual({ status: 11 });
  });

  it("returns status codes for NaN, bad sizes and short buffers, never crashes", () => {
    const pr = problem(5, 2, 1);
    const outs = () => [new Float64Array(25), new Float64Array(5), new Float64Array(3), new Float64Array(5)];
    const bad = Float64Array.from(pr.y);
    bad[2] = NaN;
    const none = [new Float64Array(0), 0];
    expect(selected.run(GP_NLL, [pr.X, bad, pr.H, 5, 2, 3, 1, pr.theta, 1, ...outs(), ...none])).toBe(Status.NONFINITE);
    expect(selected.run(GP_NLL, [pr.X, pr.y, pr.H, 5, 2, 3, 7, pr.theta, 1, ...outs(), ...none])).toBe(Status.BAD_ARGUMENT);
    expect(selected.run(GP_NLL, [pr.X, pr.y, pr.H, 5, 2, 3, 1, pr.theta, 1, new Float64Array(24), ...outs().slice(1), ...none])).toBe(Status.BAD_ARGUMENT);
    // Per-point variances: one per point (nv = n), finite, nonnegative; θ and out one entry longer.
    const theta4 = Float64Array.from([...pr.theta, 0]);
    const outs4 = () => [new Float64Array(25), new Float64Array(5), new Float64Array(3), new Float64Array(6)];
    const v = Float64Array.from([1, 2, 3, 4, 5]);
    expect(selected.run(GP_NLL, [pr.X, pr.y, pr.H, 5, 2, 3, 1, theta4, 1, ...outs4(), v, 5])).toBe(Status.OK);
    expect(selected.run(GP_NLL, [pr.X, pr.y, pr.H, 5, 2, 3, 1, theta4, 1, ...outs4(), v, 4])).toBe(Status.BAD_ARGUMENT);
    expect(selected.run(GP_NLL, [pr.X, pr.y, pr.H, 5, 2, 3, 1, pr.theta, 1, ...outs4(), v, 5])).toBe(Status.BAD_ARGUMENT);
    expect(selected.run(GP_NLL, [pr.X, pr.y, pr.H, 5, 2, 3, 1, theta4, 1, ...outs(), v, 5])).toBe(Status.BAD_ARGUMENT);
    expect(selected.run(GP_NLL, [pr.X, pr.y, pr.H, 5, 2, 3, 1, theta4, 1, ...outs4(), Float64Array.from([1, 2, -3, 4, 5]), 5])).toBe(Status.BAD_ARGUMENT);
    expect(selected.run(GP_NLL, [pr.X, pr.y, pr.H, 5, 2, 3, 1, theta4, 1, ...outs4(), Float64Array.from([1, 2, NaN, 4, 5]), 5])).toBe(Status.NONFINITE);
    expect(
      selected.run(GP_PREDICT, [
        pr.X,
        5,
        2,
        1,
        pr.theta,
        new Float64Array(25),
        new Float64Array(5),
        new Float64Array(4),
        2,
        new Float64Array(2),
        new Float64Array(1),
      ]),
    ).toBe(Status.BAD_ARGUMENT);
  });
});

/** Residuals y − Hβ at the likelihood's β. */
function residuals(pr: ReturnType<typeof problem>, beta: Float64Array): Float64Array {
  return Float64Array.from({ length: pr.n }, (_, i) => {
    let m = 0;
    for (let c = 0; c < pr.p; c++) m += pr.H[i * pr.p + c] * beta[c];
    return pr.y[i] - m;
  });
}

/** The m nearest training rows of each query by plain Euclidean distance (ties by index), q × m. */
function nearest(pr: ReturnType<typeof problem>, Xq: Float64Array, m: number): Int32Array {
  const q = Xq.length / pr.d;
  const out = new Int32Array(q * m);
  for (let r = 0; r < q; r++) {
    const dist = Array.from({ length: pr.n }, (_, i) => {
      let s = 0;
      for (let k = 0; k < pr.d; k++) s += (Xq[r * pr.d + k] - pr.X[i * pr.d + k]) ** 2;
      return [s, i] as const;
    }).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    for (let j = 0; j < m; j++) out[r * m + j] = dist[j][1];
  }
  return out;
}

describe(`gp local prediction kernel on ${selected.name}`, () => {
  for (const kernel of ["matern52", "matern32", "sqexp"] as const) {
    it(`${kernel}: with every training point as every query's neighbour it is the exact prediction (1e-9)`, () => {
      const pr = problem(40, 2, 21);
      const r = rng(5);
      const v = Float64Array.from({ length: pr.n }, () => Math.exp(2 * r()));
      const theta = Float64Array.from([...pr.theta, Math.log(0.05)]);
      const a = lik(selected, pr, kernel, theta, false, v);
      const q = 6;
      const Xq = Float64Array.from({ length: q * pr.d }, (_, i) => ((i * 0.41) % 1.1) - 0.05);
      const exact = gpPredict(selected, pr.X, pr.n, pr.d, kernel, theta, a.L, a.alpha, Xq, q);
      // Neighbour lists in scrambled order: the answer does not depend on it beyond rounding.
      const all = Int32Array.from({ length: q * pr.n }, (_, k) => (7 * (k % pr.n) + 3) % pr.n);
      const local = gpLocalPredict(selected, pr.X, pr.n, pr.d, kernel, theta, residuals(pr, a.beta), all, pr.n, Xq, q, v);
      if ("status" in local) throw new Error(`status ${local.status}`);
      for (let i = 0; i < q; i++) {
        expect(Math.abs(local.mean[i] - exact.mean[i])).toBeLessThan(1e-9 * Math.max(1, Math.abs(exact.mean[i])));
        expect(Math.abs(local.variance[i] - exact.variance[i])).toBeLessThan(1e-9);
      }
    });
  }

  it("from the 25 nearest of 300 points it stays close to the exact prediction inside the data (short length scales)", () => {
    const pr = problem(300, 2, 8);
    pr.theta[0] = pr.theta[1] = Math.log(0.1);
    const a = lik(selected, pr, "matern32", pr.theta, false);
    const q = 20;
    const Xq = Float64Array.from({ length: q * 2 }, (_, i) => 0.2 + ((i * 0.377) % 0.6));
    const exact = gpPredict(selected, pr.X, pr.n, pr.d, "matern32", pr.theta, a.L, a.alpha, Xq, q);
    const local = gpLocalPredict(selected, pr.X, pr.n, pr.d, "matern32", pr.theta, residuals(pr, a.beta), nearest(pr, Xq, 25), 25, Xq, q);
    if ("status" in local) throw new Error(`status ${local.status}`);
    for (let i = 0; i < q; i++) {
      expect(Math.abs(local.mean[i] - exact.mean[i])).toBeLessThan(0.02);
      // Fewer points condition less: the local variance is never below the exact one (beyond rounding).
      expect(local.variance[i]).toBeGreaterThanOrEqual(exact.variance[i] - 1e-12);
    }
  });

  it("reports a singular neighbourhood by status and bad neighbour lists, sizes and values as argument errors", () => {
    const pr = problem(10, 2, 5);
    pr.X.set(pr.X.subarray(0, 2), 2); // rows 0 and 1 coincide
    const theta = Float64Array.from(pr.theta);
    theta[pr.d] = Math.log(1e-300);
    const res = new Float64Array(pr.n).fill(0.1);
    const Xq = Float64Array.from([0.5, 0.5]);
    const nbr = Int32Array.from([0, 1, 2]);
    expect(gpLocalPredict(selected, pr.X, pr.n, pr.d, "sqexp", theta, res, nbr, 3, Xq, 1)).toEqual({ status: 10 });
    const run = (args: { nbr?: Int32Array; m?: number; res?: Float64Array; nv?: number; v?: Float64Array; theta?: Float64Array }) =>
      selected.run(GP_LOCAL_PREDICT, [
        pr.X,
        pr.n,
        pr.d,
        1,
        args.theta ?? pr.theta,
        args.v ?? new Float64Array(0),
        args.nv ?? 0,
        args.res ?? res,
        args.nbr ?? Int32Array.from([2, 3, 4]),
        args.m ?? 3,
        Xq,
        1,
        new Float64Array(1),
        new Float64Array(1),
      ]);
    expect(run({})).toBe(Status.OK);
    expect(run({ nbr: Int32Array.from([2, 3, 10]) })).toBe(Status.BAD_ARGUMENT);
    expect(run({ nbr: Int32Array.from([-1, 3, 4]) })).toBe(Status.BAD_ARGUMENT);
    expect(run({ m: 11, nbr: new Int32Array(11) })).toBe(Status.BAD_ARGUMENT);
    expect(run({ m: 0 })).toBe(Status.BAD_ARGUMENT);
    expect(run({ nbr: Int32Array.from([2, 3]) })).toBe(Status.BAD_ARGUMENT); // shorter than q·m
    expect(run({ res: Float64Array.from([0, 0, 0, NaN, 0, 0, 0, 0, 0, 0]) })).toBe(Status.NONFINITE);
    expect(run({ nv: 10, v: new Float64Array(10).fill(1) })).toBe(Status.BAD_ARGUMENT); // theta lacks log τ
    expect(run({ nv: 10, v: new Float64Array(10).fill(1), theta: Float64Array.from([...pr.theta, 0]) })).toBe(Status.OK);
  });
});

describe("gp parity native vs wasm", () => {
  it.skipIf(!nativeBackend)(`likelihood, gradient and predictions agree to 1e-10${nativeBackend ? "" : " — " + nativeSkipReason}`, () => {
    for (const [n, d] of [
      [12, 1],
      [60, 3],
      [150, 4],
    ]) {
      const pr = problem(n, d, 40 + n);
      for (const kernel of ["matern52", "matern32", "sqexp"] as const) {
        const a = lik(nativeBackend!, pr, kernel),
          b = lik(wasmBackend, pr, kernel);
        expect(Math.abs(a.nll - b.nll)).toBeLessThan(1e-10 * Math.max(1, Math.abs(a.nll)));
        for (let t = 0; t <= d; t++) expect(Math.abs(a.grad[t] - b.grad[t])).toBeLessThan(1e-8 * Math.max(1, Math.abs(a.grad[t])));
        const Xq = Float64Array.from({ length: 7 * d }, (_, i) => ((i * 0.37) % 1.2) - 0.1);
        const pa = gpPredict(nativeBackend!, pr.X, n, d, kernel, pr.theta, a.L, a.alpha, Xq, 7);
        const pb = gpPredict(wasmBackend, pr.X, n, d, kernel, pr.theta, b.L, b.alpha, Xq, 7);
        for (let i = 0; i < 7; i++) {
          expect(Math.abs(pa.mean[i] - pb.mean[i])).toBeLessThan(1e-10 * Math.max(1, Math.abs(pa.mean[i])));
          expect(Math.abs(pa.variance[i] - pb.variance[i])).toBeLessThan(1e-10);
        }
      }
    }
  });

  // The triangular loops take two columns (Cholesky) or two rows (L⁻¹, Wᵀ W) per pass, with a single one left over at
  // odd sizes; native and wasm pair them differently in vector lanes but must give the same bits at every size.
  it.skipIf(!nativeBackend)(`factor, likelihood and gradient are the same bits at odd and even sizes${nativeBackend ? "" : " — " + nativeSkipReason}`, () => {
    for (const n of [2, 3, 4, 5, 17, 64, 65]) {
      const pr = problem(n, 1, 500 + n);
      const r = rng(n);
      const v = Float64Array.from({ length: n }, () => Math.exp(r()));
      const theta = Float64Array.from([...pr.theta, Math.log(0.05)]);
      for (const kernel of ["matern52", "matern32"] as const) {
        const a = lik(nativeBackend!, pr, kernel, theta, true, v),
          b = lik(wasmBackend, pr, kernel, theta, true, v);
        expect(Array.from(a.L), `L at n = ${n}`).toEqual(Array.from(b.L));
        expect(a.nll, `nll at n = ${n}`).toBe(b.nll);
        expect(Array.from(a.grad), `gradient at n = ${n}`).toEqual(Array.from(b.grad));
      }
    }
  });

  it.skipIf(!nativeBackend)(`with a per-point diagonal: likelihood and gradient agree to 1e-10${nativeBackend ? "" : " — " + nativeSkipReason}`, () => {
    for (const [n, d] of [
      [12, 1],
      [80, 3],
    ]) {
      const pr = problem(n, d, 70 + n);
      const r = rng(n);
      const v = Float64Array.from({ length: n }, () => Math.exp(3 * r()));
      const theta = Float64Array.from([...pr.theta, Math.log(0.02)]);
      for (const kernel of ["matern52", "matern32", "sqexp"] as const) {
        const a = lik(nativeBackend!, pr, kernel, theta, true, v),
          b = lik(wasmBackend, pr, kernel, theta, true, v);
        expect(Math.abs(a.nll - b.nll)).toBeLessThan(1e-10 * Math.max(1, Math.abs(a.nll)));
        for (let t = 0; t <= d + 1; t++) expect(Math.abs(a.grad[t] - b.grad[t])).toBeLessThan(1e-8 * Math.max(1, Math.abs(a.grad[t])));
        for (let i = 0; i < n; i++) expect(Math.abs(a.alpha[i] - b.alpha[i])).toBeLessThan(1e-10 * Math.max(1, Math.abs(a.alpha[i])));
      }
    }
  });

  it.skipIf(!nativeBackend)(`local predictions agree bit for bit${nativeBackend ? "" : " — " + nativeSkipReason}`, () => {
    const pr = problem(200, 3, 91);
    const r = rng(4);
    const v = Float64Array.from({ length: pr.n }, () => Math.exp(3 * r()));
    const theta = Float64Array.from([...pr.theta, Math.log(0.02)]);
    const a = lik(wasmBackend, pr, "matern32", theta, false, v);
    const q = 15,
      m = 30;
    const Xq = Float64Array.from({ length: q * pr.d }, (_, i) => ((i * 0.29) % 1.1) - 0.05);
    const nbr = nearest(pr, Xq, m);
    for (const kernel of ["matern52", "matern32", "sqexp"] as const)
      for (const vv of [v, undefined]) {
        const th = vv ? theta : pr.theta;
        const x = gpLocalPredict(nativeBackend!, pr.X, pr.n, pr.d, kernel, th, residuals(pr, a.beta), nbr, m, Xq, q, vv);
        const y = gpLocalPredict(wasmBackend, pr.X, pr.n, pr.d, kernel, th, residuals(pr, a.beta), nbr, m, Xq, q, vv);
        expect(x).toEqual(y);
      }
  });
});
