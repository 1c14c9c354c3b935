// Trust in cross-validation (issue 15, item 3): cv's per-prediction output carries extrapolated, distance and
// clamped; are.csv and Table 2 keep the papers' ARE and add the ARE with negative predictions of a nonnegative
// statistic set to 0; the warnings are counted in the summary.
import { describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cvPlan, job as cvJob, predictionColumns } from "../../ts/jobs/cv.js";
import { runJob } from "../../ts/pool/job.js";
import { readRecords, RESULTS } from "../../ts/pool/store.js";
import { packMaps } from "../../ts/data/shared-maps.js";
import type { VariabilityMap } from "../../ts/data/types.js";
import { nearestDistance, outsideBox } from "../../ts/predict/trust.js";
import { takeRows, matrix } from "../../ts/predict/matrix.js";

// One 8 × 8 map whose response rises steeply in u0 (exp(4 u0)): a straight line undershoots it to below zero near u0 = 0.
function steepMap(): VariabilityMap {
  const side = 8,
    rows = side * side;
  const X = new Float64Array(rows * 2),
    U = new Float64Array(rows * 2),
    y = new Float64Array(rows);
  for (let a = 0, i = 0; a < side; a++)
    for (let b = 0; b < side; b++, i++) {
      const u = [a / (side - 1), b / (side - 1)];
      X.set([10 * a, 100 + b], i * 2);
      U.set(u, i * 2);
      y[i] = 0.05 + Math.exp(4 * u[0]) - 1 + 0.1 * u[1];
    }
  return {
    key: { g: "a" },
    inputNames: ["x1", "x2"],
    X,
    U,
    rows,
    normalization: { log2: [false, false], lo: [0, 100], hi: [70, 107] },
    stat: "sd",
    y,
    ids: Array.from({ length: rows }, (_, k) => k),
  };
}

describe("cv trust columns and clamped ARE", () => {
  it("given splits with predictions: trust columns as recomputed by hand, clamped ARE beside the papers' ARE", async () => {
    const map = steepMap();
    const maps = packMaps([map]);
    // Training on u0 ≥ 2/7 only for one split (the rest extrapolates in the box sense), every other row for another.
    const lowCut = Array.from({ length: 64 }, (_, i) => i).filter((i) => Math.floor(i / 8) >= 2);
    const everyOther = Array.from({ length: 32 }, (_, i) => 2 * i);
    const splits = {
      source: "inline",
      n: 64,
      splits: [
        { p: 0.75, rep: 0, train: lowCut },
        { p: 0.5, rep: 0, train: everyOther },
      ],
    };
    const { plan, givenTrain } = cvPlan(maps, { methods: ["lr", "lsp", "delaunay"], response: "linear", stat: "sd", splits, predictions: true });
    const out = mkdtempSync(join(tmpdir(), "varmap-cv-trust-"));
    try {
      const s = await runJob(cvJob, { maps, plan, givenTrain }, { out, workers: 0, resume: false, quiet: true, label: "cv" });
      const results = new Map(readRecords(join(out, RESULTS)).map((r) => [r.id, r.result]));
      const cols = Object.fromEntries(predictionColumns(plan, results).map((c) => [c.name, Array.from(c.values as ArrayLike<number | string>)]));
      expect(Object.keys(cols)).toEqual(["g", "p", "rep", "index", "method", "prediction", "extrapolated", "distance", "clamped"]);
      // Recompute box and distance in the map's normalized space for each (split, method) row.
      const Z = matrix(map.U, 64, 2); // U is X normalized over the map (no log2 here)
      let negatives = 0;
      for (let i = 0; i < cols.p.length; i++) {
        const split = cols.p[i] === 0.75 ? lowCut : everyOther;
        const train = takeRows(Z, split);
        const q = takeRows(Z, [cols.index[i] as number]);
        expect(cols.distance[i]).toBeCloseTo(nearestDistance(train, q)[0], 9);
        const box = outsideBox(train, q)[0];
        if (cols.method[i] === "delaunay")
          expect(cols.extrapolated[i]).toBeGreaterThanOrEqual(box); // hull ⊂ box
        else expect(cols.extrapolated[i]).toBe(box);
        expect(cols.clamped[i]).toBe((cols.prediction[i] as number) < 0 ? 1 : 0);
        negatives += cols.clamped[i] as number;
      }
      // The low-cut split extrapolates the rows u0 < 2/7 (16 of them) for every method.
      const lowRows = cols.p.map((p, i) => (p === 0.75 && cols.method[i] === "lr" ? (cols.extrapolated[i] as number) : 0)).reduce((a, b) => a + b, 0);
      expect(lowRows).toBe(16);
      expect(negatives).toBeGreaterThan(0);
      // are.csv: the papers' ARE unchanged in meaning, the clamped ARE never larger; counts add up.
      const are = readFileSync(join(out, "are.csv"), "utf8")
        .trim()
        .split("\n")
        .map((l) => l.split(","));
      const h = are[0];
      const col = (r: string[], c: string) => Number(r[h.indexOf(c)]);
      let clampedTotal = 0;
      for (const r of are.slice(1)) {
        expect(col(r, "are_clamped_mean")).toBeLessThanOrEqual(col(r, "are_mean"));
        expect(col(r, "predictions")).toBe(col(r, "p") === 0.75 ? 16 : 32);
        clampedTotal += col(r, "clamped");
      }
      expect(clampedTotal).toBe(negatives);
      const warnings = s.summary!.warnings as Record<string, { negative: number; extrapolated: number; predictions: number }>;
      expect(warnings.lr.predictions).toBe(48);
      expect(warnings.lr.negative + warnings.lsp.negative + warnings.delaunay.negative).toBe(negatives);
      const md = readFileSync(join(out, "table2.md"), "utf8");
      expect(md).toMatch(/## Mean ARE with negative predictions clamped to 0/);
      expect(md).toMatch(/## Legend/);
      expect(md).toMatch(/## Warnings\n\n- \d+ of 48 .* lr prediction\(s\) extrapolated outside the training inputs \(test: bounding box;/);
      expect(md).not.toMatch(/Beside the MOANA paper/); // not the MOANA design
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it("a statistic that may be negative (mean) is not clamped and gets no clamped columns", async () => {
    const maps = packMaps([steepMap()]);
    const { plan } = cvPlan(maps, { methods: ["lr"], response: "linear", stat: "mean", ps: [0.5], reps: 5, seed: "2" });
    const out = mkdtempSync(join(tmpdir(), "varmap-cv-trust-"));
    try {
      await runJob(cvJob, { maps, plan }, { out, workers: 0, resume: false, quiet: true, label: "cv" });
      const t2 = readFileSync(join(out, "table2.csv"), "utf8").split("\n")[0];
      // How each row was made (issue 16, item 7) after the figures.
      expect(t2).toBe("p,are_lr,median_are_lr,q25_are_lr,q75_are_lr,maps,maps_left_out,skipped_divisions,failed_maps_lr,failed_divisions_lr");
      const are = readFileSync(join(out, "are.csv"), "utf8").trim().split("\n");
      const h = are[0].split(",");
      for (const r of are.slice(1).map((l) => l.split(","))) {
        expect(r[h.indexOf("clamped")]).toBe("0");
        expect(r[h.indexOf("are_clamped_mean")]).toBe(r[h.indexOf("are_mean")]);
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
