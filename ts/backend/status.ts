// Kernel status codes (mirror of native/include/varmap/status.h and wasm/lib/status.ts).
import { VarmapError, type ErrorCode } from "../errors.js";

export const Status = {
  OK: 0,
  BAD_ARGUMENT: 1,
  NONFINITE: 2,
  NO_MEMORY: 3,
  INTERNAL: 4,
} as const;

/** A kernel status as an error: [code, message, remedy]. */
export type StatusError = [ErrorCode, string, string];

const generic: Record<number, StatusError> = {
  1: ["E_KERNEL_ARGUMENT", "inconsistent sizes or offsets passed to the kernel", "this is a bug in varmap's TypeScript layer; please report it"],
  2: ["E_NONFINITE", "an input contains NaN or infinity", "remove or impute non-finite values before fitting"],
  3: ["E_NO_MEMORY", "the kernel ran out of memory", "process the data in smaller batches or use a machine with more memory"],
  4: ["E_KERNEL_INTERNAL", "the kernel failed unexpectedly", "this is a bug in varmap; please report it with the input that triggers it"],
};

/** Throws a VarmapError for a non-zero status; `specific` maps a kernel's own codes (>= 10) to [code, message, remedy]. */
export function checkStatus(kernel: string, status: number, specific: Record<number, StatusError> = {}): void {
  if (status === Status.OK) return;
  const entry = specific[status] ?? generic[status] ?? ["E_KERNEL_STATUS", `unknown status ${status}`, "please report this"];
  const [code, message, remedy] = entry;
  throw new VarmapError(code, `${kernel}: ${message}`, { remedy });
}
