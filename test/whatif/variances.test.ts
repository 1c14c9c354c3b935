// whatif --holdout models the mean and the spread with each configuration's measured sampling variance (the
// jackknife over its runs), as cv and refit do, so gp fits them as per-point noise. Quantile spreads and --map
// tables go without (no runs, or an inconsistent jackknife).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadDataset } from "../../ts/data/load.js";
import { mapView } from "../../ts/data/shared-maps.js";
import { holdoutJob } from "../../ts/jobs/whatif.js";
import type { SpreadKind } from "../../ts/whatif/objective.js";
import { writeTwoHostRuns } from "../helpers/runs.js";
import { throughputEvaluation } from "../helpers/whatif.js";

const dir = mkdtempSync(join(tmpdir(), "varmap-whatif-var-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const roles = { factors: ["host"], inputs: ["freq", "threads", "size"], response: "tput", run: "run" };

const job = (data: Awaited<ReturnType<typeof loadDataset>>, spreadKind: SpreadKind) =>
  holdoutJob(data, {
    methods: ["gp"],
    response: "log",
    fraction: 0.3,
    seed: "5",
    spreadKind,
    evaluate: throughputEvaluation({ spreadKind }),
    table: "w.csv",
    source: "runs.csv",
  });

describe("whatif --holdout: measured variances of the mean and the spread", () => {
  it("from runs: the jackknife variances of the mean and of the sd or cv, per map row", async () => {
    const runs = join(dir, "runs.csv");
    writeTwoHostRuns(runs);
    const data = await loadDataset(runs, { ...roles, stat: "sd" });
    // The maps a cv of that statistic would model carry the same variances, row for row.
    const mapsOf = async (stat: "mean" | "sd" | "cv") => (await loadDataset(runs, { ...roles, stat })).maps;
    const meanMaps = await mapsOf("mean");
    for (const kind of ["sd", "cv"] as const) {
      const ctx = job(data, kind);
      const spreadMaps = await mapsOf(kind);
      data.maps.forEach((m, k) => {
        for (const [which, want] of [
          ["mean", meanMaps[k].yVar!],
          ["spread", spreadMaps[k].yVar!],
        ] as const) {
          const got = mapView(ctx[which], k).yVar;
          expect(got, `${which} (${kind})`).toEqual(want);
          expect(got!.length).toBe(m.rows);
          for (const v of got!) expect(v).toBeGreaterThan(0);
        }
      });
    }
    // A quantile spread goes without (the mean keeps its variances).
    const q = job(data, "q90");
    expect(mapView(q.spread, 0).yVar).toBeUndefined();
    expect(mapView(q.mean, 0).yVar).toBeDefined();
  });

  it("from a --map table: none", async () => {
    const file = join(dir, "map.csv");
    const lines = ["host,freq,threads,size,tput"];
    for (const host of ["a", "b"]) for (let i = 0; i < 12; i++) lines.push(`${host},${1 + (i % 4)},${1 + (i % 3)},${2 ** (i % 2)},${100 + i}`);
    writeFileSync(file, lines.join("\n") + "\n");
    const data = await loadDataset(file, { ...roles, run: undefined, map: true, stat: "sd" });
    const ctx = job(data, "sd");
    expect(mapView(ctx.mean, 0).yVar).toBeUndefined();
    expect(mapView(ctx.spread, 0).yVar).toBeUndefined();
  });
});
