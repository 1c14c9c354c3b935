// The verbs issue 39 moved out of ts/cli last (merge, predict, the distribution target, summary, report, plot,
// demo, doctor, bench, whatif) run from the library with typed options, like test/verbs/library.test.ts: on one synthetic
// MOANA map sliced to 90 configurations. Outputs are checked against what the verb wrote and against each other.
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import {
  runBench,
  runCv,
  runCvDistribution,
  runDemo,
  runDoctor,
  runFit,
  runFitDistribution,
  runMerge,
  runPlot,
  runPredict,
  runPredictDistribution,
  runReport,
  runSummarize,
  runSummary,
  runWhatif,
  type CvOptions,
  type LoadOptions,
  type PredictOptions,
} from "../../ts/index.js";
import { modelsKind } from "../../ts/verbs/predict.js";
import { writeSynth } from "../../ts/data/synth.js";
import { FAMILY_NAMES } from "../../ts/mixture/families.js";

const dir = mkdtempSync(join(tmpdir(), "varmap-verbs2-"));
const runs = join(dir, "runs.csv");
const slice: LoadOptions = { preset: "moana", where: "threads <= 2 AND fsize_kb <= 256" };
const at = join(dir, "at.csv");
const quiet = { workers: 0, quiet: true };
const dist = { weights: "delaunay", moments: "weights", levels: 20, smooth: "none", positions: "type7", featureWeights: "none" } as const;
const lines = (p: string) => readFileSync(p, "utf8").trim().split("\n");

beforeAll(async () => {
  await writeSynth(runs, { design: "moana", seed: 3, maps: 1 });
  // The slice's configurations (factor and input columns, then statistics predict ignores) as the --at table.
  await runSummarize(runs, { data: slice, out: at, quiet: true });
});

describe("the moved verbs from the library", () => {
  it("runFit then runPredict: every configuration, intervals around the predictions, the CSV without out", async () => {
    const models = join(dir, "lr.json");
    await runFit(runs, { data: slice, method: "lr", conformalFolds: 5, out: models, quiet: true });
    expect(modelsKind(models)).toBe("statistic");
    const options: PredictOptions = { at, interval: 0.9, out: join(dir, "pred.csv") };
    const s = await runPredict(models, options);
    expect(s.predictions).toBe(90);
    expect(Object.keys(s.methods)).toEqual(["lr"]);
    const [head, ...rows] = lines(options.out!);
    const col = head.split(",");
    const [p, lo, hi] = ["prediction", "lo", "hi"].map((c) => col.indexOf(c));
    expect(rows).toHaveLength(90);
    for (const r of rows) {
      const v = r.split(",").map(Number);
      expect(v[lo]).toBeLessThanOrEqual(v[p]);
      expect(v[p]).toBeLessThanOrEqual(v[hi]);
    }
    const stdout = await runPredict(models, { at, interval: 0.9 });
    expect(stdout.out).toBeNull();
    expect(stdout.csv?.trim().split("\n")).toHaveLength(91);
    await expect(runPredict(models, { at, interval: 1.5 })).rejects.toMatchObject({ code: "E_USAGE" });
  });

  it("runFitDistribution, runPredictDistribution: quantiles per configuration, ordered in the summary table", async () => {
    const models = join(dir, "dist.json");
    const f = await runFitDistribution(runs, { data: slice, dist: "quantile", ...dist, out: models, quiet: true });
    expect(f.models.maps).toHaveLength(1);
    expect(modelsKind(models)).toBe("distribution");
    const s = await runPredictDistribution(models, { at, families: [...FAMILY_NAMES], out: join(dir, "q.csv") });
    expect(s.distributions).toBe(90);
    expect(lines(s.out!).length - 1).toBeGreaterThanOrEqual(90 * 19); // up to 21 levels j/20 per configuration
    const [head, ...rows] = lines(s.summaryOut!);
    const col = head.split(",");
    for (const r of rows) {
      const v = r.split(",");
      expect(Number(v[col.indexOf("q05")])).toBeLessThanOrEqual(Number(v[col.indexOf("q50")]));
      expect(Number(v[col.indexOf("q50")])).toBeLessThanOrEqual(Number(v[col.indexOf("q95")]));
    }
    await expect(runPredictDistribution(models, { at, families: [], gridPoints: 1 })).rejects.toMatchObject({ code: "E_USAGE" });
  });

  it("runCvDistribution: the KS job on the engine, its Markdown in the summary", async () => {
    const out = join(dir, "distcv");
    const s = await runCvDistribution(runs, { data: slice, dists: ["quantile", "normal"], ...dist, p: [0.5], reps: 1, seed: "2", out, run: quiet });
    expect(s.files).toContain("ks.csv");
    expect(String(s.summary?.markdown)).toBe(readFileSync(join(out, "ks.md"), "utf8"));
    await expect(runCvDistribution(runs, { data: slice, dists: ["quantile"], ...dist, reps: 0, out })).rejects.toMatchObject({ code: "E_USAGE" });
  });

  it("runSummary: the models' terms, and the in-sample fit given the data", async () => {
    const s = await runSummary(join(dir, "lr.json"), { data: { file: runs, load: slice } });
    expect(s.maps).toHaveLength(1);
    expect(s.maps[0].method).toBe("lr");
    expect(s.maps[0].rows).toBe(90);
    expect(s.maps[0].inSample!.rsq).toBeLessThanOrEqual(1);
    expect(s.text).toContain("In-sample (90 configurations");
    expect((await runSummary(join(dir, "lr.json"))).maps[0].inSample).toBeUndefined();
  });

  it("runMerge: two shards of a cv merge into the unsharded run's Table 2; runReport and runPlot draw it", async () => {
    const cv = (out: string, index?: number): CvOptions => ({
      data: slice,
      methods: ["lr", "mean"],
      p: [0.5],
      reps: 2,
      seed: 5,
      out: join(dir, out),
      run: { ...quiet, ...(index ? { shard: { index, count: 2 } } : {}) },
    });
    const whole = await runCv(runs, cv("whole"));
    await runCv(runs, cv("s1", 1));
    await runCv(runs, cv("s2", 2));
    const m = await runMerge([join(dir, "s1"), join(dir, "s2")], { out: join(dir, "merged") });
    expect(m.shards).toBe(2);
    expect(m.tasks).toBe(whole.tasks);
    expect(readFileSync(join(dir, "merged", "table2.md"), "utf8")).toBe(readFileSync(join(dir, "whole", "table2.md"), "utf8"));
    await expect(runMerge([join(dir, "s1")], { out: "" })).rejects.toMatchObject({ code: "E_USAGE" });

    const r = await runReport(join(dir, "merged"), { out: join(dir, "report.html"), data: runs, dataOptions: slice, static: true, quiet: true });
    expect(r.kind).toBe("cv");
    expect(r.figures).toBeGreaterThan(0);
    expect(r.bytes).toBe(readFileSync(r.out).length);
    await expect(runReport(join(dir, "merged"), { out: join(dir, "r.html"), configs: 37 })).rejects.toMatchObject({ code: "E_USAGE" });
    expect(existsSync(join(dir, "r.html"))).toBe(false);

    const p = await runPlot("are", join(dir, "merged", "are.csv"), { out: join(dir, "are.vl.json") });
    expect(JSON.parse(readFileSync(p.out, "utf8")).$schema).toMatch(/vega-lite/);
    await expect(runPlot("are", join(dir, "merged", "are.csv"), { out: join(dir, "are.svg"), width: 800 })).rejects.toMatchObject({ code: "E_USAGE" });
  });

  it("runWhatif: candidates ranked from fitted models, and the holdout job validating lr on the engine", async () => {
    const mean = join(dir, "mean.json");
    const sd = join(dir, "sd.json");
    await runFit(runs, { data: { ...slice, stat: "mean" }, method: "lr", out: mean, quiet: true });
    await runFit(runs, { data: { ...slice, stat: "sd" }, method: "lr", out: sd, quiet: true });
    const ranked = await runWhatif(undefined, { mean, spread: sd, at, top: 5, quiet: true });
    if (ranked.shard !== null) throw new Error("not a shard");
    expect(ranked.json.runs[0].candidates).toBe(90);
    expect(ranked.csv?.trim().split("\n")).toHaveLength(6);
    const out = join(dir, "holdout", "whatif.csv");
    const h = await runWhatif(runs, { data: slice, holdout: 0.3, methods: ["lr"], seed: "5", out, run: { workers: 0 }, quiet: true });
    if (h.shard !== null) throw new Error("not a shard");
    expect(h.json.metrics?.map((m) => m.method)).toEqual(["lr"]);
    expect(existsSync(join(dir, "holdout", "whatif-validation.csv"))).toBe(true);
    await expect(runWhatif(undefined, { mean, spread: sd, at, top: 0 })).rejects.toMatchObject({ code: "E_USAGE" });
  });

  it("runDoctor: every self-test passes on this install, the text says so", async () => {
    const s = await runDoctor();
    expect(s.ok).toBe(true);
    expect(s.tests.length).toBeGreaterThan(0);
    expect(s.tests.every((t) => t.ok)).toBe(true);
    expect(s.text).toContain("self-test:");
  });

  it("runBench: one suite on the TypeScript baseline; an unknown backend refused", async () => {
    const s = await runBench({ kernels: ["sqdist"], cases: "n=864", targets: ["ts"], maxTime: 0.02, quiet: true });
    expect(s.report.results).toHaveLength(1);
    expect(s.report.results[0]).toMatchObject({ kernel: "sqdist", case: "q=864 n=864 d=4", target: "ts" });
    expect(s.report.results[0].itemsPerSec).toBeGreaterThan(0);
    expect(s.text).toContain("sqdist");
    await expect(runBench({ targets: ["gpu" as never], maxTime: 1 })).rejects.toMatchObject({ code: "E_USAGE" });
  });

  it("runDemo: a seed that is no integer is refused before anything is written", async () => {
    const out = join(dir, "demo");
    await expect(runDemo({ out, seed: "x", quiet: true })).rejects.toMatchObject({ code: "E_USAGE" });
    expect(existsSync(out)).toBe(false);
  });
});
