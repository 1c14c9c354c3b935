// Moved to ts/bench/delaunay-data.ts (the `varmap bench` delaunay suite uses it): re-exported for the bench scripts.
export * from "../ts/bench/delaunay-data.js";
