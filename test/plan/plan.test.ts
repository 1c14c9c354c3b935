// `varmap plan` (issue 43): the planner's batches, sequential stopping and replay on a small synthetic dataset
// (the looser bars of bench/plan-replay-workload.ts), and `--exec` end to end: a benchmark script drawing from a
// known variability model, SIGKILLed mid-campaign and restarted, ends with the same runs file as an uninterrupted
// campaign; bad input exits 2 with a coded error and writes nothing.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { counterRng } from "../../ts/data/random.js";
import type { ConfigTable } from "../../ts/data/types.js";
import { planStep, type PlanStepOptions } from "../../ts/plan/planner.js";
import { replay } from "../../ts/plan/replay.js";
import { gridSpace, tableSpace } from "../../ts/plan/space.js";
import { uncertaintySource } from "../../ts/plan/uncertainty.js";
import { compareCurves } from "../../ts/verbs/plan.js";
import { parseJsonPath, resultReader } from "../../ts/plan/results.js";
import { planSpec } from "../../ts/report/plots/plan.js";
import { cliBuilt, cliIn, cliPath } from "../helpers/cli.js";

const rule = { stat: "sd" as const, precision: 0.1, level: 0.9, minRuns: 10, maxRuns: 40, against: "cap" as const };

/** A 12 × 12 grid, 40 runs each: sd = smooth bump × lognormal-free normal runs (known model). */
function synthetic(): ConfigTable {
  const side = 12;
  const count = side * side;
  const inputs = new Float64Array(count * 2);
  const runs = new Float64Array(count * 40);
  const offsets = new Int32Array(count + 1);
  for (let c = 0; c < count; c++) {
    const a = c % side,
      b = Math.floor(c / side);
    inputs[c * 2] = a;
    inputs[c * 2 + 1] = b;
    const sd = 5 + 20 * Math.exp(-((a - 8) ** 2 + (b - 3) ** 2) / 10) + 0.5 * a;
    const r = counterRng(7, "plan-test", c);
    for (let i = 0; i < 40; i++) runs[c * 40 + i] = 1000 + sd * r.normal();
    offsets[c + 1] = (c + 1) * 40;
  }
  return { source: "synthetic", roles: { factors: [], inputs: ["a", "b"], response: "y", run: "run" }, count, factorValues: [], inputs, runs, offsets };
}

describe("planner", () => {
  const space = gridSpace("mode=read,write;threads=1,2,4,8,16;rsize=4,16,64,256,1024", ["mode"], ["threads", "rsize"]);
  const opts: PlanStepOptions = { rule, budgetRuns: 2000, batchRuns: 100, source: uncertaintySource("committee"), method: "rbf", seed: 3 };

  it("starts with a space-filling batch over every map, the same for the same seed", () => {
    const empty = Array.from({ length: space.count }, () => [] as number[]);
    const s = planStep(space, empty, new Uint8Array(space.count), 0, opts);
    expect(s.firstBatch).toBe(true);
    const perMap = [0, 0];
    for (const r of s.batch) perMap[space.map[r.config]]++;
    expect(Math.min(...perMap)).toBeGreaterThanOrEqual(4); // d + 2
    expect(s.batch.every((r) => r.runs === 10)).toBe(true);
    expect(new Set(s.batch.map((r) => r.config)).size).toBe(s.batch.length);
    expect(planStep(space, empty, new Uint8Array(space.count), 0, opts).batch).toEqual(s.batch);
    // Corners first: the design reaches the grid's extremes.
    const rs = s.batch.map((r) => space.X[r.config * 2 + 1]);
    expect(rs).toContain(4);
    expect(rs).toContain(1024);
  });

  it("--fill-first: space-filling batches, away from the measured configurations, until that share is measured", () => {
    const runs = Array.from({ length: space.count }, () => [] as number[]);
    const r = counterRng(5, "plan-fill");
    const measured = [0, 6, 12, 18, 24, 4, 20, 25, 31, 37, 43, 49, 29, 45];
    for (const c of measured) for (let i = 0; i < 10; i++) runs[c].push(100 + (c === 0 ? 40 : 2) * r.normal());
    const fill = planStep(space, runs, new Uint8Array(space.count), 1, { ...opts, fillFirst: 0.5 });
    expect(fill.firstBatch).toBe(true);
    expect(fill.batch.length).toBeGreaterThan(0);
    expect(fill.batch.every((b) => b.reason.startsWith("space-filling") && !measured.includes(b.config))).toBe(true);
    // 14 of 50 measured: below 0.5 it fills, at 0.25 the model plans.
    expect(planStep(space, runs, new Uint8Array(space.count), 1, { ...opts, fillFirst: 0.25 }).firstBatch).toBe(false);
  });

  it("later batches explore by uncertainty and top up configurations short of the precision; converged ones get nothing", () => {
    const runs = Array.from({ length: space.count }, () => [] as number[]);
    const r = counterRng(5, "plan-runs");
    const measured = [0, 6, 12, 18, 24, 4, 20, 25, 31, 37, 43, 49, 29, 45];
    for (const c of measured) for (let i = 0; i < 10; i++) runs[c].push(100 + (c === 0 ? 40 : 2) * r.normal());
    for (let i = 0; i < 30; i++) runs[6].push(100 + 2 * r.normal());
    const s = planStep(space, runs, new Uint8Array(space.count), 1, opts);
    expect(s.firstBatch).toBe(false);
    expect(s.batch.reduce((a, b) => a + b.runs, 0)).toBeLessThanOrEqual(100);
    expect(s.batch.some((b) => b.reason.startsWith("explore"))).toBe(true);
    expect(s.batch.every((b) => Number.isFinite(b.expectedGain) && b.expectedGain > 0)).toBe(true);
    expect(s.batch.find((b) => b.config === 6)).toBeUndefined(); // 40 runs: at the cap
    expect(s.estimate.converged[6]).toBe(1);
    const topped = s.batch.filter((b) => measured.includes(b.config));
    for (const b of topped) expect(b.reason).toMatch(/^precision: CI ±/);
    expect(Number.isFinite(s.predictedMapError)).toBe(true);
  });

  it("replays a campaign: adaptive at half the runs is close to the random 40-runs order (looser bar), stopping saves runs", () => {
    const t = synthetic();
    const sp = tableSpace(t, []);
    const r = replay(sp, t, {
      rule,
      budgetRuns: t.offsets[t.count],
      batchRuns: 144,
      source: uncertaintySource("committee"),
      method: "rbf",
      seed: 1,
      reps: 2,
      maxSpent: Math.round(0.6 * t.offsets[t.count]),
    });
    const cmp = compareCurves(r.curve, t.offsets[t.count]);
    expect(cmp.halfBudget.length).toBeGreaterThanOrEqual(5);
    // The bench's bar is adaptive(B/2) ≤ random(B); here, on 144 configurations and 2 replays, within 25 %.
    for (const h of cmp.halfBudget) expect(h.adaptiveAtHalf, `B = ${h.fraction}`).toBeLessThanOrEqual(1.25 * h.random);
    expect(r.stopping!.saved).toBeGreaterThanOrEqual(0.2);
    expect(r.stopping!.withinPrecision).toBeGreaterThanOrEqual(0.8);
    // Reproducible.
    const again = replay(sp, t, {
      rule,
      budgetRuns: t.offsets[t.count],
      batchRuns: 144,
      source: uncertaintySource("conformal"),
      method: "rbf",
      seed: 1,
      reps: 1,
      maxSpent: 1000,
    });
    const again2 = replay(sp, t, {
      rule,
      budgetRuns: t.offsets[t.count],
      batchRuns: 144,
      source: uncertaintySource("conformal"),
      method: "rbf",
      seed: 1,
      reps: 1,
      maxSpent: 1000,
    });
    expect(again2.curve).toEqual(again.curve);
  });
});

describe("plot plan", () => {
  it("draws one line per strategy from the replay's curves table", () => {
    const rows = [
      { strategy: "adaptive", fraction: 0.1, are: 0.08 },
      { strategy: "random", fraction: 0.1, are: 0.1 },
      { strategy: "adaptive", fraction: 0.2, are: 0.06 },
    ];
    const spec = planSpec(rows) as unknown as { data: { values: { strategy: string; are: number }[] } };
    expect(spec.data.values.map((v) => v.strategy)).toEqual(["adaptive", "random", "adaptive"]);
    expect(spec.data.values[0].are).toBeCloseTo(8);
    expect(() => planSpec([])).toThrow(/no finite ARE/);
  });
});

describe("result readers", () => {
  it("reads a number on stdout or at a JSON path, and says why it cannot", () => {
    expect(resultReader("stdout")({ stdout: "warming up\n 42.5 \n", stderr: "", status: 0 })).toBe(42.5);
    expect(() => resultReader("stdout")({ stdout: "", stderr: "", status: 0 })).toThrow(/printed nothing/);
    expect(parseJsonPath("jobs[0].read.bw")).toEqual(["jobs", 0, "read", "bw"]);
    expect(resultReader("json:jobs[0].read.bw")({ stdout: JSON.stringify({ jobs: [{ read: { bw: 123 } }] }), stderr: "", status: 0 })).toBe(123);
    expect(() => resultReader("json:jobs[1].read.bw")({ stdout: "{}", stderr: "", status: 0 })).toThrow(/no jobs\[1\]/);
    expect(() => resultReader("nosuch:read.bw")).toThrow(/no result reader 'nosuch'/);
  });
});

const script = join(import.meta.dirname, "bench-script.sh");
const GRID = "threads=1,2,4,8;rsize_kb=4,64,1024";
const campaign = (runsFile: string) => [
  "plan",
  "--grid",
  GRID,
  "--budget-runs",
  "60",
  "--batch-runs",
  "20",
  "--min-runs",
  "4",
  "--max-runs",
  "10",
  "--precision",
  "0.2",
  "--exec",
  `sh ${script} {threads} {rsize_kb} {run} 2`,
  "--runs",
  runsFile,
];

describe.skipIf(!cliBuilt)("plan --exec", () => {
  it("a campaign SIGKILLed mid-way and restarted ends with the runs file of an uninterrupted one; failures retried once", async () => {
    const dir = mkdtempSync(join(tmpdir(), "varmap-plan-"));
    const varmap = cliIn(dir);
    const whole = varmap(...campaign("whole.csv"), "--quiet");
    expect(whole.code, whole.err).toBe(0);
    const wholeText = readFileSync(join(dir, "whole.csv"), "utf8");
    expect(wholeText.trim().split("\n").length - 1).toBeGreaterThanOrEqual(50);
    expect(wholeText).not.toMatch(/^2,/m); // threads=2 always fails: never in the runs file
    const failures = readFileSync(join(dir, "whole.failures.csv"), "utf8");
    expect(failures).toMatch(/device busy at threads=2/);
    // Each failing configuration: two attempts at its first run, then marked failed.
    const journal = readFileSync(join(dir, "whole.csv.journal"), "utf8");
    const failedConfigs = journal.split("\n").filter((l) => l.includes('"failed-config"')).length;
    expect(failedConfigs).toBeGreaterThanOrEqual(1);
    expect(failures.trim().split("\n").length - 1).toBe(2 * failedConfigs);

    // Killed once 25 runs are in, then restarted.
    const file = join(dir, "killed.csv");
    await new Promise<void>((resolve) => {
      const child = spawn(process.execPath, [cliPath, ...campaign("killed.csv"), "--quiet"], { cwd: dir, stdio: "ignore" });
      const poll = setInterval(() => {
        const lines = existsSync(file) ? readFileSync(file, "utf8").split("\n").length : 0;
        if (lines >= 26) {
          clearInterval(poll);
          child.kill("SIGKILL");
        }
      }, 5);
      child.on("exit", () => {
        clearInterval(poll);
        resolve();
      });
    });
    const partial = readFileSync(file, "utf8");
    expect(partial.length).toBeLessThan(wholeText.length);
    const rerun = varmap(...campaign("killed.csv"), "--quiet");
    expect(rerun.code, rerun.err).toBe(0);
    expect(readFileSync(file, "utf8")).toBe(wholeText);
    // A third run has nothing left to do and appends nothing.
    expect(varmap(...campaign("killed.csv"), "--quiet").code).toBe(0);
    expect(readFileSync(file, "utf8")).toBe(wholeText);
  }, 120_000);

  it("--slurm-dir: each batch becomes a job array; the campaign continues from the tasks' results, as if run here", () => {
    const dir = mkdtempSync(join(tmpdir(), "varmap-plan-"));
    const varmap = cliIn(dir);
    const args = [...campaign("slurm.csv"), "--slurm-dir", "jobs", "--quiet"];
    let batches = 0;
    for (;;) {
      const r = varmap(...args);
      expect(r.code, r.err).toBe(0);
      const script = join(dir, "jobs", `batch-${batches + 1}.sh`);
      if (!existsSync(script)) break;
      const tasks = Number(/--array=0-(\d+)/.exec(readFileSync(script, "utf8"))![1]) + 1;
      // Slurm's part: every array task, here one after the other.
      for (let t = 0; t < tasks; t++) expect(spawnSync("bash", [script], { cwd: dir, env: { ...process.env, SLURM_ARRAY_TASK_ID: String(t) } }).status).toBe(0);
      batches++;
      expect(batches).toBeLessThan(20);
    }
    expect(batches).toBeGreaterThanOrEqual(2);
    const here = varmap(...campaign("here.csv"), "--quiet");
    expect(here.code, here.err).toBe(0);
    expect(readFileSync(join(dir, "slurm.csv"), "utf8")).toBe(readFileSync(join(dir, "here.csv"), "utf8"));
  }, 120_000);

  it("--dry-run prints the commands and runs nothing", () => {
    const dir = mkdtempSync(join(tmpdir(), "varmap-plan-"));
    const r = cliIn(dir)(...campaign("dry.csv"), "--dry-run", "--quiet");
    expect(r.code, r.err).toBe(0);
    const lines = r.out.trim().split("\n");
    expect(lines.length).toBe(20);
    expect(lines[0]).toMatch(new RegExp(`^sh ${script} \\d+ \\d+ 1 2$`));
    expect(existsSync(join(dir, "dry.csv"))).toBe(false);
  });

  it("--budget-seconds with --time-column: gain per second favours cheap configurations, the batch fits the seconds left", () => {
    const dir = mkdtempSync(join(tmpdir(), "varmap-plan-"));
    const varmap = cliIn(dir);
    // Ten measured configurations of a 7 × 5 grid; a run costs rsize_kb / 64 seconds (0.06 s to 16 s).
    const measured = [
      [1, 4],
      [1, 1024],
      [64, 4],
      [64, 1024],
      [8, 64],
      [2, 16],
      [32, 256],
      [4, 1024],
      [16, 4],
      [8, 256],
    ];
    const lines = ["threads,rsize_kb,run,result,seconds"];
    let spent = 0;
    for (const [t, k] of measured) {
      const r = counterRng(5, "time-budget", t * 10000 + k);
      for (let i = 1; i <= 5; i++) {
        const sec = (k / 64) * (1 + 0.05 * r.next());
        spent += sec;
        lines.push(`${t},${k},${i},${1000 * t * (1 + 0.2 * r.next())},${sec}`);
      }
    }
    writeFileSync(join(dir, "m.csv"), lines.join("\n") + "\n");
    const grid = ["--grid", "threads=1,2,4,8,16,32,64;rsize_kb=4,16,64,256,1024", "--runs", "m.csv", "--min-runs", "5", "--batch-runs", "50"];
    const read = (f: string) => {
      const [h, ...rows] = readFileSync(join(dir, f), "utf8")
        .trim()
        .split("\n")
        .map((l) => l.split(","));
      return rows.map((r) => Object.fromEntries(h.map((c, i) => [c, r[i]])));
    };
    const perRun = (rows: Record<string, string>[]) =>
      rows.reduce((a, r) => a + Number(r.runs) * (Number(r.rsize_kb) / 64), 0) / rows.reduce((a, r) => a + Number(r.runs), 0);
    const t = varmap("plan", ...grid, "--budget-seconds", String(spent + 2000), "--time-column", "seconds", "--out", "t.csv", "--json");
    expect(t.code, t.err).toBe(0);
    const s = JSON.parse(t.out);
    expect(s.seconds.spent).toBeCloseTo(spent, 6);
    const r = varmap("plan", ...grid, "--budget-runs", "400", "--out", "r.csv");
    expect(r.code, r.err).toBe(0);
    const timed = read("t.csv"),
      byRuns = read("r.csv");
    expect(timed.length).toBeGreaterThan(0);
    // The same batch size in runs, at a lower cost per run than the run-budget plan's.
    expect(perRun(timed)).toBeLessThan(perRun(byRuns));
    expect(s.seconds.batch).toBeCloseTo(
      timed.reduce((a, x) => a + Number(x.seconds), 0),
      6,
    );
    // Few seconds left: the batch fits them.
    const few = varmap("plan", ...grid, "--budget-seconds", String(spent + 3), "--time-column", "seconds", "--out", "f.csv", "--json");
    expect(few.code, few.err).toBe(0);
    expect(JSON.parse(few.out).seconds.batch).toBeLessThanOrEqual(3 + 1e-9);
    const none = varmap("plan", ...grid, "--budget-seconds", String(spent - 1), "--time-column", "seconds", "--json", "--out", "n.csv");
    expect(JSON.parse(none.out)).toMatchObject({ batchRuns: 0, stop: "budget" });
    const bad = varmap("plan", ...grid, "--budget-seconds", "100", "--out", "x.csv");
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/E_USAGE.*--time-column/);
  });

  it("bad input: exit 2, a coded error, nothing written", () => {
    const dir = mkdtempSync(join(tmpdir(), "varmap-plan-"));
    const varmap = cliIn(dir);
    const cases: [string[], string][] = [
      [["plan", "--grid", "threads=;rsize_kb=4", "--budget-runs", "100"], "E_PLAN_EMPTY_SPACE"],
      [["plan", "--grid", "threads=1,2,4,8;rsize_kb=4,64,1024", "--budget-runs", "20"], "E_PLAN_BUDGET"],
      [["plan", "--grid", GRID, "--budget-runs", "60", "--exec", "sh bench {threads} {rsize}", "--runs", "c.csv"], "E_PLAN_TEMPLATE"],
    ];
    writeFileSync(join(dir, "other.csv"), "threads,fsize_kb,run,result\n1,4,1,10\n");
    cases.push([["plan", "--grid", GRID, "--budget-runs", "60", "--runs", "other.csv"], "E_PLAN_SPACE_MISMATCH"]);
    writeFileSync(join(dir, "elsewhere.csv"), "threads,rsize_kb,run,result\n3,4,1,10\n");
    cases.push([
      ["plan", "--grid", GRID, "--budget-runs", "60", "--exec", `sh ${script} {threads} {rsize_kb} {run}`, "--runs", "elsewhere.csv"],
      "E_PLAN_SPACE_MISMATCH",
    ]);
    for (const [args, code] of cases) {
      const r = varmap(...args, "--out", "batch.csv");
      expect(r.code, `${code}: ${r.err}`).toBe(2);
      expect(r.err).toContain(code);
      expect(existsSync(join(dir, "batch.csv"))).toBe(false);
    }
    expect(existsSync(join(dir, "c.csv"))).toBe(false);
    expect(readFileSync(join(dir, "elsewhere.csv"), "utf8")).toBe("threads,rsize_kb,run,result\n3,4,1,10\n");
    expect(existsSync(join(dir, "elsewhere.csv.journal"))).toBe(false);
  });
});
