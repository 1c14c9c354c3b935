// Seed 003 (I/O interference between write patterns): the shapes shared by the interference modules.
// Spec: ../shared/specs/seed-capabilities.md section C.

export type Metric = "throughput" | "time";
export type Aggregate = "best" | "median" | "mean";

/** One row of the runs table: one application instance in one execution (C.2.1). */
export interface RunRecord {
  /** 1-based file row (header = row 1), for messages. */
  row: number;
  experiment: string;
  app: string;
  /** The --instance value, or null when the column is not given. */
  instance: string | null;
  /** Values of the --factors columns, as written in the file. */
  factors: string[];
  run: number | null;
  /** The --response value (bandwidth or time); null only where time slices supply the rate. */
  value: number | null;
  /** Server bytes / application bytes of the execution (--noise), or null. */
  noise: number | null;
}

/** One row of the time-slice table (C.2.5): an instance's bytes (or ops) in one LWM² time slice. */
export interface SliceRecord {
  row: number;
  experiment: string;
  app: string;
  instance: string | null;
  slice: number;
  bytes: number;
  /** Server-side traffic of the execution in this slice (the same on every instance's row, or on one). */
  serverBytes: number | null;
}

export interface InterferenceOptions {
  metric: Metric;
  aggregate: Aggregate;
  factorNames: string[];
  /** Executions whose noise ratio exceeds 1 + noiseMax are dropped (the paper's 10% filter). */
  noiseMax: number;
  /** Bootstrap resamples for median/mean aggregation (spec: 2000). */
  bootstrap: number;
  /** Confidence level of the percentile interval. */
  level: number;
  seed: number | string;
  /** Relation thresholds (C.2.4): dominance gap δ (points) and negligible level ν (%). */
  dominanceGap: number;
  negligible: number;
  /** App class threshold on sensitivity and aggressiveness (C.2.4: 50). */
  classThreshold: number;
  /** A numeric factor to find break-even points along (C.2.4). */
  sweep?: string;
  /** Length of one time slice in seconds (LWM²'s default in the paper: 4 s). */
  sliceSeconds: number;
  /** Fit mixtures to the runs of pairs and standalones with at least this many repetitions (0 = never). */
  mixtureMinRuns: number;
  mixtureKmax: number;
  /** Where notes go (dropped executions); default nowhere. */
  note?: (msg: string) => void;
  /** Name of the runs file, for messages. */
  file?: string;
  slicesFile?: string;
}

export const DEFAULT_OPTIONS: Omit<InterferenceOptions, "metric" | "factorNames"> = {
  aggregate: "best",
  noiseMax: 0.1,
  bootstrap: 2000,
  level: 0.95,
  seed: 1,
  dominanceGap: 20,
  negligible: 10,
  classThreshold: 50,
  sliceSeconds: 4,
  mixtureMinRuns: 10,
  mixtureKmax: 2,
};

/** One (probe, signal, instance) row of pairs.csv: the probe's degradation against its standalone runs. */
export interface PairRow {
  /** Stable id (keys the bootstrap stream and the mixture fits). */
  id: string;
  /** The probe's factor values, then the signal's values of the factors that differ between instances. */
  factors: string[];
  signalFactors: string[];
  probe: string;
  signal: string;
  instance: string;
  /** Aggregated standalone and interfered response (bandwidth, time, or slice rate). */
  bAlone: number;
  bInt: number;
  degradation: number;
  dilation: number;
  ciLo: number | null;
  ciHi: number | null;
  nAlone: number;
  nInt: number;
  sdRatio: number | null;
  /** Best mixture of the interfered runs ("lognormal×2") and of the standalone runs; null when not fitted. */
  mixtureInt: string | null;
  mixtureAlone: string | null;
  multimodal: boolean | null;
  relation: string;
  dent: number | null;
  /** Share of overlapping slices in which one instance nearly stops while the other runs near its standalone rate. */
  serializedShare: number | null;
  /** Index of the row for the other instance of the same executions. */
  partner: number;
}

export interface MatrixRow {
  factors: string[];
  signalFactors: string[];
  probe: string;
  /** D[probe][signal] per app in `apps` order (null where not measured). */
  cells: (number | null)[];
}

export interface AppRow {
  factors: string[];
  signalFactors: string[];
  app: string;
  sensitivity: number | null;
  aggressiveness: number | null;
  class: string;
}

export interface BreakEvenRow {
  /** Factor values except the sweep column (probe's; signal's differing ones). */
  factors: string[];
  signalFactors: string[];
  a: string;
  b: string;
  /** The swept value at which Δ = D_{a←b} − D_{b←a} changes sign; null unless status is crossing or unconfirmed. */
  breakeven: number | null;
  /**
   * crossing: Δ changes sign between two sweep values at which the bootstrap intervals of D_{a←b} and D_{b←a} are
   * disjoint and oppositely ordered; unconfirmed: Δ changes sign but there are no intervals (--aggregate best);
   * not_significant: Δ changes sign only where the intervals overlap (no break-even reported); none: Δ keeps its sign.
   */
  status: "crossing" | "unconfirmed" | "not_significant" | "none";
}

export interface InterferenceResult {
  factorNames: string[];
  /** Factors whose value differs between the two instances of some execution (written as signal_<name>). */
  signalFactorNames: string[];
  apps: string[];
  pairs: PairRow[];
  matrix: MatrixRow[];
  appRows: AppRow[];
  breakeven: BreakEvenRow[] | null;
  summary: {
    rows: number;
    experiments: number;
    standaloneExecutions: number;
    pairExecutions: number;
    droppedByNoise: number;
    droppedExperiments: string[];
    slicedExperiments: number;
  };
}
