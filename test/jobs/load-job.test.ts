// A job verb is found by the name its plans record (ts/jobs/<verb>.ts), with no list to keep: every verb a manifest
// can name loads its definition, and a name from a forged or foreign manifest is refused as E_MERGE.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadJob } from "../../ts/jobs/index.js";
import { packageRoot } from "../../ts/package-root.js";

const code = async (p: Promise<unknown>): Promise<string | undefined> =>
  p.then(
    () => undefined,
    (e: { code?: string }) => e.code,
  );

describe("loadJob", () => {
  it("finds every job file of ts/jobs by its verb", async () => {
    const verbs = ["cv", "refit", "mixture", "gev", "samplesize", "convergence", "whatif", "interference", "cv-distribution"];
    for (const verb of verbs) expect((await loadJob(verb)).verb).toBe(verb);
    // Each file exporting a job is named after that job's verb (what makes it findable).
    for (const f of readdirSync(join(packageRoot(), "ts", "jobs")).filter((f) => f.endsWith(".ts") && f !== "index.ts")) {
      const m = (await import(/* @vite-ignore */ `../../ts/jobs/${f}`)) as { job?: { verb: string } };
      if (m.job) expect(m.job.verb).toBe(f.replace(/\.ts$/, ""));
    }
  });

  it("refuses unknown names, helper files and paths as E_MERGE", async () => {
    for (const verb of ["nope", "index", "maps-plan", "../errors", "cv/../cv", "CV", "", "cv.js"]) expect(await code(loadJob(verb))).toBe("E_MERGE");
  });
});
