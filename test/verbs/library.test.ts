// Every verb of ts/verbs/ runs from the library with typed options (issue 39): the same functions the CLI calls,
// on a small synthetic design (one MOANA map, 810 configurations × 40 runs; a 90-configuration slice for the
// per-configuration verbs). Outputs are checked against what the verb wrote and against each other.
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import {
  runConvergence,
  runCv,
  runGev,
  runInterference,
  runMixture,
  runRefit,
  runSamplesize,
  runSummarize,
  runEffects,
  runGevCompare,
  runGevCovariates,
  runImport,
  runPlan,
  runScreen,
  runSlurmMerge,
  runSlurmStatus,
  runSlurmSubmit,
  runSlurmWait,
  runSynth,
  type CvOptions,
  type LoadOptions,
} from "../../ts/index.js";
import { writeSynth } from "../../ts/data/synth.js";
import { packageRoot } from "../../ts/package-root.js";
import { writeInterferenceSynth } from "../../ts/interference/synth.js";
import { Command } from "commander";
import { loadCommands } from "../../ts/cli/commands/index.js";

const dir = mkdtempSync(join(tmpdir(), "varmap-verbs-"));
const runs = join(dir, "runs.csv");
const data: LoadOptions = { preset: "moana", stat: "sd" };
const slice: LoadOptions = { preset: "moana", where: "threads <= 2 AND fsize_kb <= 256" };
const quiet = { workers: 0, quiet: true };

beforeAll(async () => {
  await writeSynth(runs, { design: "moana", seed: 3, maps: 1 });
});

describe("the verbs from the library", () => {
  it("runCv: the Table 2 it returns is the one it wrote, one ARE per method", async () => {
    const options: CvOptions = { data, methods: ["lr", "lsp"], p: [0.5], reps: 2, seed: 7, out: join(dir, "cv"), run: quiet };
    const s = await runCv(runs, options);
    expect(s.shard).toBeNull();
    expect(s.tasks).toBeGreaterThan(0);
    expect(s.text).toBe(readFileSync(join(dir, "cv", "table2.md"), "utf8"));
    expect(s.maps).toHaveLength(1);
    const are = s.maps![0].methods;
    expect(Object.keys(are).sort()).toEqual(["lr", "lsp"]);
    for (const m of ["lr", "lsp"]) expect(are[m][0].are).toBeGreaterThan(0);
    // The same options again resume every task and return the same summary.
    const again = await runCv(runs, options);
    expect(again.resumed).toBe(again.tasks);
    expect(again.text).toBe(s.text);
  });

  it("runRefit: models for every map, no mixtures when asked", async () => {
    const s = await runRefit(runs, { data, methods: ["lr"], mixtures: false, out: join(dir, "refit"), run: quiet });
    expect(s.files).toContain("models.json");
    const models = JSON.parse(readFileSync(join(dir, "refit", "models.json"), "utf8"));
    expect(JSON.stringify(models)).toContain('"lr"');
    expect(existsSync(join(dir, "refit", "distributions.csv"))).toBe(false);
    expect(s.text).toContain(`Outputs in ${join(dir, "refit")}`);
  });

  it("runMixture: one best fit per configuration, the tables in the summary", async () => {
    const out = join(dir, "mix.csv");
    const s = await runMixture(runs, { data: slice, kmax: 2, out, run: quiet });
    expect(s.fits?.configurations).toBe(90);
    const lines = readFileSync(out, "utf8").trim().split("\n");
    expect(lines.length - 1).toBe(90 * 2); // one family (loglogistic) × k = 1, 2
    expect(lines.filter((l) => l.endsWith(",true")).length).toBe(90);
    expect(s.text).toContain("Mixtures of 90 configurations");
  });

  it("runGev: a table file fitted in this thread, and the same rows as a job directory", async () => {
    const file = await runGev(runs, { data: slice, out: join(dir, "gev.csv"), run: { quiet: true } });
    expect("configurations" in file && file.configurations).toBe(90);
    const job = await runGev(runs, { data: slice, out: join(dir, "gev"), run: quiet });
    expect("tasks" in job && job.tasks).toBeGreaterThan(0);
    const rows = (p: string) => readFileSync(p, "utf8").trim().split("\n").length;
    expect(rows(join(dir, "gev", "gev.csv"))).toBe(rows(join(dir, "gev.csv")));
  });

  it("runSamplesize: runs needed per configuration, the table and the summary agree", async () => {
    const out = join(dir, "ss.csv");
    const settings = {
      qs: [0.1, 0.9],
      taus: [0.5, 0.1],
      method: "delta" as const,
      information: "expected" as const,
      center: "none" as const,
      density: "model" as const,
      reps: 400,
      seed: 1,
      stats: ["q", "mean"],
      precision: 0.05,
      level: 0.95,
      model: { kind: "best-unfloored" as const },
    };
    const s = await runSamplesize(runs, { data: slice, settings, ns: [1, 10, 100], families: ["loglogistic"], kmax: 2, out, run: quiet });
    const summary = s.json as { configurations: number; medianNeeded: number[] };
    expect(summary.configurations).toBe(90);
    expect(readFileSync(out, "utf8").trim().split("\n").length - 1).toBe(90);
    // A tighter threshold never needs fewer runs.
    expect(summary.medianNeeded[1]).toBeGreaterThanOrEqual(summary.medianNeeded[0]);
  });

  it("runConvergence: the 75% point comes no later than the 90% point", async () => {
    const curve = { kind: "sd" as const, level: 0.9, m0: 10, levels: [0.75, 0.9], mode: "average" as const, reps: 20, seed: 1, precision: 0.05 };
    const s = await runConvergence(runs, { data: slice, curve, out: join(dir, "conv.csv"), run: quiet });
    const m = (s.json as { median: Record<string, number> }).median;
    expect(m.m_0_75 ?? m["m_0.75"]).toBeLessThanOrEqual(m.m_0_9 ?? m["m_0.9"]);
  });

  it("runInterference: one pair row per interfered instance, degradations in the summary", async () => {
    const file = join(dir, "interference.csv");
    await writeInterferenceSynth(file, 1);
    const columns = { experiment: "experiment", app: "app", instance: "instance", factors: ["fs", "chunk_mib", "procs"], run: "rep", response: "bw_gbps" };
    const s = await runInterference(file, { columns, metric: "throughput", out: join(dir, "int", "pairs.csv"), run: quiet });
    expect(s.shard).toBe(false);
    const pairs = readFileSync(join(dir, "int", "pairs.csv"), "utf8")
      .trim()
      .split("\n");
    expect(pairs.length).toBeGreaterThan(1);
    expect(!s.shard && s.summary.metric).toBe("throughput");
  });

  it("runSummarize and runSynth: the synthetic map summarized, a second synth byte for byte the same", async () => {
    const s = await runSummarize(runs, { data, out: join(dir, "configs.csv"), quiet: true });
    expect(s.configurations).toBe(810);
    expect(s.runs).toBe(810 * 40);
    expect(s.text).toContain("1 map(s), 810 configuration(s)");
    const again = await runSynth({ design: "moana", seed: 3, maps: 1, out: join(dir, "again.csv"), workers: 2, quiet: true });
    expect(again.rows).toBe(810 * 40);
    expect(readFileSync(join(dir, "again.csv"), "utf8")).toBe(readFileSync(runs, "utf8"));
  });

  it("runSlurmSubmit and runSlurmStatus: a dry run writes the scripts, every shard is then missing", async () => {
    const registrations = await loadCommands("cv");
    const newProgram = () => {
      const program = new Command("varmap");
      for (const register of registrations) register(program);
      return program;
    };
    const out = join(dir, "slurm");
    const args = [runs, "--preset", "moana", "--methods", "lr", "--reps", "2"];
    const s = await runSlurmSubmit("cv", args, { shards: 3, out, sbatch: {}, dryRun: true }, newProgram);
    expect(s.submitted).toBeUndefined();
    expect(s.lines[1]).toBe("dry run: nothing submitted. To submit:");
    expect(existsSync(s.arrayScript) && existsSync(s.mergeScript)).toBe(true);
    const { status, text } = await runSlurmStatus(out);
    expect(status.shards.map((x) => x.state)).toEqual(["missing", "missing", "missing"]);
    expect(text).toContain("varmap cv in 3 shard(s)");
    await expect(runSlurmMerge(out)).rejects.toMatchObject({ code: "E_SHARDS_INCOMPLETE" });
    // Nothing queued, nothing running: waiting ends without a merge (the resubmit command, or the timeout).
    await expect(runSlurmWait(out, { timeoutSeconds: 1, intervalSeconds: 0.05 })).rejects.toMatchObject({ code: expect.stringMatching(/^E_SLURM/) });
    await expect(
      runSlurmSubmit("cv", [...args, "--reps", "-3"], { shards: 3, out: join(dir, "slurm-bad"), sbatch: {}, dryRun: true }, newProgram),
    ).rejects.toMatchObject({
      code: "E_USAGE",
    });
  });

  it("runScreen and runEffects: a row per configuration, an ANOVA per map", async () => {
    const sc = await runScreen(runs, { load: slice, out: join(dir, "screen.csv") });
    expect(sc.configurations).toBe(readFileSync(join(dir, "screen.csv"), "utf8").trim().split("\n").length - 1);
    expect(sc.maps.length).toBeGreaterThan(0);
    const ef = await runEffects(runs, { load: { preset: "moana", where: "threads <= 4" }, out: join(dir, "anova.csv") });
    expect(ef.maps.length + ef.skipped.length).toBeGreaterThan(0);
    expect(readFileSync(join(dir, "anova.csv"), "utf8").split("\n")[0]).toContain("term");
  });

  it("runGevCompare and runGevCovariates: pairs of conditions, a fit per map", async () => {
    const where = { preset: "moana", where: "freq_khz = 1200000 AND fsize_kb = 64" };
    const cmp = await runGevCompare(runs, { load: where, column: "threads", a: "1", b: "2", out: join(dir, "compare.csv") });
    expect(cmp.pairs).toBeGreaterThan(0);
    const cov = await runGevCovariates(runs, { load: where, loc: ["log(threads)"], out: join(dir, "gev-cov.csv") });
    expect(cov.maps.length).toBeGreaterThan(0);
  });

  it("runImport: a hyperfine export as a runs table", async () => {
    const fixture = join(packageRoot(), "test", "fixtures", "import", "hyperfine", "sleep-scan.json");
    const s = await runImport({ tool: "hyperfine", groups: [{ files: [fixture], tags: {} }], out: join(dir, "imported.csv") });
    expect(s.runs).toBeGreaterThan(0);
    expect(readFileSync(join(dir, "imported.csv"), "utf8").trim().split("\n").length - 1).toBe(s.runs);
  });

  it("runPlan: the first batch of a grid, with only the settings that differ from the defaults", async () => {
    const s = await runPlan({ grid: "threads=1,2,4,8;rsize_kb=4,64,1024", load: {}, budgetRuns: 300, out: join(dir, "batch.csv") });
    if (s.mode !== "plan") throw new Error(`mode ${s.mode}`);
    expect(s.configurations).toBe(12);
    expect(s.batchRuns).toBeGreaterThan(0);
    expect(s.batchRuns % 10).toBe(0); // DEFAULT_PLAN_OPTIONS.minRuns runs per new configuration
  });

  it("typed options are checked like the flags", async () => {
    await expect(runCv(runs, { data, methods: ["nope"], out: join(dir, "bad") })).rejects.toMatchObject({ code: "E_METHOD" });
    await expect(runMixture(runs, { data: slice, kmax: 99 })).rejects.toMatchObject({ code: "E_USAGE" });
    await expect(runGev(runs, { data: slice, out: join(dir, "g.csv"), run: { workers: 2 } })).rejects.toMatchObject({ code: "E_USAGE" });
  });
});
