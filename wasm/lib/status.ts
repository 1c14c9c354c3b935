// Status codes shared by every kernel (mirror of native/include/varmap/status.h).
export const OK: i32 = 0;
export const BAD_ARGUMENT: i32 = 1;
export const NONFINITE: i32 = 2;
export const NO_MEMORY: i32 = 3;
export const INTERNAL: i32 = 4;

// True when none of the n doubles at ptr is NaN or infinite.
export function allFinite(ptr: usize, n: usize): bool {
  for (let i: usize = 0; i < n; ++i) {
    if (!isFinite<f64>(load<f64>(ptr + (i << 3)))) return false;
  }
  return true;
}
