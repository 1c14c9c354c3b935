// `varmap synth --design interference`: a run table with known degradations, for end-to-end tests and the demo
// (spec C.4 item 7). Three write patterns (OWC, WS, AW) on two file systems over chunk sizes 1–256 MiB and two
// process counts, each standalone and in every pair, repeated.
//
// Model. Two instances share the standalone bandwidth by weights: the probe a keeps the share w_a/(w_a + w_b) of
// its standalone bandwidth against signal b, so D_{a←b} = 100·w_b/(w_a + w_b) exactly (noise aside) and the two
// degradations of a pair add up to 100. The weights follow seed 003's qualitative picture: aggregate-write (AW)
// dominates the small-chunk patterns at small chunks and loses its edge as chunks grow (GPFS break-even of
// OWC/AW between 128 and 256 MiB); on Lustre write-seek (WS) grows more aggressive with the chunk size; more
// processes make an instance more aggressive. OWC against itself on GPFS at ≥ 16 MiB is serialized (§3.3.1):
// in each repetition a coin decides which instance goes first, keeping 95% of its bandwidth, while the other
// keeps 5% — bimodal interfered runs whose best-of-five hides the serialization.
// Noise: multiplicative lognormal, σ = 0.03 standalone and 0.06 under interference (so the sd ratio is about
// 2 × the retained share); 2% of executions carry external load (server/application traffic 1.2–1.5, bandwidth
// −30%), which the noise filter (--noise server_ratio) removes.
import { counterRng } from "../data/random.js";
import { writeTable, type Column } from "../data/write.js";

export const SYNTH_APPS = ["OWC", "WS", "AW"] as const;
export type SynthApp = (typeof SYNTH_APPS)[number];

export interface InterferenceDesign {
  fs: string[];
  chunks: number[];
  procs: number[];
  reps: number;
  /** Noise σ of log bandwidth, standalone and interfered; share of executions with external load. */
  sigmaAlone: number;
  sigmaInt: number;
  noisyShare: number;
}

export const INTERFERENCE_DESIGN: InterferenceDesign = {
  fs: ["gpfs", "lustre"],
  chunks: [1, 2, 4, 8, 16, 32, 64, 128, 256],
  procs: [64, 256],
  reps: 10,
  sigmaAlone: 0.03,
  sigmaInt: 0.06,
  noisyShare: 0.02,
};

/** Standalone bandwidth (GB/s): the file system's peak (Table 1: GPFS 20, Lustre 50) × pattern efficiency × scale. */
export function standaloneBandwidth(fs: string, app: string, chunk: number, procs: number): number {
  const peak = fs === "gpfs" ? 20 : 50;
  const l = Math.log2(chunk) / 8;
  const eff = app === "OWC" ? 0.3 + 0.4 * l : app === "WS" ? 0.35 + 0.35 * l : 0.8;
  return peak * eff * Math.sqrt(procs / 256);
}

/** Interference weight of an instance (larger = more aggressive). */
export function interferenceWeight(fs: string, app: string, chunk: number, procs: number): number {
  const l = Math.log2(chunk);
  let w: number;
  if (fs === "gpfs") w = app === "OWC" ? 1 : app === "WS" ? 1.1 : 6 * 2 ** ((-l * Math.log2(6)) / 7.5);
  else w = app === "OWC" ? 1 : app === "WS" ? 0.7 * 2 ** (l / 4) : 3 * 2 ** ((-l * Math.log2(3)) / 8);
  const e = app === "AW" ? 0.3 : app === "WS" ? 0.2 : 0.1;
  return w * (procs / 256) ** e;
}

/** Serialized pairs: OWC against itself on GPFS at chunks ≥ 16 MiB. */
export function isSerialized(fs: string, a: string, b: string, chunk: number): boolean {
  return fs === "gpfs" && a === "OWC" && b === "OWC" && chunk >= 16;
}

/** The known degradation D_{a←b} in % (noise-free); null for serialized pairs (each repetition is 5 or 95). */
export function knownDegradation(fs: string, a: string, b: string, chunk: number, procs: number): number | null {
  if (isSerialized(fs, a, b, chunk)) return null;
  const wa = interferenceWeight(fs, a, chunk, procs);
  const wb = interferenceWeight(fs, b, chunk, procs);
  return (100 * wb) / (wa + wb);
}

/** The column roles of the synthetic design's runs table (`varmap interference --preset interference`). */
export const SYNTH_ROLES = {
  experiment: "experiment",
  app: "app",
  instance: "instance",
  factors: ["fs", "chunk_mib", "procs"],
  run: "rep",
  response: "bw_gbps",
  noise: "server_ratio",
  metric: "throughput",
} as const;

export interface SynthRow {
  experiment: string;
  fs: string;
  app: string;
  instance: number;
  chunk_mib: number;
  procs: number;
  rep: number;
  bw_gbps: number;
  server_ratio: number;
}

/** Every row of the design: per (fs, chunk, procs), standalone executions of each app, then each unordered pair. */
export function* interferenceRows(seed: number | string, design: InterferenceDesign = INTERFERENCE_DESIGN): Generator<SynthRow> {
  for (const fs of design.fs)
    for (const chunk of design.chunks)
      for (const procs of design.procs) {
        const executions: string[][] = SYNTH_APPS.map((a) => [a]);
        for (let i = 0; i < SYNTH_APPS.length; i++) for (let j = i; j < SYNTH_APPS.length; j++) executions.push([SYNTH_APPS[i], SYNTH_APPS[j]]);
        for (const apps of executions)
          for (let rep = 1; rep <= design.reps; rep++) {
            const experiment = `${apps.length === 1 ? "alone" : "pair"}-${fs}-${apps.join("-")}-c${chunk}-p${procs}-r${rep}`;
            const r = counterRng(seed, "interference-synth", experiment);
            const noisy = r.next() < design.noisyShare;
            const serverRatio = noisy ? 1.2 + 0.3 * r.next() : 1 + 0.05 * r.next();
            const first = r.int(2); // which instance of a serialized pair goes first
            for (let k = 0; k < apps.length; k++) {
              const a = apps[k];
              const alone = standaloneBandwidth(fs, a, chunk, procs);
              let share = 1;
              if (apps.length === 2) {
                const b = apps[1 - k];
                share = isSerialized(fs, a, b, chunk) ? (k === first ? 0.95 : 0.05) : 1 - knownDegradation(fs, a, b, chunk, procs)! / 100;
              }
              const sigma = apps.length === 1 ? design.sigmaAlone : design.sigmaInt;
              const bw = alone * share * Math.exp(sigma * r.normal()) * (noisy ? 0.7 : 1);
              yield {
                experiment,
                fs,
                app: a,
                instance: k + 1,
                chunk_mib: chunk,
                procs,
                rep,
                bw_gbps: Math.round(bw * 1e6) / 1e6,
                server_ratio: Math.round(serverRatio * 1e4) / 1e4,
              };
            }
          }
      }
}

export const SYNTH_COLUMNS = ["experiment", "fs", "app", "instance", "chunk_mib", "procs", "rep", "bw_gbps", "server_ratio"] as const;

/** Writes the design's run table (.csv, .tsv, .json or .parquet); returns its size. */
export async function writeInterferenceSynth(
  out: string,
  seed: number | string,
  design: InterferenceDesign = INTERFERENCE_DESIGN,
): Promise<{ rows: number; executions: number }> {
  const rows = [...interferenceRows(seed, design)];
  const cols: Column[] = SYNTH_COLUMNS.map((name) => ({
    name,
    values: rows.map((r) => r[name]),
    type: name === "experiment" || name === "fs" || name === "app" ? "string" : name === "bw_gbps" || name === "server_ratio" ? "double" : "int",
  }));
  await writeTable(out, cols);
  return { rows: rows.length, executions: new Set(rows.map((r) => r.experiment)).size };
}
