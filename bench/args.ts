// What the benchmark scripts share: their `--name value` flags and where ../shared is (defined in ts/benchmarks/, which
// the `varmap bench` suites use too).
export { flag, sharedDir } from "../ts/benchmarks/shared-dir.js";
