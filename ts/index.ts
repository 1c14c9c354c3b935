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
export { fitMixturesParallel } from "./jobs/mixture.js";
export { Mixture, type MixtureJSON } from "./mixture/model.js";
export { FAMILIES, FAMILY_NAMES, type Family, type FamilyName } from "./mixture/families.js";
export { summarizeFits, formatTables, type MixtureSummary } from "./mixture/tables.js";
export { RunsNeededTable } from "./whatif/runs.js";
export { paretoFronts } from "./whatif/pareto.js";
export { evaluate, parseObjective, parsePareto, rankBy, type Criterion, type EvaluateOptions, type Evaluation, type SpreadKind } from "./whatif/objective.js";
export { gridCandidates, fileCandidates, predictCandidates, type Candidates } from "./whatif/candidates.js";
export { loadModelFiles, buildModelSet, predictMap, type ModelSet, type MapModels } from "./whatif/models.js";
export { rankCandidates, holdoutRows, readTruth, validationRows, type Ranked, type ValidationRow } from "./whatif/run.js";
export { validateMap, spearman, type ValidationMetrics } from "./whatif/validate.js";
export { gevFitBatch, GEV_OUT, GevStatus, GEV_STATUS_NAMES, type GevBatchResult, type GevStatusName } from "./backend/kernels/gev.js";
export {
  fitGev, gevNllh, gevCdf, gevPdf, gevQuantile, returnLevel, quantileWithSe, expectedInformation, expectedCovariance,
  profileShapeInterval, profileReturnLevelInterval, ksStatistic, andersonDarling, gevDiagnostics, blockMaxima, chi2OneSf,
  type GevFit, type GevParams, type ReturnLevel, type DiagRow, type Interval,
} from "./evt/gev.js";
export { fitGevConfigs, gevColumnNames, DEFAULT_GEV_OPTIONS, type GevRunOptions, type GevConfigResult } from "./evt/configs.js";
export { Rbf, RBF_MAX_POINTS, type RbfOptions, type RbfState, type RbfKernel } from "./predict/rbf.js";
export { symeig, type SymeigResult } from "./backend/kernels/symeig.js";
export { logClampBounds, clampLogPredictions, LOG_CLAMP_MARGIN, LOG_CLAMP_MAX_FACTOR, type DetailedPrediction } from "./predict/estimator.js";
