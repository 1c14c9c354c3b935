// Moved to ts/benchmarks/delaunay-data.ts (the `varmap bench` delaunay suite uses it): re-exported for the bench scripts.
export * from "../ts/benchmarks/delaunay-data.js";
