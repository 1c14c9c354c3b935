// Squared distances from one query to a panel of data rows (mirror of native/include/varmap/panel.h).
// A block of `width` data rows is packed dimension-major (panel[k*width + j] = X[j][k]) so a tile of 8 rows is
// 4 v128 lanes of f64x2; every distance is still s = 0; s += (q_k - x_k)^2 for k = 0..d-1 in order, so the
// results are bit-identical to the native kernels.
export const TILE: i32 = 8;

// A panel width (a multiple of TILE) that keeps the panel near 16 KB for any d.
export function panelWidth(d: i32): i32 {
  let w = (2048 / d) / TILE * TILE;
  return w < TILE ? TILE : (w > 512 ? 512 : w);
}

// Copies rows [j0, j0+rows) of X (row-major, d columns) into panel (d x width), zero-padding unused columns.
export function pack(X: usize, j0: i32, rows: i32, d: i32, width: i32, panel: usize): void {
  for (let k = 0; k < d; ++k) {
    const p = panel + ((<usize>k * width) << 3);
    for (let j = 0; j < rows; ++j) store<f64>(p + (<usize>j << 3), load<f64>(X + ((<usize>(j0 + j) * d + k) << 3)));
    for (let j = rows; j < width; ++j) store<f64>(p + (<usize>j << 3), 0.0);
  }
}

// out[j] = |q - row j|^2 for j < tiles*TILE (out must hold that many doubles).
export function panelDistances(panel: usize, width: i32, tiles: i32, d: i32, q: usize, out: usize): void {
  const stride = <usize>width << 3;
  for (let t = 0; t < tiles; ++t) {
    const p = panel + ((<usize>t * TILE) << 3);
    let a0 = f64x2.splat(0.0), a1 = f64x2.splat(0.0), a2 = f64x2.splat(0.0), a3 = f64x2.splat(0.0);
    let pk = p;
    for (let k = 0; k < d; ++k) {
      const qk = f64x2.splat(load<f64>(q + (<usize>k << 3)));
      const e0 = f64x2.sub(qk, v128.load(pk, 0));
      const e1 = f64x2.sub(qk, v128.load(pk, 16));
      const e2 = f64x2.sub(qk, v128.load(pk, 32));
      const e3 = f64x2.sub(qk, v128.load(pk, 48));
      a0 = f64x2.add(a0, f64x2.mul(e0, e0));
      a1 = f64x2.add(a1, f64x2.mul(e1, e1));
      a2 = f64x2.add(a2, f64x2.mul(e2, e2));
      a3 = f64x2.add(a3, f64x2.mul(e3, e3));
      pk += stride;
    }
    const o = out + ((<usize>t * TILE) << 3);
    v128.store(o, a0, 0);
    v128.store(o, a1, 16);
    v128.store(o, a2, 32);
    v128.store(o, a3, 48);
  }
}
