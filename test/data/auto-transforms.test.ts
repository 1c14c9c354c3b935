// --log-inputs auto / --log-response auto: the documented rules on a small table and on the real fread runs.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { autoLogInputs, autoLogResponse, AUTO_LOG_INPUT_SPAN, registerLogInputsJudge } from "../../ts/data/auto-transforms.js";
import { splineGcvJudge } from "../../ts/predict/log-inputs-judge.js";
import { mulberry32Uniform } from "../../ts/util/mulberry32.js";
import { loadDataset } from "../../ts/data/load.js";
import { dataOptionsFromFlags as optionsFromCli } from "../../ts/cli/flags.js";
import type { ConfigTable } from "../../ts/data/types.js";
import { expectCode } from "../predict/conformance.js";
import { dataPath, hasShared, sharedSkipReason } from "../helpers/shared.js";

function table(columns: Record<string, number[]>): ConfigTable {
  const names = Object.keys(columns);
  const count = columns[names[0]].length;
  const inputs = new Float64Array(count * names.length);
  names.forEach((c, j) => columns[c].forEach((v, i) => (inputs[i * names.length + j] = v)));
  return {
    source: "t.csv",
    roles: { factors: [], inputs: names, response: "y" },
    count,
    factorValues: [],
    inputs,
    runs: new Float64Array(count),
    offsets: Int32Array.from({ length: count + 1 }, (_, i) => i),
  };
}

describe("automatic transforms", () => {
  it("logs powers of two (3+ levels) and spans above 2×; keeps other, non-positive and two-level columns linear", () => {
    const t = table({
      threads: [1, 2, 4, 8, 16],
      twoLevels: [2, 4, 2, 4, 2],
      freq: [1.2e6, 1.6e6, 2.0e6, 2.4e6, 3.0e6],
      narrow: [1, 1.5, 1.9, 1.2, 2],
      temperature: [300, 310, 320, 330, 340],
      withZero: [0, 1, 64, 256, 1024],
    });
    const picked = autoLogInputs(t);
    expect(picked.map((p) => p.name)).toEqual(["threads", "freq"]);
    expect(picked[1].reason).toMatch(new RegExp(`> ${AUTO_LOG_INPUT_SPAN}`));
    expect(autoLogResponse([Float64Array.from([1, 2]), Float64Array.from([0.5])])).toBe(true);
    expect(autoLogResponse([Float64Array.from([1, 0])])).toBe(false);
  });

  it("--log-response takes no value or auto", () => {
    expect(optionsFromCli({ logResponse: "auto" }).logResponse).toBe("auto");
    expect(optionsFromCli({ logResponse: true }).logResponse).toBe(true);
    expectCode(() => optionsFromCli({ logResponse: "data.csv" }), "E_USAGE");
  });

  it.skipIf(!hasShared)(
    `fread runs: auto picks freq_khz, threads, fsize_kb, rsize_kb and a log response${hasShared ? "" : " — " + sharedSkipReason}`,
    async () => {
      const ds = await loadDataset(dataPath("moana-cfq-noop-fread.csv"), { preset: "moana", logInputs: ["auto"], logResponse: "auto" });
      expect(ds.resolved).toEqual({ logInputs: ["freq_khz", "threads", "fsize_kb", "rsize_kb"], logResponse: true });
      const explicit = await loadDataset(dataPath("moana-cfq-noop-fread.csv"), {
        preset: "moana",
        logInputs: ["freq_khz", "threads", "fsize_kb", "rsize_kb"],
        logResponse: true,
      });
      expect(ds.maps[0].normalization).toEqual(explicit.maps[0].normalization);
    },
  );
});

// Two continuous inputs drawn evenly from (0.001, 1) (spans of a few hundred), the response f(a, b) with 3 % noise.
function continuous(n: number, f: (a: number, b: number) => number, seed: number): { t: ConfigTable; y: Float64Array } {
  const r = mulberry32Uniform(seed);
  const a: number[] = [];
  const b: number[] = [];
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    a.push(0.001 + 0.999 * r());
    b.push(0.001 + 0.999 * r());
    y[i] = f(a[i], b[i]) * Math.exp(0.03 * (r() + r() + r() - 1.5));
  }
  return { t: table({ a, b }), y };
}

describe("the spline judge of --log-inputs auto's span candidates", () => {
  it("keeps continuous inputs from near 0 linear when the response is smooth on their linear scale", () => {
    const { t, y } = continuous(300, (a, b) => Math.exp(Math.sin(3 * a) + 0.5 * b), 7);
    expect(autoLogInputs(t).map((p) => p.name)).toEqual(["a", "b"]); // no responses: the span rule
    const picked = autoLogInputs(t, y, splineGcvJudge);
    expect(picked.map((p) => p.name)).toEqual([]);
    expect(picked.linear?.map((p) => p.name)).toEqual(["a", "b"]);
    expect(picked.linear?.[0].reason).toMatch(/spans a factor .*GCV score .* linear, .* logged/);
  });

  it("logs them when the response is a power law of them (linear on the log scales)", () => {
    const { t, y } = continuous(300, (a, b) => a ** 0.5 * b ** -0.3, 7);
    const picked = autoLogInputs(t, y, splineGcvJudge);
    expect(picked.map((p) => p.name)).toEqual(["a", "b"]);
    expect(picked.linear).toBeUndefined();
    expect(picked[0].reason).toMatch(/GCV score .* logged, .* linear/);
  });

  it("leaves the span rule when there are too few configurations to judge, and never touches powers of two", () => {
    const { t, y } = continuous(10, (a, b) => Math.exp(Math.sin(3 * a) + 0.5 * b), 3);
    expect(autoLogInputs(t, y, splineGcvJudge).map((p) => p.name)).toEqual(["a", "b"]);
    const judged: number[][] = [];
    const spy = (_m: unknown, _d: number, logged: number[], candidates: number[]) => {
      judged.push(logged, candidates);
      return { log: [], reasons: new Map<number, string>() };
    };
    const picked = autoLogInputs(table({ threads: [1, 2, 4, 8], freq: [1, 2, 3, 4] }), Float64Array.from([1, 2, 3, 4]), spy);
    expect(picked.map((p) => p.name)).toEqual(["threads"]);
    expect(judged).toEqual([[0], [1]]);
  });

  it.skipIf(!hasShared)(`fread runs: the judge keeps freq_khz logged${hasShared ? "" : " — " + sharedSkipReason}`, async () => {
    const notes: string[] = [];
    registerLogInputsJudge(splineGcvJudge);
    try {
      const ds = await loadDataset(dataPath("moana-cfq-noop-fread.csv"), {
        preset: "moana",
        logInputs: ["auto"],
        logResponse: "auto",
        note: (m) => notes.push(m),
      });
      expect(ds.resolved?.logInputs).toEqual(["freq_khz", "threads", "fsize_kb", "rsize_kb"]);
      expect(notes.join("\n")).toMatch(/freq_khz \(it spans a factor 2.5 > 2; a spline's GCV score .* logged, .* linear\)/);
    } finally {
      registerLogInputsJudge(undefined);
    }
  });

  it("--log-response auto stays linear when a response is not positive, and the note says how many and where", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "varmap-auto-")), "zero.csv");
    const lines = ["g,x,run,y"];
    for (let x = 1; x <= 4; x++) for (let run = 1; run <= 4; run++) lines.push(`a,${x},${run},${x === 3 ? 7 : x * 10 + run * x}`);
    writeFileSync(file, lines.join("\n") + "\n");
    const notes: string[] = [];
    const ds = await loadDataset(file, { factors: ["g"], inputs: ["x"], run: "run", response: "y", logResponse: "auto", note: (m) => notes.push(m) });
    expect(ds.resolved?.logResponse).toBe(false);
    expect(notes.join("\n")).toContain("linear scale (1 of 4 responses is not positive, the first at g=a, x=3: 0;");
  });
});
