// Outputs do not depend on the kernel backend: a cv job with real predictors run by native workers and by
// wasm workers writes the same files (values rounded to RESULT_DIGITS, ts/data/write.ts). Also given splits with
// predictions, and the Table-2 cells. Skips, saying why, until a kernel-based predictor is implemented.
import { describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PREDICTORS } from "../../ts/predict/registry.js";
import { cvPlan, job as cvJob } from "../../ts/jobs/cv.js";
import { runJob } from "../../ts/pool/job.js";
import { packMaps } from "../../ts/data/shared-maps.js";
import { nativeBackend, nativeSkipReason } from "../helpers/backends.js";
import { gridMaps } from "./fixtures.js";

const tmp = (): string => mkdtempSync(join(tmpdir(), "varmap-backends-"));
function outputs(dir: string): Record<string, string> {
  const o: Record<string, string> = {};
  for (const f of readdirSync(dir).sort()) if (f !== "run-log.json") o[f] = readFileSync(join(dir, f), "utf8");
  return o;
}

// Every registered predictor: a broken one fails here (its errors differ from the other backend's, or it fails on both
// and the test below checks that every cell has an ARE).
// The slow ones (registry `notDefault`: gp, auto) run on fewer divisions, in a test of their own.
const methods = PREDICTORS.filter((p) => !p.notDefault).map((p) => p.name);
const slow = PREDICTORS.filter((p) => p.notDefault).map((p) => p.name);
const why = !nativeBackend ? nativeSkipReason : "";

describe.skipIf(why !== "")(`cv outputs on native and wasm workers${why ? ` (${why})` : ""}`, () => {
  for (const [list, reps] of [
    [methods, 30],
    [slow, 3],
  ] as const)
    it(`are byte-identical for ${list.join(", ")}`, () => sameOutputs([...list], reps), 600_000);
});

async function sameOutputs(methods: string[], reps: number): Promise<void> {
  {
    const maps = packMaps(gridMaps(2, 6));
    const { plan } = cvPlan(maps, { methods, response: "linear", ps: [0.3, 0.6, 0.9], reps, seed: "4" });
    const dirs: string[] = [];
    const saved = process.env.VARMAP_BACKEND;
    try {
      for (const b of ["native", "wasm"]) {
        process.env.VARMAP_BACKEND = b; // worker threads take a copy of the environment when they start
        const out = tmp();
        await runJob(cvJob, { maps, plan }, { out, workers: 1, resume: false, quiet: true, label: "cv" });
        dirs.push(out);
      }
    } finally {
      if (saved === undefined) delete process.env.VARMAP_BACKEND;
      else process.env.VARMAP_BACKEND = saved;
    }
    expect(JSON.parse(readFileSync(join(dirs[1], "run-log.json"), "utf8")).workers).toBe(1);
    expect(outputs(dirs[1])).toEqual(outputs(dirs[0]));
    const cells = readFileSync(join(dirs[0], "are.csv"), "utf8").trim().split("\n");
    expect(cells.length).toBe(1 + 2 * methods.length * 3);
    // Every method fitted every division (a predictor broken on both backends would agree with itself).
    const head = cells[0].split(",");
    const failed = cells.slice(1).filter((l) => Number(l.split(",")[head.indexOf("failed")]) !== 0);
    expect(failed).toEqual([]);
  }
}
