// Shape checks for the raw kernel wrappers (issue 14, item 15): a size that is not a whole number, a row count
// that does not divide the values, or an output too large to allocate is a coded E_KERNEL_ARGUMENT, never the
// RangeError a typed-array constructor would throw.
import { VarmapError } from "../errors.js";

/** Longest output buffer a wrapper allocates (elements): beyond it typed arrays fail or exhaust memory. */
export const MAX_KERNEL_BUFFER = 2 ** 31 - 1;

/**
 * `positive`: sizes that must be integers >= 1 (dimensions, k); `counts`: integers >= 0 (rows derived from a
 * buffer length, e.g. X.length / d); `buffers`: the lengths of the outputs the wrapper is about to allocate.
 */
export function checkKernelShape(kernel: string, positive: Record<string, number>, counts: Record<string, number> = {}, buffers: number[] = []): void {
  const bad = (what: string) =>
    new VarmapError("E_KERNEL_ARGUMENT", `${kernel}: ${what}`, { remedy: "pass whole-number sizes that match the buffers (this is a bug in the caller)" });
  for (const [name, v] of Object.entries(positive)) if (!(Number.isSafeInteger(v) && v >= 1)) throw bad(`${name} must be an integer >= 1, got ${v}`);
  for (const [name, v] of Object.entries(counts))
    if (!(Number.isSafeInteger(v) && v >= 0))
      throw bad(`${name} = ${v} is not a whole number >= 0 (a count, or a buffer length that is not a multiple of the row size)`);
  for (const len of buffers)
    if (!(Number.isSafeInteger(len) && len >= 0 && len <= MAX_KERNEL_BUFFER)) throw bad(`an output of ${len} values cannot be allocated`);
}
