// The library entry point.
import { registerLogInputsJudge } from "./data/auto-transforms.js";
import { splineGcvJudge } from "./predict/log-inputs-judge.js";

// As in the CLI (cli/program.ts): --log-inputs auto's candidates are judged by a spline.
registerLogInputsJudge(splineGcvJudge);
export { VarmapError, isVarmapError } from "./errors.js";
export * from "./backend/index.js";
export { sqdist } from "./backend/kernels/distances.js";
export { knn, type Neighbors, type KnnOptions } from "./backend/kernels/neighbors.js";
export { delaunayLocate, QueryStatus, type Location, type LocateOptions } from "./backend/kernels/delaunay.js";
export { matrix, fromRows, type Matrix } from "./predict/matrix.js";
export { Predictor, type PredictorOptions, type ModelJSON } from "./predict/estimator.js";
export { createPredictor, predictorFromJSON, METHOD_NAMES } from "./predict/registry.js";
export { Delaunay, type DelaunayOptions, type DelaunayLocation } from "./predict/delaunay.js";
export { loadDataset, type LoadOptions, type Dataset } from "./data/load.js";
export { autoLogInputs, registerLogInputsJudge, type LogInputsJudge, type JudgedMap } from "./data/auto-transforms.js";
export { splineGcvJudge } from "./predict/log-inputs-judge.js";
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
export { parsePriorStrength } from "./mixture/fit.js";
export { Mixture, type MixtureJSON } from "./mixture/model.js";
export { mixtureStdErrors, observedInformation, type MixtureStdErrors } from "./mixture/stderr.js";
export { FAMILIES, FAMILY_NAMES, type Family, type FamilyName } from "./mixture/families.js";
export { summarizeFits, formatTables, type MixtureSummary } from "./mixture/tables.js";
export {
  CRITERIA,
  DEFAULT_GUARD,
  DEFAULT_SETUP as DEFAULT_MIXTURE_SETUP,
  PAPERS_SETUP as PAPERS_MIXTURE_SETUP,
  STRICT_GUARD,
  GUARD_OFF,
  guardVerdict,
  informationCriterion,
  responsibilityEntropy,
  runFolds,
  type Criterion as MixtureCriterion,
  type GuardOptions,
  type SplitScheme,
} from "./mixture/select.js";
export {
  cvScores,
  selectModels,
  validateMixtures,
  summarizeValidation,
  formatValidation,
  type Selection,
  type ValidationResult,
} from "./jobs/mixture-validate.js";
export { renderSvg, svgToPng, type TopLevelSpec } from "./report/render.js";
export { writeFigure, figureFormat } from "./report/output.js";
export { buildReport, writeReport, type ReportOptions, type ReportResult } from "./report/report.js";
export { PLOT_KINDS, plotKind } from "./report/plots/index.js";
export type { PlotKind } from "./report/plots/types.js";
export { heatmapSpec } from "./report/plots/heatmap.js";
export { pvmSpec } from "./report/plots/predicted-vs-measured.js";
export { areSpec, areRows } from "./report/plots/are.js";
export { histogramSpec, fdBins } from "./report/plots/histogram.js";
export { probabilitySpec } from "./report/plots/probability.js";
export { bestCountsSpec, bestCounts } from "./report/plots/best-counts.js";
export { RunsNeededTable } from "./whatif/runs.js";
export { paretoFronts } from "./whatif/pareto.js";
export { evaluate, parseObjective, parsePareto, rankBy, type Criterion, type EvaluateOptions, type Evaluation, type SpreadKind } from "./whatif/objective.js";
export { gridCandidates, fileCandidates, predictCandidates, type Candidates } from "./whatif/candidates.js";
export { loadModelFiles, buildModelSet, predictMap, type ModelSet, type MapModels } from "./whatif/models.js";
export { rankCandidates, holdoutRows, readTruth, validationRows, type Ranked, type ValidationRow } from "./whatif/run.js";
export { validateMap, spearman, type ValidationMetrics } from "./whatif/validate.js";
export { gevFitBatch, GEV_OUT, GevStatus, GEV_STATUS_NAMES, type GevBatchResult, type GevStatusName } from "./backend/kernels/gev.js";
export {
  fitGev,
  gevNllh,
  gevCdf,
  gevPdf,
  gevQuantile,
  returnLevel,
  quantileWithSe,
  expectedInformation,
  expectedCovariance,
  profileShapeInterval,
  profileReturnLevelInterval,
  ksStatistic,
  andersonDarling,
  gevDiagnostics,
  blockMaxima,
  chi2OneSf,
  type GevFit,
  type GevParams,
  type ReturnLevel,
  type DiagRow,
  type Interval,
} from "./evt/gev.js";
export { fitGevConfigs, gevColumnNames, DEFAULT_GEV_OPTIONS, type GevRunOptions, type GevConfigResult } from "./evt/configs.js";
export { parseShardOptions, arrayIndexFromEnv, ARRAY_INDEX_VARS } from "./pool/shard.js";
export { cpuBudget, defaultWorkers, type CpuBudget } from "./pool/cpus.js";
export { DirLock, readLock, LOCK_FILE, type LockInfo } from "./pool/lock.js";
export { planSubmission, submit as slurmSubmit, mergeSubmitted, type SubmitRequest, type SubmitResult } from "./slurm/submit.js";
export { jobStatus as slurmStatus, statusText as slurmStatusText, resubmitCommand, type JobStatus, type ShardStatus, type ShardState } from "./slurm/status.js";
export { arrayScriptText, mergeScriptText, shellQuote } from "./slurm/script.js";
export { readJob as readSlurmJob, type SlurmJob, type SbatchOptions } from "./slurm/layout.js";
export { analyzeInterference, compareValues } from "./interference/analyze.js";
export { readRuns, readSlices, type RunColumns, type SliceColumns } from "./interference/read.js";
export { degradation, dilation, bootstrapDegradationCI } from "./interference/bootstrap.js";
export { pairRelation, appClass, breakEvenPoints } from "./interference/classes.js";
export {
  knownDegradation,
  interferenceWeight,
  standaloneBandwidth,
  interferenceRows,
  writeInterferenceSynth,
  INTERFERENCE_DESIGN,
  SYNTH_ROLES as INTERFERENCE_SYNTH_ROLES,
  type InterferenceDesign,
} from "./interference/synth.js";
export {
  DEFAULT_OPTIONS as INTERFERENCE_DEFAULTS,
  type InterferenceOptions,
  type InterferenceResult,
  type PairRow,
  type RunRecord,
  type SliceRecord,
} from "./interference/types.js";
export { lspWeights, type LspWeights } from "./backend/kernels/lsp.js";
export { QuantileFunction, EdfMixture, NormalDistribution, FamilyMixture, type RunDistribution, type MixtureComponent } from "./distribution/distributions.js";
export { ksStatistic as distributionKsStatistic, ksThreshold, ksCoefficient, ksNoiseFloor, w1Relative, KS_LEVELS, type KsTest } from "./distribution/ks.js";
export { interpolationWeights, WEIGHT_NAMES, type WeightSet, type WeightsName } from "./distribution/weights.js";
export {
  averageQuantiles,
  configRuns,
  predictDistribution,
  predictMoments,
  DIST_NAMES,
  type ConfigRuns,
  type DistName,
  type MomentMethod,
} from "./distribution/methods.js";
export { combineMixtures } from "./distribution/mixtures.js";
export { validateSplit, scoreDistribution, type DistributionMap, type KsRecord } from "./distribution/validate.js";
export { fitDistributionModels, predictMapDistributions, readDistributionModels, type DistributionModelsFile } from "./distribution/model.js";
export { Pchip, PchipCdfMixture, pchipCdf } from "./distribution/pchip.js";
export { perLevelQuantiles, type PerLevelSpec } from "./distribution/per-level.js";
export { featureScales, scaleInputs, FEATURE_WEIGHT_NAMES, type FeatureWeightsName } from "./distribution/feature-weights.js";
export { foldAssignment, foldDivision } from "./distribution/folds.js";
export { readTruth as readDistributionTruth, mapTruth, trueLaw, truthTable, ksAgainstTruth, type MapTruth } from "./distribution/truth.js";
export { configurationLaw, writeSynthTruth, type LawComponent } from "./data/synth.js";
export { familyLaw } from "./data/families.js";
export {
  deltaQuantileSE,
  quantileGradient,
  mixtureQuantile,
  mixtureScore,
  fisherExpected,
  fisherEmpirical,
  informationQuadForm,
  gammaQ,
  quantileRunsNeeded,
  orderStatisticSE1,
  kdeDensity,
  bootstrapQuantileSE,
  mixtureMean,
  scaleMixture,
  gammaShapeCdfDerivative,
  parameterCount,
  type BScale,
  type DeltaOptions,
  type DeltaResult,
  type QuantileSE,
  type FisherInformation,
} from "./mixture/samplesize.js";
export { sampleSizeRow, chooseFit, parseModelChoice, type SampleSizeOptions, type SampleSizeRow, type CandidateFit } from "./mixture/samplesize-config.js";
export { integrateVector, digamma, trigamma } from "./mixture/quadrature.js";
export {
  measureConvergence,
  analyticPoints,
  ciFactors,
  chiSquareQuantile,
  subsetSds,
  runsNeededForPrecision,
  type ConvergenceOptions,
  type ConvergenceResult,
  type CiKind,
  type SubsetMode,
} from "./convergence/convergence.js";
export { predictCurves, type CurveMode } from "./convergence/predict.js";
export { ERROR_CATALOGUE, errorCode, type ErrorCodeEntry } from "./errors/catalogue.js";
export { PREDICTORS, type PredictorEntry } from "./predict/registry.js";
export { MeanBaseline } from "./predict/mean.js";
export { Rbf, RBF_MAX_POINTS, type RbfOptions, type RbfState, type RbfKernel } from "./predict/rbf.js";
export { symeig, type SymeigResult } from "./backend/kernels/symeig.js";
export { logClampBounds, clampLogPredictions, LOG_CLAMP_MARGIN, LOG_CLAMP_MAX_FACTOR, type DetailedPrediction } from "./predict/estimator.js";
// Issue 14: robustness helpers (linear clamp, kernel shape checks, message escaping).
export { clampPredictions, linearClampBounds, LINEAR_CLAMP_FACTOR } from "./predict/estimator.js";
export { checkKernelShape, MAX_KERNEL_BUFFER } from "./backend/sizes.js";
export { escapeBinary } from "./errors.js";

export type { TrustedPrediction, TrustOptions } from "./predict/estimator.js";
export {
  NON_NEGATIVE_STATS,
  HULL_TEST_METHODS,
  isNonNegativeStat,
  outsideBox,
  nearestDistance,
  clampNegative,
  trustWarnings,
  type Trust,
  type TrustCounts,
} from "./predict/trust.js";
export { mixtureFlags, countFlags, flagAdvice, SINGLE_RUN_COUNT, type MixtureFlags, type MixtureFlagCounts } from "./mixture/flags.js";
export { MOANA_TABLE2, isMoanaDesign, paperAre } from "./cv/paper.js";
export { countProgress } from "./pool/progress.js";

export { Gp, GP_MAX_POINTS, GP_HYPER_POINTS, GP_LOCAL_NEIGHBOURS, type GpOptions, type GpState, type GpMean, type GpPrediction } from "./predict/gp.js";
export type { GpNoise } from "./predict/gp.js";
export { jackknifeVariances, JACKKNIFE_MIN_RUNS } from "./data/stat-variance.js";
export { gpNll, gpPredict, GP_KERNEL_CODES, type GpKernelName, type GpLikelihood } from "./backend/kernels/gp.js";
export { bfgs, type BfgsResult, type BfgsOptions } from "./predict/bfgs.js";
export {
  calibrate,
  conformalHalfWidth,
  conformalInterval,
  coverage,
  CONFORMAL_FOLDS,
  CV_CONFORMAL_FOLDS,
  type ConformalCalibration,
} from "./predict/conformal.js";
// Issue 16 (hpred): the honest Table 2, the safe range of log-scaled inputs, the rbf local variant.
export { honestTable2, cellReason, type Table2Cell, type Table2Row, type Table2MethodFigures, type LeftOutMap } from "./cv/table2.js";
export { emptySplitReason, type ScoredSplit } from "./cv/scoring.js";
export { logInputClampBounds } from "./predict/estimator.js";
export type { RbfPatch } from "./predict/rbf.js";
export { patchLayout, patchWeights, RBF_PATCH_POINTS, RBF_PATCH_COVER, type PatchLayout } from "./predict/rbf-local.js";

// import (issue 42)
export { runImport, type ImportOptions, type ImportSummary } from "./verbs/import.js";
export { importRuns, readToolResult, readToolResults, rolesFromColumns, TOOLS, TOOL_NAMES, type FileGroup } from "./import/registry.js";
export type { ImportedRuns, ImportRoles, ToolParser, ToolRun } from "./import/types.js";
// screen (issue 45)
export { runScreen, screenColumns, validateScreenOptions, type ScreenOptions, type ScreenSummary } from "./verbs/screen.js";
export { screenTable, screenHeadline, SW_MIN_DISTINCT, type ScreenResult, type ScreenColumns, type ScreenMapShare } from "./screen/screen.js";
export { shapiroWilk, SW_MIN_N, SW_MAX_N, type ShapiroWilk } from "./screen/shapiro.js";
export { dipStatistic, dipPValue, dipTest } from "./screen/dip.js";
export { shape, lag1, runsTest, bhAdjust, type Shape, type RunsTest } from "./screen/moments.js";
// effects (issue 45)
export { runEffects, validateEffectsOptions, mapFactors, type EffectsOptions, type EffectsSummary, type EffectsMapSummary } from "./verbs/effects.js";
export { anova, factorOf, covariateOf, fUpperTail, type AnovaFactor, type AnovaRow, type AnovaTable } from "./effects/anova.js";
export { inputImportance, partialDependence, pdGrid, type InputImportance, type PdPoint } from "./effects/importance.js";
// gev compare / covariates / gof-boot (issue 45)
export {
  runGevCompare,
  runGevCovariates,
  parseCompare,
  parseCovariate,
  type GevCompareOptions,
  type GevCompareSummary,
  type GevCovariateOptions,
  type GevCovariateSummary,
} from "./verbs/gev-extras.js";
export { compareGev, commonShapeFit, type GevComparison, type RatioEstimate } from "./evt/compare.js";
export { fitGevCovariates, chi2Sf, type GevCovariateFit } from "./evt/covariates.js";
export { gofBootstrap } from "./evt/configs.js";
// group-out validation, grouped conformal intervals, hybrid (issue 41)
export {
  mapGroups,
  groupFolds,
  groupDivisions,
  extrapolatedInputs,
  kendallTau,
  novelByGroups,
  novelByPairs,
  NOVEL_PAIR_DENSITY,
  type MapGroups,
} from "./cv/groups.js";
export {
  calibrateGrouped,
  calibrateForGroups,
  groupedHalfWidths,
  noveltyKind,
  queryKinds,
  groupNoveltyInfo,
  conformalIntervalPerQuery,
  type GroupedCalibration,
  type GroupedConformal,
  type GroupNoveltyInfo,
} from "./predict/conformal.js";
export { Hybrid, HYBRID_SEEN, HYBRID_NOVEL, type HybridOptions } from "./predict/hybrid.js";
export { RAW_SCALE_METHODS, scaleGuards, type ScaleGuard } from "./cv/scale-guard.js";
// The verbs (issue 39): typed options in, a summary out — the same functions the CLI calls.
export type { RunOptions, JobSummary } from "./verbs/common.js";
export { runCv, type CvOptions, type CvSummary, type CvMapSummary } from "./verbs/cv.js";
export { runRefit, type RefitOptions, type RefitMixtureOptions, type RefitSummary } from "./verbs/refit.js";
export { runMixture, type MixtureOptions, type MixtureSummary as MixtureVerbSummary } from "./verbs/mixture.js";
export { runGev, type GevOptions, type GevSummary } from "./verbs/gev.js";
export { runSamplesize, type SamplesizeOptions, type SamplesizeSummary } from "./verbs/samplesize.js";
export {
  runConvergence,
  type ConvergenceOptions as ConvergenceVerbOptions,
  type ConvergencePredictOptions,
  type ConvergenceSummary,
} from "./verbs/convergence.js";
export { runInterference, type InterferenceOptions as InterferenceVerbOptions, type InterferenceSummary } from "./verbs/interference.js";
export { runSummarize, type SummarizeOptions, type SummarizeSummary } from "./verbs/summarize.js";
export { runSynth, type SynthOptions, type SynthSummary } from "./verbs/synth.js";
export { runFit, type FitOptions, type FitSummary } from "./verbs/fit.js";
// plan (issue 43)
export {
  runPlan,
  DEFAULT_PLAN_OPTIONS,
  type PlanInput,
  parseTemplate,
  compareCurves,
  type PlanOptions,
  type PlanSummary,
  type PlanBatchSummary,
  type PlanReplaySummary,
  type PlanExecSummary,
} from "./verbs/plan.js";
export { planStep, firstBatchMinimum, type PlanStep, type PlanStepOptions, type BatchRow } from "./plan/planner.js";
export { gridSpace, rowsSpace, tableSpace, makeSpace, configKey, type ConfigSpace } from "./plan/space.js";
export { estimate as planEstimate, topUp, type StoppingRule, type ConfigEstimate } from "./plan/stopping.js";
export {
  registerUncertaintySource,
  uncertaintySource,
  uncertaintySourceNames,
  type UncertaintySource,
  type MapTraining,
  type MapPrediction,
} from "./plan/uncertainty.js";
export { registerResultReader, resultReader, ResultUnreadable, type ResultReader, type CommandOutput } from "./plan/results.js";
export { replay, stoppingReplay, type ReplayOptions, type ReplayResult, type CurvePoint } from "./plan/replay.js";

// slurm (issue 44): wait until merged; submit is async and takes a factory of fresh programs (values checked by the plan)
export { waitForMerge as slurmWait, type WaitOptions as SlurmWaitOptions, type WaitSummary as SlurmWaitSummary } from "./slurm/wait.js";
export type { ProgramFactory as SlurmProgramFactory } from "./slurm/submit.js";
// slurm as a verb (issue 39): submit, status, wait and merge as the CLI runs them
export { runSlurmMerge, runSlurmStatus, runSlurmSubmit, runSlurmWait, type SlurmSubmitOptions, type SlurmSubmitSummary } from "./verbs/slurm.js";
// merge (issue 39)
export { runMerge, type MergeOptions, type MergeSummary } from "./verbs/merge.js";
// predict and the distribution target (issue 39)
export { runPredict, type PredictOptions, type PredictSummary } from "./verbs/predict.js";
export {
  runFitDistribution,
  runPredictDistribution,
  runCvDistribution,
  type DistributionMethodOptions,
  type FitDistributionOptions,
  type FitDistributionSummary,
  type PredictDistributionOptions,
  type PredictDistributionSummary,
  type CvDistributionOptions,
} from "./verbs/distribution.js";
// summary (issue 39)
export { runSummary, type SummaryOptions, type SummarySummary, type MapSummary as ModelMapSummary, type InSample } from "./verbs/summary.js";
// report and plot (issue 39)
export { runReport, runPlot, type ReportOptions as ReportVerbOptions, type ReportSummary, type PlotOptions, type PlotSummary } from "./verbs/report.js";
// doctor (issue 39)
export { runDoctor, type DoctorReport, type DoctorSummary, type TestResult as DoctorTestResult } from "./verbs/doctor.js";
// demo (issue 39)
export { runDemo, availableMethods, type DemoOptions, type DemoSummary } from "./verbs/demo.js";
// bench (issue 39)
export { runBench, BENCH_TARGETS, type BenchOptions, type BenchSummary, type BenchTarget } from "./verbs/bench.js";
// whatif (issue 39)
export { runWhatif, type WhatifOptions, type WhatifSummary, type WhatifJson } from "./verbs/whatif.js";

// quantiles (issue 39): percentiles with distribution-free intervals, a verb on the engine
export { runQuantiles, type QuantilesOptions, type QuantilesSummary } from "./verbs/quantiles.js";
