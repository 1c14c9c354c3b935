// The honest Table 2 (issue 16, item 7): every row averages the same maps for every method; a map where a method
// failed every division is left out of the row for all methods, counted and listed with the reason; divisions with
// an empty training or test set are skipped and counted, never scored as NaN or 100 %.
import { describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cvPlan, job as cvJob } from "../../ts/jobs/cv.js";
import { runJob } from "../../ts/pool/job.js";
import { packMaps, mapView } from "../../ts/data/shared-maps.js";
import type { VariabilityMap } from "../../ts/data/types.js";
import { cellReason, honestTable2, type Table2Cell } from "../../ts/cv/table2.js";
import { scoreSplits } from "../../ts/cv/scoring.js";
import { mulberry32 } from "../../ts/util/mulberry32.js";

/** A map of `rows` scattered points in 2 inputs with a smooth positive response; `g` names it. */
function scatterMap(g: string, rows: number, seed: number): VariabilityMap {
  const rnd = mulberry32(seed);
  const X = new Float64Array(rows * 2),
    y = new Float64Array(rows);
  for (let i = 0; i < rows; i++) {
    const a = rnd(),
      b = rnd();
    X.set([a, b], 2 * i);
    y[i] = 1 + a + 2 * b * b;
  }
  return {
    key: { g },
    inputNames: ["x1", "x2"],
    X,
    U: Float64Array.from(X),
    rows,
    normalization: { log2: [false, false], lo: [0, 0], hi: [1, 1] },
    stat: "sd",
    y,
    ids: Array.from({ length: rows }, (_, k) => k),
  };
}

function cell(map: number, method: string, p: number, values: number[], errors: Record<string, number> = {}, skipped: Record<string, number> = {}): Table2Cell {
  return { map, method, p, values, clamped: values, errors, messages: {}, skipped };
}

describe("honestTable2", () => {
  it("averages only the maps every method scored, and lists the others with their reasons", () => {
    const cells = [
      cell(0, "a", 0.5, [0.1, 0.3]),
      cell(0, "b", 0.5, [0.2]),
      cell(1, "a", 0.5, [], { E_TOO_FEW_POINTS: 3 }),
      cell(1, "b", 0.5, [0.9, 0.9, 0.9]),
      cell(2, "a", 0.5, [], {}, { "empty test set": 3 }),
      cell(2, "b", 0.5, [], {}, { "empty test set": 3 }),
    ];
    cells[2].messages.E_TOO_FEW_POINTS = "a needs at least 4 training points in 2 dimensions, got 1";
    const { rows, leftOut } = honestTable2(cells, ["a", "b"]);
    expect(rows).toHaveLength(1);
    const r = rows[0];
    expect(r.maps).toBe(1);
    expect(r.leftOut).toBe(2);
    expect(r.skippedDivisions).toBe(3);
    // Map 1 is left out for b too (b's 0.9 would otherwise make b look worse than a on different maps).
    expect(r.methods.a.are).toBeCloseTo(0.2, 15);
    expect(r.methods.b.are).toBeCloseTo(0.2, 15);
    expect(r.methods.a.failedMaps).toBe(1);
    expect(r.methods.a.failedDivisions).toBe(3);
    expect(r.methods.b.failedMaps).toBe(0);
    expect(leftOut.map((l) => l.map)).toEqual([1, 2]);
    expect(leftOut[0].reasons.a).toBe("E_TOO_FEW_POINTS ×3: a needs at least 4 training points in 2 dimensions, got 1");
    expect(leftOut[0].reasons.b).toBe("");
    expect(leftOut[1].reasons.a).toBe("skipped ×3: empty test set");
    expect(cellReason(cell(0, "a", 0.5, [1]))).toBe("");
  });

  it("gives no value (not NaN-as-0, not 100 %) when no map is common", () => {
    const { rows } = honestTable2([cell(0, "a", 0.1, [], { E_X: 2 }), cell(0, "b", 0.1, [0.5, 0.5])], ["a", "b"]);
    expect(rows[0].maps).toBe(0);
    expect(Number.isNaN(rows[0].methods.a.are)).toBe(true);
    expect(Number.isNaN(rows[0].methods.b.are)).toBe(true);
  });
});

describe("scoreSplits skips empty divisions", () => {
  it("returns the reason for an empty training or test set and scores the rest", () => {
    const maps = packMaps([scatterMap("a", 20, 3)]);
    const map = mapView(maps, 0);
    const all = Int32Array.from({ length: 20 }, (_, i) => i);
    const r = scoreSplits(
      map,
      [
        { train: new Int32Array(0), test: all },
        { train: all, test: new Int32Array(0) },
        { train: all.slice(0, 10), test: all.slice(10) },
      ],
      "lr",
      "linear",
    );
    expect(r[0]).toEqual({ skipped: "empty training set" });
    expect(r[1]).toEqual({ skipped: "empty test set" });
    expect("are" in r[2] && Number.isFinite(r[2].are)).toBe(true);
  });
});

describe("cv job: Table 2 over the same maps, failures and skips counted", () => {
  it("a map too small for the models is left out of the row for every method (mean too) and listed; empty divisions are skipped", async () => {
    // Map "big": 40 rows, every method fits. Map "small": 8 rows: at p = 0.1 one training point (lr, lsp, delaunay
    // fail; mean fits). Map "tiny": 2 rows: p = 0.1 gives no training point, p = 0.9 no test point (skipped).
    const maps = packMaps([scatterMap("big", 40, 1), scatterMap("small", 8, 2), scatterMap("tiny", 2, 5)]);
    const methods = ["lr", "lsp", "delaunay", "mean"];
    const reps = 4;
    const { plan } = cvPlan(maps, { methods, response: "linear", stat: "sd", ps: [0.1, 0.5, 0.9], reps, seed: "7" });
    const out = mkdtempSync(join(tmpdir(), "varmap-cv-table2-"));
    try {
      const s = await runJob(cvJob, { maps, plan }, { out, workers: 0, resume: false, quiet: true, label: "cv" });
      const lines = readFileSync(join(out, "table2.csv"), "utf8").trim().split("\n");
      const head = lines[0].split(",");
      expect(head.slice(0, 5)).toEqual(["p", "are_lr", "are_lsp", "are_delaunay", "are_mean"]);
      const rows = lines.slice(1).map((l) => Object.fromEntries(l.split(",").map((v, i) => [head[i], Number(v)])));
      expect(rows.map((r) => r.p)).toEqual([0.1, 0.5, 0.9]);
      for (const r of rows) for (const m of methods) expect(Number.isFinite(r[`are_${m}`]), `p=${r.p} ${m}`).toBe(true);

      const perMap = s.summary!.maps as {
        key: { g: string };
        methods: Record<string, { p: number; splits: number; failed: number; skipped: number; are: number }[]>;
      }[];
      const mapAre = (g: string, m: string, p: number) => perMap.find((x) => x.key.g === g)!.methods[m].find((c) => c.p === p)!;

      // p = 0.1: only "big" is common; "small" failed for lr/lsp/delaunay (mean scored it but it is left out for mean too).
      const r1 = rows[0];
      expect(r1.maps).toBe(1);
      expect(r1.maps_left_out).toBe(2);
      expect(r1.skipped_divisions).toBe(reps); // tiny: round(0.1 · 2) = 0 training points
      for (const m of ["lr", "lsp", "delaunay"]) {
        expect(r1[`failed_maps_${m}`]).toBe(1);
        expect(r1[`failed_divisions_${m}`]).toBe(reps);
      }
      expect(r1.failed_maps_mean).toBe(0);
      expect(mapAre("small", "mean", 0.1).splits).toBe(reps);
      for (const m of methods) expect(r1[`are_${m}`]).toBeCloseTo(mapAre("big", m, 0.1).are, 5);

      // p = 0.5: big and small common (4 training points of small suffice), tiny fails (1 training point) for the models.
      expect(rows[1].maps).toBe(2);
      expect(rows[1].skipped_divisions).toBe(0);
      for (const m of methods) expect(rows[1][`are_${m}`]).toBeCloseTo((mapAre("big", m, 0.5).are + mapAre("small", m, 0.5).are) / 2, 5);

      // p = 0.9: tiny has no test point: skipped for every method, neither failed nor scored.
      expect(rows[2].skipped_divisions).toBe(reps);
      const tiny = mapAre("tiny", "lr", 0.9);
      expect([tiny.splits, tiny.failed, tiny.skipped]).toEqual([0, 0, reps]);
      expect(rows[2].failed_maps_lr).toBe(0);

      const areCsv = readFileSync(join(out, "are.csv"), "utf8");
      expect(areCsv.split("\n")[0]).toMatch(/,skipped,reason$/);
      expect(areCsv).toMatch(/^tiny,lr,0\.9,0,0,NaN,NaN,0,0,0,NaN,NaN,4,skipped ×4: empty test set$/m);
      expect(areCsv).toMatch(/^small,lsp,0\.1,0,4,NaN,NaN,0,0,0,NaN,NaN,0,"?E_TOO_FEW_POINTS ×4: lsp needs at least 4 training points/m);

      const md = readFileSync(join(out, "table2.md"), "utf8");
      expect(md).toMatch(/## Maps and divisions behind each row/);
      expect(md).toMatch(/### Maps left out/);
      expect(md).toMatch(/\| g=small \| 0\.1 \| E_TOO_FEW_POINTS ×4: lr needs at least 3 training points/);
      expect(md).not.toMatch(/NaN/);

      const leftOut = s.summary!.leftOut as { key: { g: string }; p: number; reasons: Record<string, string> }[];
      expect(leftOut.map((l) => `${l.key.g}@${l.p}`)).toEqual(["small@0.1", "tiny@0.1", "tiny@0.5", "tiny@0.9"]);
      expect(leftOut[0].reasons.mean).toBeUndefined(); // mean scored it
      expect(s.summary!.skippedDivisions).toBe(2 * reps);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});

describe("plot are from are.csv follows Table 2's rule", () => {
  it("averages at each p only the maps every method scored", async () => {
    const { areRows } = await import("../../ts/report/plots/are.js");
    const rows = [
      { g: "x", method: "a", p: 0.5, are_mean: 0.1 },
      { g: "x", method: "b", p: 0.5, are_mean: 0.2 },
      { g: "y", method: "a", p: 0.5, are_mean: Number.NaN },
      { g: "y", method: "b", p: 0.5, are_mean: 0.9 },
    ];
    const points = areRows(rows);
    expect(points.find((r) => r.method === "a")!.are).toBeCloseTo(0.1, 15);
    expect(points.find((r) => r.method === "b")!.are).toBeCloseTo(0.2, 15); // map y left out for b too
  });
});
