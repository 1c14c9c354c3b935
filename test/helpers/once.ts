// Tests that do not depend on the kernel backend run once, on the native run of the suite. CI runs the whole suite
// a second time with VARMAP_BACKEND=wasm; only kernel/backend-dependent tests need that second run. The backends'
// agreement is proved by the parity tests (test/backend/*, test/pool/backends.test.ts: cv outputs byte-identical
// on native and wasm workers for every method, gp and auto included), so an end-to-end test of a verb's plumbing
// (CLI flags, files, job directories, Slurm scripts, plots, the README) adds nothing when repeated on wasm.
// Set VARMAP_TEST_ALL_BACKENDS=1 to run them on wasm anyway.

/** True when this run of the suite is the wasm re-run (and the backend-independent tests skip). */
export const secondBackendRun = process.env.VARMAP_BACKEND === "wasm" && process.env.VARMAP_TEST_ALL_BACKENDS !== "1";

/** The reason printed in a skipped describe's name. */
export const onceReason =
  " — backend-independent: runs on the native run of the suite only (parity: test/pool/backends.test.ts; VARMAP_TEST_ALL_BACKENDS=1 runs it here)";
