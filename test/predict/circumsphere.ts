// Test geometry for Delaunay checks: the circumsphere of a simplex, computed independently of the kernel.

/**
 * Centre and squared radius of the sphere through the d+1 points X[simplex[i]] (X row-major, d columns):
 * 2 (x_i − x_0) · c = |x_i|² − |x_0|², solved by Gaussian elimination with partial pivoting.
 */
export function circumsphere(X: Float64Array, d: number, simplex: ArrayLike<number>): { c: number[]; R2: number } {
  const x0 = X.subarray(simplex[0] * d, simplex[0] * d + d);
  const a: number[][] = [];
  for (let i = 1; i <= d; i++) {
    const xi = X.subarray(simplex[i] * d, simplex[i] * d + d);
    const row: number[] = [];
    let rhs = 0;
    for (let k = 0; k < d; k++) {
      row.push(2 * (xi[k] - x0[k]));
      rhs += xi[k] * xi[k] - x0[k] * x0[k];
    }
    row.push(rhs);
    a.push(row);
  }
  for (let k = 0; k < d; k++) {
    let p = k;
    for (let r = k + 1; r < d; r++) if (Math.abs(a[r][k]) > Math.abs(a[p][k])) p = r;
    [a[k], a[p]] = [a[p], a[k]];
    for (let r = k + 1; r < d; r++) {
      const f = a[r][k] / a[k][k];
      for (let c = k; c <= d; c++) a[r][c] -= f * a[k][c];
    }
  }
  const c = new Array<number>(d).fill(0);
  for (let k = d - 1; k >= 0; k--) {
    let t = a[k][d];
    for (let j = k + 1; j < d; j++) t -= a[k][j] * c[j];
    c[k] = t / a[k][k];
  }
  let R2 = 0;
  for (let k = 0; k < d; k++) R2 += (x0[k] - c[k]) ** 2;
  return { c, R2 };
}
