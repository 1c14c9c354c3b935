// fitMixturesParallel must return exactly what fitMixtures returns on one thread: same rows in the same order,
// same fits bit for bit, same best flags and resolutions (random starts are keyed by configuration id).
import { describe, expect, it } from "vitest";
import { fitMixtures } from "../../ts/mixture/fit.js";
import { fitMixturesParallel } from "../../ts/jobs/mixture.js";
import { rng } from "../helpers/backends.js";

describe("fitMixturesParallel", () => {
  it("equals the single-thread fit on 2 workers", async () => {
    const rand = rng(7);
    const nconf = 20;
    const offsets = new Int32Array(nconf + 1);
    const runs: number[] = [];
    for (let c = 0; c < nconf; c++) {
      const n = 20 + (c % 5) * 4;
      for (let i = 0; i < n; i++) runs.push((i % 2 ? 10 : 14 + (c % 3)) + rand() * 2); // two modes
      offsets[c + 1] = runs.length;
    }
    const x = Float64Array.from(runs);
    const configIds = Int32Array.from({ length: nconf }, (_, i) => 100 + 3 * i);
    const opts = { families: ["normal", "gamma"] as ("normal" | "gamma")[], kmax: 3, configIds };
    const one = fitMixtures(x, offsets, opts);
    const two = await fitMixturesParallel(x, offsets, { ...opts, workers: 2 });
    expect(two.rows.length).toBe(one.rows.length);
    two.rows.forEach((r, i) => {
      const o = one.rows[i];
      expect([r.config, r.family, r.k, r.n, r.best, r.converged, r.iterations]).toEqual([o.config, o.family, o.k, o.n, o.best, o.converged, o.iterations]);
      expect(r.loglik).toBe(o.loglik);
      expect(r.params).toEqual(o.params);
      expect(r.mixture.cdf(12)).toBe(o.mixture.cdf(12));
    });
    expect(Array.from(two.resolution)).toEqual(Array.from(one.resolution));
    expect([...two.secondsPerFit.keys()]).toEqual([...one.secondsPerFit.keys()]);
  });
});
