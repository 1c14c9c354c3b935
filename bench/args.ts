// What the benchmark scripts share: their `--name value` flags and where ../shared is (defined in ts/bench/, which
// the `varmap bench` suites use too).
export { flag, sharedDir } from "../ts/bench/shared-dir.js";
