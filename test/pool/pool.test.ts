// The bulk engine: keyed randomness, task plans and shards, the result store, and whole jobs on the pool —
// identical outputs for any worker count, for 3 shards merged, and after a kill -9 and rerun.
import { describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { appendFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { divisionStream, parseFractions, randomDivision, trainSize } from "../../ts/cv/divisions.js";
import { parseShard, shardTasks } from "../../ts/pool/plan.js";
import { loadJob } from "../../ts/jobs/index.js";
import { readRecords, ResultStore } from "../../ts/pool/store.js";
import { packMaps } from "../../ts/data/shared-maps.js";
import { cvPlan, cvTasks, job as cvJob } from "../../ts/jobs/cv.js";
import { runJob } from "../../ts/pool/job.js";
import { mergeShards } from "../../ts/pool/merge.js";
import { parseShard as shard } from "../../ts/pool/plan.js";
import { gridMaps } from "./fixtures.js";
import { packageRoot } from "../../ts/package-root.js";

const tmp = (): string => mkdtempSync(join(tmpdir(), "varmap-pool-"));

/** Every file of an output directory except the run log, as name → contents. */
function outputs(dir: string): Record<string, string> {
  const o: Record<string, string> = {};
  for (const f of readdirSync(dir).sort()) if (f !== "run-log.json") o[f] = readFileSync(join(dir, f), "utf8");
  return o;
}

describe("keyed generator and divisions", () => {
  it("keys divisions by (seed, map, p, rep)", () => {
    const draw = (seed: string, map: string, p: number, rep: number) => Array.from(randomDivision(200, p, divisionStream(seed, map, p, rep)).train);
    const a = draw("5", "m", 0.3, 3);
    expect(draw("5", "m", 0.3, 3)).toEqual(a);
    expect(draw("5", "m", 0.3, 4)).not.toEqual(a);
    expect(draw("6", "m", 0.3, 3)).not.toEqual(a);
    expect(draw("5", "n", 0.3, 3)).not.toEqual(a);
  });
  it("draws each point into training with probability p", () => {
    const hits = new Array(50).fill(0);
    for (let rep = 0; rep < 4000; rep++) for (const i of randomDivision(50, 0.2, divisionStream("1", "u", 0.2, rep)).train) hits[i]++;
    for (const h of hits) expect(Math.abs(h - 800)).toBeLessThan(130); // ≈ 5 sd of Binomial(4000, 0.2)
  });
  it("divides with round(p·n) training points, ascending, disjoint, covering", () => {
    expect([0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9].map((p) => trainSize(864, p))).toEqual([86, 173, 259, 346, 432, 518, 605, 691, 778]);
    const { train, test } = randomDivision(100, 0.37, divisionStream("9", "x", 0.37, 1));
    expect(train.length).toBe(37);
    const all = [...train, ...test].sort((x, y) => x - y);
    expect(all).toEqual([...Array(100).keys()]);
    for (let i = 1; i < train.length; i++) expect(train[i]).toBeGreaterThan(train[i - 1]);
  });
});

describe("plans and shards", () => {
  it("parses fraction ranges without float drift", () => {
    expect(parseFractions("0.1:0.9:0.1")).toEqual([0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]);
    expect(parseFractions("0.5,0.25")).toEqual([0.5, 0.25]);
    expect(() => parseFractions("0:1:0.5")).toThrow(/training fraction 0 is not strictly between 0 and 1/);
    expect(() => parseFractions("0.5:0.1:0.1")).toThrow(/not a list of training fractions/);
  });
  it("splits the task list into disjoint shards whose union is the list", () => {
    const maps = packMaps(gridMaps(2, 3));
    const { plan } = cvPlan(maps, { methods: ["mean", "lr"], response: "linear", ps: [0.2, 0.8], reps: 60, seed: "1" });
    const all = cvTasks(plan).map((t) => t.id);
    expect(new Set(all).size).toBe(all.length);
    expect(all.length).toBe(2 * 2 * 2 * 3); // maps × methods × p × ceil(60 / 25)
    const parts = [1, 2, 3].map((i) => shardTasks(cvTasks(plan), { index: i, count: 3 }).map((t) => t.id));
    expect(parts.flat().sort()).toEqual([...all].sort());
    expect(parseShard("2/3")).toEqual({ index: 2, count: 3 });
    for (const bad of ["0/3", "4/3", "x", "1/0"]) expect(() => parseShard(bad)).toThrow(/--shard/);
  });
});

describe("result store", () => {
  it("drops a line a killed writer left unfinished, and appends after it cleanly", () => {
    const dir = tmp();
    const m = { job: 1 };
    const s = new ResultStore(dir, m, { resume: true, outputs: [] });
    s.append([
      { id: "a", result: 1 },
      { id: "b", result: 2 },
    ]);
    s.close();
    appendFileSync(join(dir, "journal.jsonl"), '{"id":"c","res');
    const s2 = new ResultStore(dir, m, { resume: true, outputs: [] });
    expect([...s2.done.keys()]).toEqual(["a", "b"]);
    s2.append([{ id: "c", result: 3 }]);
    s2.close();
    expect(readRecords(join(dir, "journal.jsonl")).map((r) => r.id)).toEqual(["a", "b", "c"]);
  });
  it("refuses to resume into another job's directory, and starts over with resume off", () => {
    const dir = tmp();
    new ResultStore(dir, { job: 1 }, { resume: true, outputs: [] }).append([{ id: "a", result: 1 }]);
    expect(() => new ResultStore(dir, { job: 2 }, { resume: true, outputs: [] })).toThrow(/different job/);
    expect(new ResultStore(dir, { job: 2 }, { resume: false, outputs: [] }).done.size).toBe(0);
  });
});

describe("jobs on the pool", () => {
  const maps = packMaps(gridMaps(3, 5));
  const { plan } = cvPlan(maps, { methods: ["mean"], response: "linear", ps: [0.2, 0.5, 0.8], reps: 60, seed: "3" });
  const run = (out: string, workers: number, s?: string) =>
    runJob(cvJob, { maps, plan }, { out, workers, resume: true, quiet: true, label: "cv", shard: s ? shard(s) : undefined });

  it("writes the same files with 1 and 2 workers as in-process", async () => {
    const [d0, d1, d2] = [tmp(), tmp(), tmp()];
    await run(d0, 0);
    await run(d1, 1);
    await run(d2, 2);
    const o = outputs(d0);
    expect(Object.keys(o)).toEqual(["are.csv", "manifest.json", "results.jsonl", "table2.csv", "table2.md"]);
    expect(outputs(d1)).toEqual(o);
    expect(outputs(d2)).toEqual(o);
    expect(o["are.csv"].split("\n")[1]).toMatch(/^s0,m0,mean,0.2,60,0,0\.1\d+,0\.0\d+,/);
  });

  it("3 shards merged write exactly what one unsharded run writes", async () => {
    const whole = tmp();
    await run(whole, 2);
    const shards = [tmp(), tmp(), tmp()];
    for (let i = 0; i < 3; i++) await run(shards[i], 1, `${i + 1}/3`);
    expect(existsSync(join(shards[0], "table2.md"))).toBe(false);
    const merged = tmp();
    await expect(mergeShards(shards.slice(0, 2), merged, loadJob)).rejects.toThrow(/missing/);
    await mergeShards([shards[2], shards[0], shards[1]], merged, loadJob);
    expect(outputs(merged)).toEqual(outputs(whole));
  });

  it("a rerun after kill -9 part-way completes to byte-identical outputs", async () => {
    const script = join(packageRoot(), "test", "pool", "job-script.ts");
    const args = (out: string) => ["--import", "tsx", script, out, "2", "mean", "8", "250"];
    const ref = tmp();
    const runTo = (out: string) =>
      new Promise<number>((resolve) => spawn(process.execPath, args(out), { stdio: "ignore" }).on("exit", (c) => resolve(c ?? -1)));
    expect(await runTo(ref)).toBe(0);
    const out = tmp();
    const child = spawn(process.execPath, args(out), { stdio: "ignore" });
    const journal = join(out, "journal.jsonl");
    await new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        if (existsSync(journal) && readFileSync(journal, "utf8").split("\n").length > 10) {
          clearInterval(poll);
          child.kill("SIGKILL");
          resolve();
        }
      }, 5);
    });
    await new Promise((r) => child.on("exit", r));
    expect(existsSync(join(out, "results.jsonl"))).toBe(false); // killed before it finished
    const before = readRecords(journal).length;
    expect(before).toBeGreaterThan(0);
    writeFileSync(join(out, "journal.jsonl"), readFileSync(journal, "utf8") + '{"id":"cv/0/me'); // and a torn last line
    expect(await runTo(out)).toBe(0);
    expect(outputs(out)).toEqual(outputs(ref));
    expect(JSON.parse(readFileSync(join(out, "run-log.json"), "utf8")).resumed).toBe(before);
  });

  it("given splits: ARE per p over the given divisions and predictions in the cv --predictions format", async () => {
    const one = packMaps(gridMaps(1, 4));
    const ids = [Array.from({ length: 64 }, (_, i) => 1000 + i)];
    const splits = {
      source: "inline",
      n: 64,
      splits: [
        { p: 0.5, rep: 0, train: Array.from({ length: 32 }, (_, i) => 1000 + 2 * i) },
        { p: 0.25, rep: 0, train: Array.from({ length: 16 }, (_, i) => 1000 + 4 * i) },
      ],
    };
    const { plan, givenTrain } = cvPlan(one, { methods: ["mean"], response: "linear", splits, predictions: true, ids });
    const out = tmp();
    await runJob(cvJob, { maps: one, plan, givenTrain, ids }, { out, workers: 0, resume: true, quiet: true, label: "cv" });
    const pred = readFileSync(join(out, "predictions.csv"), "utf8").trim().split("\n");
    expect(pred[0]).toBe("sched,mode,p,rep,index,prediction,extrapolated,distance,clamped");
    expect(pred.length).toBe(1 + 32 + 48);
    expect(pred[1]).toMatch(/^s0,m0,0\.5,0,1001,/);
    // The constant baseline predicts the training mean: check one value by hand.
    const y = gridMaps(1, 4)[0].y;
    let s = 0;
    for (let i = 0; i < 64; i += 2) s += y[i];
    expect(Number(pred[1].split(",")[5])).toBeCloseTo(s / 32, 6);
    const are = readFileSync(join(out, "are.csv"), "utf8").trim().split("\n");
    expect(are.map((l) => l.split(",").slice(2, 6).join(","))).toEqual(["method,p,reps,failed", "mean,0.25,1,0", "mean,0.5,1,0"]);
  });
});
