// Worker thread of fitMixturesParallel: fits every (family, k) of the chunks of configurations it is sent and
// returns plain rows (no Mixture objects: those are rebuilt on the main thread).
import { workerData } from "piscina";
import { fitMixtures, type MixtureFitOptions } from "./fit.js";
import type { ChunkResult, WorkerInput } from "./parallel.js";

const input = workerData as WorkerInput;

export default function run({ c0, c1 }: { c0: number; c1: number }): ChunkResult {
  const { runs, offsets, configIds, options } = input;
  const base = offsets[c0];
  const off = Int32Array.from({ length: c1 - c0 + 1 }, (_, i) => offsets[c0 + i] - base);
  const opts: MixtureFitOptions = { ...options, configIds: configIds.slice(c0, c1) };
  const fit = fitMixtures(runs.subarray(base, offsets[c1]), off, opts);
  return {
    c0,
    rows: fit.rows.map(({ mixture: _m, ...plain }) => ({ ...plain, config: plain.config + c0 })),
    seconds: [...fit.secondsPerFit].map(([key, mean]) => [key, mean * (c1 - c0)] as [string, number]),
    resolution: fit.resolution,
  };
}
