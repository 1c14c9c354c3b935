// The library entry point.
export { VarmapError, isVarmapError } from "./errors.js";
export * from "./backend/index.js";
export { sqdist } from "./backend/kernels/distances.js";
export { knn, type Neighbors, type KnnOptions } from "./backend/kernels/neighbors.js";
export { delaunayLocate, QueryStatus, type Location, type LocateOptions } from "./backend/kernels/delaunay.js";
export { matrix, fromRows, type Matrix } from "./predict/matrix.js";
export { Predictor, type PredictorOptions, type ModelJSON } from "./predict/estimator.js";
export { createPredictor, predictorFromJSON, METHOD_NAMES } from "./predict/registry.js";
export { Delaunay, type DelaunayOptions, type DelaunayLocation } from "./predict/delaunay.js";
export { loadDataset, optionsFromCli, type LoadOptions, type Dataset } from "./data/load.js";
export { counterRng, type CounterRng } from "./data/random.js";
export type { ConfigTable, VariabilityMap, ConfigStats, StatName, ColumnRoles } from "./data/types.js";
export { lstsq, type LstsqBatch, type LstsqResult } from "./backend/kernels/lstsq.js";
export { lspFit, lspEval, lspNeighborTable, lspSubsets, type LspNeighborTable, type LspSubsetResult } from "./backend/kernels/lsp.js";
export { LinearRegression } from "./predict/lr.js";
export { LinearShepard, LinearShepardSubsets, type LinearShepardEvaluation, type RowSplit } from "./predict/lsp.js";
export { predictSplit, splitPredictor, mapInputScaling, type SplitPredictor } from "./cv/split.js";
export { cvGivenSplits, type CvMap, type SplitResult } from "./cv/given.js";
export { readSplitsFile, splitRows, type Split, type SplitsFile } from "./cv/splits.js";
export { are, meanArePerP } from "./cv/are.js";
export { Mars, type MarsOptions, type MarsTerm } from "./predict/mars.js";
export { marsFit, marsPredict, type MarsFitResult, type MarsKernelOptions } from "./backend/kernels/mars.js";
export { fitMixtures, parseFamilies, type MixtureFitOptions, type MixtureFitRow, type MixtureFitResult } from "./mixture/fit.js";
export { fitMixturesParallel } from "./mixture/parallel.js";
export { Mixture, type MixtureJSON } from "./mixture/model.js";
export { FAMILIES, FAMILY_NAMES, type Family, type FamilyName } from "./mixture/families.js";
export { summarizeFits, formatTables, type MixtureSummary } from "./mixture/tables.js";
export {
  deltaQuantileSE, quantileGradient, mixtureQuantile, mixtureScore, fisherExpected, fisherEmpirical, informationQuadForm, gammaQ,
  quantileRunsNeeded, orderStatisticSE1, kdeDensity, bootstrapQuantileSE, mixtureMean, scaleMixture, gammaShapeCdfDerivative, parameterCount,
  type BScale, type DeltaOptions, type DeltaResult, type QuantileSE, type FisherInformation,
} from "./mixture/samplesize.js";
export { sampleSizeRow, chooseFit, parseModelChoice, type SampleSizeOptions, type SampleSizeRow, type CandidateFit } from "./mixture/samplesize-config.js";
export { integrateVector, digamma, trigamma } from "./mixture/quadrature.js";
export {
  measureConvergence, analyticPoints, ciFactors, chiSquareQuantile, subsetSds, runsNeededForPrecision,
  type ConvergenceOptions, type ConvergenceResult, type CiKind, type SubsetMode,
} from "./convergence/convergence.js";
export { predictCurves, type CurveMode } from "./convergence/predict.js";
