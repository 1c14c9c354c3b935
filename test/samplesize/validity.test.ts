// Issue 44 items 1–2: samplesize answers inside their validity. No runs-needed value below what can refit the chosen
// model (3k − 1 parameters; 2 without one), flagged in `nneeded_floored`; every empty row says why in `note`; with
// --fits the table's chosen model (`best`) is used; the headline says how many runs for what precision; --curves
// (and the other data-mode flags) with --mixture are refused instead of silently not written; 17 components are
// refused; an undefined SE is a warning, not a silent NaN.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { packageRoot } from "../../ts/package-root.js";
import { Mixture } from "../../ts/mixture/model.js";
import { runsFloor, sampleSizeRow, type CandidateFit, type SampleSizeOptions } from "../../ts/mixture/samplesize-config.js";
import { samplesizeColumns, samplesizeHeadline, samplesizeSummary } from "../../ts/mixture/samplesize-table.js";
import { rng } from "../helpers/backends.js";

const cli = join(packageRoot(), "dist", "ts", "cli", "main.js");
const run = (args: string[]) => spawnSync(process.execPath, [cli, ...args], { encoding: "utf8", env: { ...process.env } });
const dir = mkdtempSync(join(tmpdir(), "varmap-ss-validity-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const opts: SampleSizeOptions = {
  qs: [0.1, 0.9],
  taus: [0.5, 0.1],
  method: "delta",
  information: "expected",
  center: "none",
  density: "model",
  reps: 100,
  seed: 1,
  stats: ["q", "mean", "sd", "var"],
  precision: 0.05,
  level: 0.95,
  model: { kind: "best-unfloored" },
};

/** A narrow two-component normal configuration (cv ≈ 1 %): the delta method alone says 1 run is enough. */
function narrow(n: number): { runs: Float64Array; fit: CandidateFit } {
  const r = rng(3);
  const runs = Float64Array.from({ length: n }, (_, i) => (i % 2 ? 100 : 102) + r() * 0.5);
  const mixture = new Mixture("normal", [0.5, 0.5], [100.25, 102.25], [0.15, 0.15]);
  return { runs, fit: { family: "normal", k: 2, bic: 10, floorBound: false, best: true, mixture } };
}

describe("samplesize validity (science layer)", () => {
  it("no runs needed below the model's parameter count: raised to 3k − 1 and flagged, with a note", () => {
    const { runs, fit } = narrow(40);
    const row = sampleSizeRow(runs, 40, fit, opts, 0);
    expect(runsFloor(2)).toBe(5);
    for (const x of row.quantiles) for (const v of x.needed) expect(v).toBeGreaterThanOrEqual(5);
    expect(row.needed[0]).toBe(5); // the delta method alone gives 1 here
    expect(row.floored).toBe(true);
    expect(row.note).toMatch(/raised to 5.*normal:2/);
    const cols = samplesizeColumns({ factors: ["g"], inputs: [], values: [["a"]] }, [row], opts);
    expect(cols.find((c) => c.name === "nneeded_floored")?.values).toEqual(["true"]);
    expect(cols.filter((c) => c.name === "note")).toHaveLength(1);
  });

  it("every empty row says why: too few runs for the model, no usable fit", () => {
    const { runs, fit } = narrow(4);
    const few = sampleSizeRow(runs, 4, fit, opts, 0);
    expect(few.needed.every((v) => Number.isNaN(v))).toBe(true);
    expect(few.note).toMatch(/4 runs fitted, fewer than the 5 parameters of normal:2/);
    const none = sampleSizeRow(narrow(40).runs, 40, undefined, opts, 1);
    expect(none.fallback).toBe(true);
    expect(none.note).toMatch(/no usable mixture fit/);
    const s = samplesizeSummary([few, none], opts);
    expect(s.empty).toBe(1);
    expect(samplesizeHeadline(s, opts)).toMatch(
      /SE of the q = 0.1, 0.9 quantiles .* ≤ 50 %: .*≤ 10 %: .*mean within ±5 % at 95 % confidence.*1 with empty runs needed/,
    );
  });
});

describe.skipIf(!existsSync(cli))("varmap samplesize: flags honoured or refused", () => {
  it("--mixture with --curves (or --fits, --pilot): exit 2, E_USAGE, nothing written", () => {
    const curves = join(dir, "curves.csv");
    const r = run(["samplesize", "--mixture", '{"family":"normal","w":[0.5,0.5],"a":[1,2],"b":[1,1]}', "--curves", curves]);
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/E_USAGE.*--curves/);
    expect(existsSync(curves)).toBe(false);
    const p = run(["samplesize", "--mixture", '{"family":"normal","w":[0.5,0.5],"a":[1,2],"b":[1,1]}', "--pilot", "5"]);
    expect(p.status).toBe(2);
  });

  it("--mixture with 17 components is refused; a singular model warns instead of printing NaN silently", () => {
    const k = 17;
    const w = Array.from({ length: k }, () => 1 / k);
    const m = JSON.stringify({ family: "normal", w, a: w.map((_, i) => 10 + i), b: w.map(() => 1) });
    const r = run(["samplesize", "--mixture", m]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/17 components; at most 16/);
    const s = run(["samplesize", "--mixture", '{"family":"normal","w":[0.5,0.5],"a":[1,1],"b":[1,1]}', "--json"]);
    expect(s.status, s.stderr).toBe(0);
    const j = JSON.parse(s.stdout);
    if (j.singular) {
      expect(j.notes.join(" ")).toMatch(/not finite/);
      expect(s.stderr).toMatch(/warning/);
    }
    // The floor applies to the model given by hand as well.
    for (const nd of j.needed) for (const v of nd.perLevel) if (v.n !== null) expect(v.n).toBeGreaterThanOrEqual(5);
  });

  it("--fits: the model the table marks best is used by default, not the least BIC", () => {
    const r = rng(9);
    const lines = ["g,x,run,y"];
    for (const g of ["a", "b"]) for (let i = 0; i < 30; i++) lines.push(`${g},1,${i},${(100 + (i % 2) * 20 + r() * 4).toFixed(3)}`);
    const runs = join(dir, "runs.csv");
    writeFileSync(runs, lines.join("\n") + "\n");
    const p1 = '"{""w"":[1],""mean"":[110],""sd"":[10]}"';
    const p2 = '"{""w"":[0.5,0.5],""mean"":[102,122],""sd"":[1.2,1.2]}"';
    const fits = join(dir, "fits.csv");
    writeFileSync(
      fits,
      [
        "g,x,family,k,bic,floor_bound,params,best",
        ...["a", "b"].flatMap((g) => [`${g},1,normal,1,100,false,${p1},false`, `${g},1,normal,2,200,false,${p2},true`]),
      ].join("\n") + "\n",
    );
    const out = join(dir, "ss.csv");
    const roles = ["--factors", "g", "--inputs", "x", "--run", "run", "--response", "y"];
    const s = run(["samplesize", runs, ...roles, "--fits", fits, "--out", out]);
    expect(s.status, s.stderr).toBe(0);
    const [head, ...rows] = readFileSync(out, "utf8").trim().split("\n");
    const kAt = head.split(",").indexOf("k");
    expect(rows.map((l) => l.split(",")[kAt])).toEqual(["2", "2"]);
    expect(s.stderr).toMatch(/median runs needed for the SE of the q = 0.1, 0.9 quantiles/);
    // An explicit --model still wins.
    const e = run(["samplesize", runs, ...roles, "--fits", fits, "--model", "best-unfloored", "--out", out]);
    expect(e.status, e.stderr).toBe(0);
    expect(
      readFileSync(out, "utf8")
        .trim()
        .split("\n")
        .slice(1)
        .map((l) => l.split(",")[kAt]),
    ).toEqual(["1", "1"]);
  });
});
