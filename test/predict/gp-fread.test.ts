// gp on the real fread runs (issue 16's setting: log2 inputs, log response, the golden splits). Measured with the
// defaults (bench/gp-workload.ts; Matérn 3/2, the expected-ARE point): 8.79 / 5.90 / 5.65 % mean ARE at p = 0.1 / 0.5 /
// 0.9 (bars 9.0 / 6.0 / 5.5: the bar at p = 0.9 is not reached). Only p = 0.1 runs here (20 fits of ~80 points, well under a second each); the
// larger fractions take seconds per fit and are measured by the workload script.
import { describe, expect, it } from "vitest";
import { loadDataset } from "../../ts/data/load.js";
import { scoreSplits } from "../../ts/cv/scoring.js";
import { splitRows } from "../../ts/cv/splits.js";
import { mapView, packMaps } from "../../ts/data/shared-maps.js";
import { dataPath, hasShared, sharedSkipReason } from "../helpers/shared.js";
import { moanaSplits } from "./golden-data.js";

describe.skipIf(!hasShared)(`gp on the fread runs, golden splits${hasShared ? "" : " — " + sharedSkipReason}`, () => {
  it("mean ARE ≤ 9.0 % at p = 0.1 (the issue's bar), every split fitted", async () => {
    const { maps } = await loadDataset(dataPath("moana-cfq-noop-fread.csv"), {
      preset: "moana",
      logInputs: ["threads", "fsize_kb", "rsize_kb"],
      logResponse: true,
    });
    const map = mapView(packMaps(maps), 0);
    const file = moanaSplits();
    const rows = file.splits
      .map((s, index) => ({ s, index }))
      .filter(({ s }) => s.p === 0.1)
      .map(({ s, index }) => splitRows(s, maps[0].ids, { file: file.source, index }));
    expect(rows.length).toBe(20);
    const ares = scoreSplits(map, rows, "gp", "log").map((r) => ("are" in r ? r.are : NaN));
    expect(ares.every(Number.isFinite)).toBe(true);
    const mean = (100 * ares.reduce((a, b) => a + b, 0)) / ares.length;
    expect(mean).toBeLessThanOrEqual(9.0);
  }, 300_000);
});
