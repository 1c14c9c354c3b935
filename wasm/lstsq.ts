// Batched weighted least squares (mirror of native/src/lstsq.cc).
import { OK, BAD_ARGUMENT, NONFINITE, NO_MEMORY, allFinite } from "./lib/status";
import { lstsqSolve, lstsqWorkSize } from "./lib/lstsq";
export { alloc, free } from "./lib/memory";

// Problem k has rows offsets[k] .. offsets[k+1) of A (rows x n), b and w (w used when weighted != 0).
export function lstsq(A: usize, b: usize, w: usize, weighted: i32, offsets: usize, nprob: i32, n: i32, rcond: f64, x: usize, rank: usize): i32 {
  if (nprob < 0 || n < 1 || !isFinite<f64>(rcond)) return BAD_ARGUMENT;
  if (load<i32>(offsets) < 0) return BAD_ARGUMENT;
  let maxRows = 0;
  for (let k = 0; k < nprob; ++k) {
    const rows = load<i32>(offsets + ((<usize>k + 1) << 2)) - load<i32>(offsets + (<usize>k << 2));
    if (rows < 0) return BAD_ARGUMENT;
    if (rows > maxRows) maxRows = rows;
  }
  const first = <usize>load<i32>(offsets);
  const total = <usize>load<i32>(offsets + (<usize>nprob << 2)) - first;
  const wp: usize = weighted ? w : 0;
  if (!allFinite(A + ((first * n) << 3), total * n) || !allFinite(b + (first << 3), total) || (wp && !allFinite(wp + (first << 3), total)))
    return NONFINITE;
  const work = heap.alloc(lstsqWorkSize(maxRows, n) << 3);
  if (!work) return NO_MEMORY;
  let st = OK;
  for (let k = 0; k < nprob; ++k) {
    const o = <usize>load<i32>(offsets + (<usize>k << 2));
    const rows = load<i32>(offsets + ((<usize>k + 1) << 2)) - <i32>o;
    st = lstsqSolve(A + ((o * n) << 3), b + (o << 3), wp ? wp + (o << 3) : 0, rows, n, rcond, x + ((<usize>k * n) << 3), rank + (<usize>k << 2), work);
    if (st != OK) break;
  }
  heap.free(work);
  return st;
}
