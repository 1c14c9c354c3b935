// The library entry point.
export { VarmapError, isVarmapError } from "./errors.js";
export * from "./backend/index.js";
export { sqdist } from "./backend/kernels/distances.js";
export { knn, type Neighbors, type KnnOptions } from "./backend/kernels/neighbors.js";
export { matrix, fromRows, type Matrix } from "./predict/matrix.js";
export { Predictor, type PredictorOptions, type ModelJSON } from "./predict/estimator.js";
export { createPredictor, predictorFromJSON, METHOD_NAMES } from "./predict/registry.js";
export { loadDataset, optionsFromCli, type LoadOptions, type Dataset } from "./data/load.js";
export { counterRng, type CounterRng } from "./data/random.js";
export type { ConfigTable, VariabilityMap, ConfigStats, StatName, ColumnRoles } from "./data/types.js";
export { Mars, type MarsOptions, type MarsTerm } from "./predict/mars.js";
export { marsFit, marsPredict, type MarsFitResult, type MarsKernelOptions } from "./backend/kernels/mars.js";
