import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateRuns, synthPlan, targetLevels, writeSynth, MIXTURE_CONFIGS } from "../../ts/data/synth.js";
import { loadDataset } from "../../ts/data/load.js";
import { packageRoot } from "../../ts/package-root.js";

const dir = mkdtempSync(join(tmpdir(), "varmap-synth-"));
const cli = join(packageRoot(), "dist", "ts", "cli", "main.js");

describe("designs", () => {
  it("moana: 3 × 3 × 13 = 117 maps of 15 × 9 × 6 = 810 configurations, 40 runs", () => {
    const p = synthPlan("moana", 1);
    expect(p.maps.length).toBe(117);
    expect(p.settings.length).toBe(810);
    expect(p.runs).toBe(40);
    expect(p.maps.length * p.settings.length * p.runs).toBe(3_790_800);
    expect(new Set(p.settings.map((s) => s[0])).size).toBe(15);
    expect(new Set(p.settings.map((s) => s[1])).size).toBe(9);
    expect(new Set(p.settings.map((s) => `${s[2]}/${s[3]}`)).size).toBe(6);
    expect(new Set(p.maps.map((m) => m[2])).size).toBe(13);
  });

  it("mixture: 22,734 configurations over seed 001 Table 1, file size a multiple of record size, 150 runs", () => {
    const p = synthPlan("mixture", 1);
    expect(p.maps.length * p.settings.length).toBe(MIXTURE_CONFIGS);
    expect(p.runs).toBe(150);
    for (const [, , fs, rs] of p.settings) expect(fs % rs).toBe(0);
    expect(new Set(p.settings.map((s) => s.join())).size).toBe(p.settings.length);
    expect(new Set(p.settings.map((s) => s[0])).size).toBe(7);
    // chosen by the seed, deterministically
    expect(synthPlan("mixture", 1).settings).toEqual(p.settings);
    expect(synthPlan("mixture", 2).settings).not.toEqual(p.settings);
  });

  it("runs are positive, and their spread follows the smooth target (mean, cv)", () => {
    const p = synthPlan("moana", 3, 1);
    const out = new Float64Array(p.runs);
    let ratio = 0;
    for (let s = 0; s < p.settings.length; s++) {
      generateRuns(p, 3, 0, s, out);
      const { mean, cv } = targetLevels(p, 3, 0, p.settings[s]);
      const m = out.reduce((a, b) => a + b, 0) / out.length;
      const sd = Math.sqrt(out.reduce((a, b) => a + (b - m) ** 2, 0) / (out.length - 1));
      expect(Math.min(...out)).toBeGreaterThan(0);
      ratio += sd / (cv * mean);
    }
    // On average the sample sd of 40 runs is close to the designed sd.
    expect(ratio / p.settings.length).toBeGreaterThan(0.85);
    expect(ratio / p.settings.length).toBeLessThan(1.1);
  });
});

describe("determinism", () => {
  it("same seed → same bytes; another seed → other bytes", async () => {
    const a = join(dir, "a.csv");
    const b = join(dir, "b.csv");
    const c = join(dir, "c.csv");
    await writeSynth(a, { design: "moana", seed: 7, maps: 1 });
    await writeSynth(b, { design: "moana", seed: 7, maps: 1 });
    await writeSynth(c, { design: "moana", seed: 8, maps: 1 });
    const A = readFileSync(a);
    expect(A.equals(readFileSync(b))).toBe(true);
    expect(A.equals(readFileSync(c))).toBe(false);
    expect(A.toString().split("\n").length - 2).toBe(810 * 40);
  });

  it("a configuration's runs do not depend on what else is generated (chunking, --maps)", async () => {
    const one = join(dir, "one.csv");
    const two = join(dir, "two.csv");
    await writeSynth(one, { design: "moana", seed: 5, maps: 1 });
    await writeSynth(two, { design: "moana", seed: 5, maps: 2 });
    const l1 = readFileSync(one, "utf8").split("\n");
    const l2 = readFileSync(two, "utf8").split("\n");
    expect(l2.slice(0, l1.length - 1)).toEqual(l1.slice(0, -1));
    // Configuration (map 1, setting 123) generated alone equals its lines in the file.
    const p = synthPlan("moana", 5);
    const runs = new Float64Array(p.runs);
    generateRuns(p, 5, 1, 123, runs);
    const start = 1 + (810 + 123) * 40;
    const fromFile = l2.slice(start, start + 40).map((l) => Number(l.split(",").at(-1)));
    expect(fromFile).toEqual([...runs]);
  });
});

describe("Parquet", () => {
  it("CSV and Parquet outputs load to identical tables", async () => {
    const csv = join(dir, "m.csv");
    const pq = join(dir, "m.parquet");
    await writeSynth(csv, { design: "moana", seed: 11, maps: 1 });
    await writeSynth(pq, { design: "moana", seed: 11, maps: 1 });
    const a = await loadDataset(csv, { preset: "moana" });
    const b = await loadDataset(pq, { preset: "moana" });
    expect(b.table.count).toBe(810);
    expect(b.table.runs).toEqual(a.table.runs);
    expect(b.table.inputs).toEqual(a.table.inputs);
    expect(b.table.factorValues).toEqual(a.table.factorValues);
    expect(b.maps[0].y).toEqual(a.maps[0].y);
  });
});

describe.skipIf(!existsSync(cli))("CLI", () => {
  it("varmap synth with 2 workers writes the bytes of the in-process single-threaded writer; a bad --maps exits 2", async () => {
    const out = join(dir, "cli.csv");
    const r = spawnSync(
      process.execPath,
      [cli, "synth", "--design", "moana", "--maps", "2", "--seed", "3", "--workers", "2", "--out", out, "--quiet", "--json"],
      { encoding: "utf8" },
    );
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ rows: 2 * 810 * 40, configurations: 2 * 810, maps: 2 });
    const single = join(dir, "single.csv");
    await writeSynth(single, { design: "moana", seed: 3, maps: 2, workers: 1 });
    expect(readFileSync(out).equals(readFileSync(single))).toBe(true);
    const bad = join(dir, "bad.csv");
    const r2 = spawnSync(process.execPath, [cli, "synth", "--design", "moana", "--maps", "0", "--out", bad], { encoding: "utf8" });
    expect(r2.status).toBe(2);
    expect(existsSync(bad)).toBe(false);
  });
});
