// Moved to ts/bench/inputs.ts (the `varmap bench` suites use it): re-exported for the bench scripts.
export { lazy, uniform } from "../ts/bench/inputs.js";
