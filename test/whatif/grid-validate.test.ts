// Grid parsing (spec D.4 test 4), candidate enumeration, and the validation metrics.
import { describe, expect, it } from "vitest";
import { parseAxes, parseAxisValues, rangeValues } from "../../ts/whatif/grid.js";
import { gridCandidates, predictCandidates } from "../../ts/whatif/candidates.js";
import { buildModelSet, predictMap, type MapModels } from "../../ts/whatif/models.js";
import { LinearRegression } from "../../ts/predict/lr.js";
import { Delaunay } from "../../ts/predict/delaunay.js";
import { fromRows } from "../../ts/predict/matrix.js";
import { evaluate, parseObjective, parsePareto } from "../../ts/whatif/objective.js";
import { averageRanks, spearman, validateMap } from "../../ts/whatif/validate.js";
import { holdoutRows } from "../../ts/whatif/run.js";

const usage = expect.objectContaining({ code: "E_USAGE" });

describe("grid parsing", () => {
  it("expands inclusive ranges a:b:step (1e-9·step tolerance at the end) and lists", () => {
    expect(rangeValues(1, 2, 0.5)).toEqual([1, 1.5, 2]);
    expect(parseAxisValues("x", "1:2:0.5", true)).toEqual(["1", "1.5", "2"]);
    const tenths = rangeValues(0, 1, 0.1);
    expect(tenths).toHaveLength(11);
    expect(tenths[10]).toBeCloseTo(1, 12);
    expect(rangeValues(1, 2.2, 0.5)).toEqual([1, 1.5, 2]);
    expect(rangeValues(3, 3, 1)).toEqual([3]);
    expect(parseAxisValues("threads", "1,2,4", true)).toEqual(["1", "2", "4"]);
    expect(parseAxisValues("mode", "fread,fwrite", false)).toEqual(["fread", "fwrite"]);
    const axes = parseAxes("freq=1:2:0.5; mode=a,b", "--grid", ["mode", "freq"], ["freq"]);
    expect(axes).toEqual([
      { column: "freq", values: ["1", "1.5", "2"] },
      { column: "mode", values: ["a", "b"] },
    ]);
    expect(parseAxes("mode=a,freq=3", "--fix", ["mode", "freq"], ["freq"])).toEqual([
      { column: "mode", values: ["a"] },
      { column: "freq", values: ["3"] },
    ]);
  });

  it("rejects bad grids with E_USAGE", () => {
    const bad = ["x=1:2", "x=1:2:0", "x=1:2:-1", "x=2:1:0.5", "x=a:2:1", "x=1:2:0.5:1", "x=", "x=1,,2", "x=1,1", "y=1", "x", "x=1;x=2", "x=1:1e12:1"];
    for (const g of bad) expect(() => parseAxes(g, "--grid", ["x", "f"], ["x"]), g).toThrow(usage);
    expect(() => parseAxes("f=1:2:1", "--grid", ["x", "f"], ["x"])).toThrow(usage);
    expect(() => parseAxes("x=1,2", "--fix", ["x", "f"], ["x"])).toThrow(usage);
  });
});

/** Two maps (f = a, b) of y = level + x1 + 2·x2 over a 3×3 grid, lr for the mean and delaunay for the sd. */
function twoMaps() {
  const X = fromRows([0, 1, 2].flatMap((i) => [0, 1, 2].map((j) => [i, j])));
  const maps: MapModels[] = ["a", "b"].map((f, k) => {
    const mean = new LinearRegression({}).fit(
      X,
      Array.from({ length: 9 }, (_, r) => 10 * (k + 1) + X.data[2 * r] + 2 * X.data[2 * r + 1]),
    );
    const spread = new Delaunay({}).fit(
      X,
      Array.from({ length: 9 }, (_, r) => 1 + X.data[2 * r]),
    );
    return { key: { f }, inputs: ["x1", "x2"], mean, spread, scaling: mean.toJSON().inputs };
  });
  return buildModelSet(["f"], ["x1", "x2"], "sd", "lr", "delaunay", maps);
}

describe("grid candidates", () => {
  const set = twoMaps();
  it("crosses the selected maps with the input axes (first axis slowest) and predicts them in batches", () => {
    const c = gridCandidates(set, "x1=0:2:1;x2=0.5,3", "f=b");
    expect(c.count).toBe(6);
    expect(Array.from(c.inputs)).toEqual([0, 0.5, 0, 3, 1, 0.5, 1, 3, 2, 0.5, 2, 3]);
    expect(c.factorValues[0]).toEqual(Array(6).fill("b"));
    const p = predictCandidates(set, c);
    expect(p.mean[0]).toBeCloseTo(21, 10);
    expect(p.mean[5]).toBeCloseTo(28, 10);
    // x2 = 3 is outside the hull (Delaunay on the sd model): extrapolated by 1 normalized unit (x2 spans 0..2).
    expect(Array.from(p.extrapolated)).toEqual([0, 1, 0, 1, 0, 1]);
    expect(p.distance[1]).toBeCloseTo(0.5, 10);
    const all = gridCandidates(set, "x1=1;x2=1", undefined);
    expect(all.count).toBe(2);
    expect(all.factorValues[0]).toEqual(["a", "b"]);
  });

  it("predicts in one batch per map and model, never per candidate", () => {
    const counted = twoMaps();
    const calls: string[] = [];
    counted.maps.forEach((m, i) => {
      const mean = m.mean.predict.bind(m.mean);
      m.mean.predict = (Q) => (calls.push(`mean ${i} ${Q.rows}`), mean(Q));
      const loc = (m.spread as Delaunay).locate.bind(m.spread);
      (m.spread as Delaunay).locate = (Q) => (calls.push(`locate ${i} ${Q.rows}`), loc(Q));
    });
    predictCandidates(counted, gridCandidates(counted, "x1=0:2:0.25;x2=0:2:0.5", undefined));
    expect(calls).toEqual(["locate 0 45", "mean 0 45", "locate 1 45", "mean 1 45"]);
  });

  it("shares one Delaunay location between Delaunay mean and spread models, with predict()'s values exactly", () => {
    const X = fromRows([0, 1, 2, 3].flatMap((i) => [0, 1, 2].map((j) => [i, j + 0.1 * i])));
    const ym = Array.from({ length: 12 }, (_, r) => 5 + Math.sin(r));
    const ys = Array.from({ length: 12 }, (_, r) => 1 + 0.1 * r);
    const mean = new Delaunay({}).fit(X, ym);
    const spread = new Delaunay({ response: "log" }).fit(X, ys);
    const other = new Delaunay({}).fit(
      fromRows([
        [0, 0],
        [3, 0],
        [0, 2.3],
        [3, 2.3],
      ]),
      [1, 2, 3, 4],
    );
    const Q = fromRows([
      [0.5, 0.5],
      [2.2, 1.7],
      [4, 1],
      [-1, -1],
      [1, 1],
    ]);
    const p = predictMap({ key: {}, inputs: ["x1", "x2"], mean, spread, runs: other, scaling: mean.toJSON().inputs }, Q.data, Q.rows);
    expect(Array.from(p.mean)).toEqual(Array.from(mean.predict(Q)));
    expect(Array.from(p.spread)).toEqual(Array.from(spread.predict(Q)));
    expect(Array.from(p.runs!)).toEqual(Array.from(other.predict(Q)));
    expect(Array.from(p.extrapolated)).toEqual([0, 0, 1, 1, 0]);
  });

  it("needs every input and known factor values", () => {
    expect(() => gridCandidates(set, "x1=1", undefined)).toThrow(usage);
    expect(() => gridCandidates(set, "x1=1;x2=1", "f=zz")).toThrow(expect.objectContaining({ code: "E_UNKNOWN_MAP" }));
    expect(() => gridCandidates(set, "x1=1;x2=1", "x1=2")).toThrow(usage);
  });
});

describe("validation metrics", () => {
  it("computes Spearman's ρ with average ranks for ties", () => {
    expect(Array.from(averageRanks([3, 1, 3, 2]))).toEqual([3.5, 1, 3.5, 2]);
    expect(spearman([1, 2, 3, 4], [10, 20, 30, 40])).toBe(1);
    expect(spearman([1, 2, 3, 4], [4, 3, 2, 1])).toBe(-1);
    expect(spearman([1, 2, 3, 4, 5], [2, 1, 4, 3, 5])).toBeCloseTo(0.8, 12);
  });

  it("scores a ranking against the truth: top-1, regret, top-10, Pareto recall", () => {
    const objective = parseObjective("max-mean", "sd");
    const opts = {
      spreadKind: "sd" as const,
      precision: 0.05,
      level: 0.95,
      responseKind: "throughput" as const,
      secondsPerRun: 1,
      objective,
      pareto: parsePareto("mean,cv", objective, "throughput", "sd"),
    };
    const truth = evaluate({ mean: Float64Array.from([100, 90, 80, 70]), spread: Float64Array.from([10, 9, 1, 7]) }, opts);
    const pred = evaluate({ mean: Float64Array.from([85, 95, 80, 70]), spread: Float64Array.from([10, 9, 1, 7]) }, opts);
    const m = validateMap(pred, truth, [0, 1, 2, 3], objective, opts.pareto);
    expect(m.top1).toBe(0);
    expect(m.regret).toBeCloseTo(0.1, 12);
    expect(m.spearman).toBeCloseTo(0.8, 12);
    expect(m.top10).toBe(1);
    // True front (max mean, min cv): 0 (100, 0.1) and 2 (80, 0.0125); predicted front: 1 (95, 0.095) and 2.
    expect(m.paretoRecall).toBe(0.5);
    const self = validateMap(truth, truth, [0, 1, 2, 3], objective, opts.pareto);
    expect([self.top1, self.regret, self.spearman, self.top10, self.paretoRecall]).toEqual([1, 0, 1, 1, 1]);
  });

  it("holds out the same configurations for the same seed and map, and different ones for another seed", () => {
    const a = holdoutRows(864, 0.5, "1", '["fread"]');
    expect(a.test.length).toBe(432);
    expect(Array.from(holdoutRows(864, 0.5, "1", '["fread"]').test)).toEqual(Array.from(a.test));
    expect(Array.from(holdoutRows(864, 0.5, "2", '["fread"]').test)).not.toEqual(Array.from(a.test));
    expect(new Set([...a.train, ...a.test]).size).toBe(864);
  });
});
