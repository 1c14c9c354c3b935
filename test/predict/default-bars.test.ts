// Issue 16's bars for the default setup (fit/cv/refit defaults: --log-inputs auto --log-response auto, gp in the
// default method set) on the real fread runs with the golden splits: mean ARE ≤ 9.0 / 6.0 / 5.5 % at p = 0.1 / 0.5 /
// 0.9. The transforms are chosen here by the auto rules, as the CLI's defaults do. CI runs p = 0.1 on all 20 splits
// (fits of ~80 points) and p = 0.5 on its first 8 splits (bar 6.0 on the subset; the full 20 are measured by
// `node dist/bench/gp-workload.js`); p = 0.9 (5 s per fit) is not run here: its bar (5.5) is not met (README). The map is
// read from the runs, so gp models each configuration's measured noise; auto logs all four inputs (bench, `--log-inputs
// freq_khz,threads,fsize_kb,rsize_kb`: 8.40 / 5.87 / 5.54 %, and 8.64 % at p = 0.1 with one nugget, `--gp-noise none`).
import { describe, expect, it } from "vitest";
import { loadDataset } from "../../ts/data/load.js";
import { scoreSplits } from "../../ts/cv/scoring.js";
import { splitRows } from "../../ts/cv/splits.js";
import { mapView, packMaps } from "../../ts/data/shared-maps.js";
import { dataPath, hasShared, sharedSkipReason } from "../helpers/shared.js";
import { moanaSplits } from "./golden-data.js";

async function defaultMap() {
  const { maps, resolved } = await loadDataset(dataPath("moana-cfq-noop-fread.csv"), { preset: "moana", logInputs: ["auto"], logResponse: "auto" });
  return { maps, resolved, map: mapView(packMaps(maps), 0) };
}

function meanAre(map: ReturnType<typeof mapView>, ids: readonly (number | string)[], p: number, reps: number, hyper: Record<string, unknown> = {}): number {
  const file = moanaSplits();
  const rows = file.splits
    .map((s, index) => ({ s, index }))
    .filter(({ s }) => s.p === p && s.rep < reps)
    .map(({ s, index }) => splitRows(s, ids, { file: file.source, index }));
  expect(rows.length).toBe(reps);
  const ares = scoreSplits(map, rows, "gp", "log", hyper).map((r) => ("are" in r ? r.are : NaN));
  expect(ares.every(Number.isFinite)).toBe(true);
  return (100 * ares.reduce((a, b) => a + b, 0)) / ares.length;
}

describe.skipIf(!hasShared)(`the default setup at issue 16's bars (fread runs, golden splits)${hasShared ? "" : " — " + sharedSkipReason}`, () => {
  it("the auto transforms pick log2 freq_khz, threads, fsize_kb, rsize_kb and a log response", async () => {
    const { resolved } = await defaultMap();
    expect([...(resolved?.logInputs ?? [])].sort()).toEqual(["freq_khz", "fsize_kb", "rsize_kb", "threads"]);
    expect(resolved?.logResponse).toBe(true);
  });

  it("gp (default options): mean ARE ≤ 9.0 % at p = 0.1 (20 splits) and ≤ 6.0 % at p = 0.5 (first 8 splits)", async () => {
    const { maps, map } = await defaultMap();
    expect(meanAre(map, maps[0].ids, 0.1, 20)).toBeLessThanOrEqual(9.0);
    expect(meanAre(map, maps[0].ids, 0.5, 8)).toBeLessThanOrEqual(6.0);
  }, 600_000);

  it("gp models each configuration's measured noise (jackknife variance over its runs): better at p = 0.1 than one nugget", async () => {
    const { maps, map } = await defaultMap();
    expect(map.yVar).toBeDefined();
    const measured = meanAre(map, maps[0].ids, 0.1, 20);
    const none = meanAre(map, maps[0].ids, 0.1, 20, { noise: "none" });
    // Measured: 8.40 % against 8.64 % with one nugget.
    expect(measured).toBeLessThan(none - 0.1);
  }, 600_000);
});
