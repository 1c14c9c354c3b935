// fitMixtures spread over worker threads: configurations are handed out in small chunks, each fitted with its
// global configuration id so that the random starts, and therefore the fits, equal the single-thread ones.
import { Piscina } from "piscina";
import { sharedCopy, workerFile } from "../pool/threads.js";
import { FAMILIES } from "./families.js";
import { fitMixtures, type MixtureFitOptions, type MixtureFitResult, type MixtureFitRow } from "./fit.js";
import { Mixture } from "./model.js";

/** Configurations per task: small enough to balance two workers, large enough to amortize the hand-off. */
const CHUNK = 8;

export interface WorkerInput {
  runs: Float64Array;
  offsets: Int32Array;
  configIds: Int32Array;
  options: Omit<MixtureFitOptions, "backend" | "configIds">;
}

export interface ChunkResult {
  c0: number;
  rows: Omit<MixtureFitRow, "mixture">[];
  /** Per (family:k): seconds summed over the chunk's configurations. */
  seconds: [string, number][];
  resolution: Float64Array;
}



/**
 * The same result as fitMixtures(runs, offsets, opts) (rows, order and best flags identical), computed on
 * `workers` threads; workers ≤ 1 or a single chunk runs in this thread. secondsPerFit is CPU time per fit
 * summed over the threads, as on one thread.
 */
export async function fitMixturesParallel(runs: Float64Array, offsets: Int32Array, opts: MixtureFitOptions & { workers: number }): Promise<MixtureFitResult> {
  const { workers, backend: _b, ...rest } = opts;
  const nconf = offsets.length - 1;
  const chunks: { c0: number; c1: number }[] = [];
  for (let c0 = 0; c0 < nconf; c0 += CHUNK) chunks.push({ c0, c1: Math.min(nconf, c0 + CHUNK) });
  if (workers <= 1 || chunks.length <= 1) return fitMixtures(runs, offsets, opts);

  const configIds = opts.configIds ?? Int32Array.from({ length: nconf }, (_, i) => i);
  const input: WorkerInput = { runs: sharedCopy(runs), offsets: sharedCopy(offsets), configIds: sharedCopy(configIds), options: { ...rest, configIds: undefined } as WorkerInput["options"] };
  const { filename, execArgv } = workerFile(import.meta.url, "worker");
  const threads = Math.min(workers, chunks.length);
  const pool = new Piscina({ filename, execArgv, workerData: input, minThreads: threads, maxThreads: threads });
  let parts: ChunkResult[];
  try {
    parts = await Promise.all(chunks.map((ch) => pool.run(ch) as Promise<ChunkResult>));
  } finally {
    await pool.destroy();
  }

  const rows: MixtureFitRow[] = [];
  const resolution = new Float64Array(2 * nconf);
  const seconds = new Map<string, number>();
  for (const part of parts) {
    for (const r of part.rows) {
      const [an, bn] = FAMILIES[r.family].paramNames;
      rows.push({ ...r, mixture: new Mixture(r.family, r.params.w, r.params[an], r.params[bn]) });
    }
    resolution.set(part.resolution, 2 * part.c0);
    for (const [key, s] of part.seconds) seconds.set(key, (seconds.get(key) ?? 0) + s);
  }
  for (const [key, s] of seconds) seconds.set(key, s / Math.max(nconf, 1));
  return { rows, secondsPerFit: seconds, resolution };
}
