// Worker thread of `mixture-study --workers N`: fits all (family, k) mixtures of the chunks of configurations it is
// sent (configuration ids = global indices, so the results equal the single-thread ones) and returns their log L.
import { parentPort, workerData } from "node:worker_threads";
import { getBackend } from "../ts/backend/index.js";
import { fitMixtures } from "../ts/mixture/fit.js";

const { runs, offsets, backend: backendName } = workerData as { runs: Float64Array; offsets: Int32Array; backend?: string };
const backend = getBackend(backendName);
parentPort!.on("message", ({ c0, c1 }: { c0: number; c1: number }) => {
  const base = offsets[c0];
  const off = Int32Array.from({ length: c1 - c0 + 1 }, (_, i) => offsets[c0 + i] - base);
  const fit = fitMixtures(runs.subarray(base, offsets[c1]), off, { backend, configIds: Int32Array.from({ length: c1 - c0 }, (_, i) => c0 + i) });
  parentPort!.postMessage({ c0, c1, loglik: Float64Array.from(fit.rows, (r) => r.loglik) });
});
