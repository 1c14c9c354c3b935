// A row-major matrix of doubles: the one shape inputs take through the estimator API.
import { VarmapError } from "../errors.js";

export interface Matrix {
  readonly data: Float64Array;
  readonly rows: number;
  readonly cols: number;
}

export function matrix(data: Float64Array, rows: number, cols: number): Matrix {
  if (!Number.isInteger(rows) || !Number.isInteger(cols) || rows < 0 || cols < 1 || data.length !== rows * cols)
    throw new VarmapError("E_SHAPE", `a ${rows}×${cols} matrix needs ${rows * cols} values, got ${data.length}`, {
      remedy: "pass row-major data whose length is rows × cols",
    });
  return { data, rows, cols };
}

/** From an array of rows (all of the same length). */
export function fromRows(rows: readonly (readonly number[])[]): Matrix {
  const cols = rows.length ? rows[0].length : 0;
  const data = new Float64Array(rows.length * cols);
  rows.forEach((r, i) => {
    if (r.length !== cols)
      throw new VarmapError("E_SHAPE", `row ${i} has ${r.length} values, expected ${cols}`, { remedy: "give every row the same number of inputs" });
    data.set(r, i * cols);
  });
  return matrix(data, rows.length, Math.max(cols, 1));
}

export function row(m: Matrix, i: number): Float64Array {
  return m.data.subarray(i * m.cols, (i + 1) * m.cols);
}

/** The rows at the given indices, in that order. */
export function takeRows(m: Matrix, idx: ArrayLike<number>): Matrix {
  const c = m.cols;
  const src = m.data;
  const out = new Float64Array(idx.length * c);
  // A plain loop: a subarray per row (row()) costs more than the copy of a few columns.
  for (let i = 0, o = 0; i < idx.length; i++) {
    const r = idx[i];
    if (Number.isInteger(r) && r >= 0 && r < m.rows) {
      const base = r * c;
      for (let k = 0; k < c; k++) out[o++] = src[base + k];
    } else out.set(row(m, r), o), (o += c); // as before: whatever subarray() makes of it
  }
  return { data: out, rows: idx.length, cols: c };
}
