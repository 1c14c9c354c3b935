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
  const out = new Float64Array(idx.length * m.cols);
  for (let i = 0; i < idx.length; i++) out.set(row(m, idx[i]), i * m.cols);
  return { data: out, rows: idx.length, cols: m.cols };
}
