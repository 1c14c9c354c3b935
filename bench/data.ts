// Moved to ts/benchmarks/inputs.ts (the `varmap bench` suites use it): re-exported for the bench scripts.
export { lazy, uniform } from "../ts/benchmarks/inputs.js";
