// Issue 44 item 19b: a job that fails before any task finished leaves its --out directory as it found it.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ResultStore } from "../../ts/pool/store.js";

const root = mkdtempSync(join(tmpdir(), "varmap-abandon-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("ResultStore.abandon", () => {
  it("removes the directory it created when nothing was computed", () => {
    const dir = join(root, "fresh");
    const s = new ResultStore(dir, { verb: "x" }, { resume: true, outputs: [] });
    expect(existsSync(join(dir, "manifest.json"))).toBe(true);
    s.abandon();
    expect(existsSync(dir)).toBe(false);
  });

  it("keeps a directory that existed, without the manifest it wrote", () => {
    const dir = join(root, "existing");
    mkdirSync(dir);
    writeFileSync(join(dir, "notes.txt"), "mine\n");
    const s = new ResultStore(dir, { verb: "x" }, { resume: true, outputs: [] });
    s.abandon();
    expect(readdirSync(dir)).toEqual(["notes.txt"]);
  });

  it("keeps the manifest and journal once a task finished (a resume continues)", () => {
    const dir = join(root, "partial");
    const s = new ResultStore(dir, { verb: "x" }, { resume: true, outputs: [] });
    s.append([{ id: "t1", result: 1 }]);
    s.abandon();
    s.release();
    expect(existsSync(join(dir, "manifest.json"))).toBe(true);
    expect(new ResultStore(dir, { verb: "x" }, { resume: true, outputs: [] }).done.get("t1")).toBe(1);
  });

  it("keeps a resumed job's manifest", () => {
    const dir = join(root, "resumed");
    new ResultStore(dir, { verb: "x" }, { resume: true, outputs: [] }).release();
    const s = new ResultStore(dir, { verb: "x" }, { resume: true, outputs: [] });
    s.abandon();
    expect(existsSync(join(dir, "manifest.json"))).toBe(true);
  });
});

// Issue 44 item 19b: a job whose output writing fails leaves none of its output tables (the results stay for a resume).
describe("runJob: outputs all or none", () => {
  it("removes the tables written before the failing one, keeps results.jsonl, and a rerun writes them", async () => {
    const { gridMaps } = await import("./fixtures.js");
    const { packMaps } = await import("../../ts/data/shared-maps.js");
    const { cvPlan, job: cvJob } = await import("../../ts/jobs/cv.js");
    const { runJob } = await import("../../ts/pool/job.js");
    const maps = packMaps(gridMaps(1, 8));
    const { plan } = cvPlan(maps, { methods: ["lr"], response: "linear", ps: [0.5], reps: 2, seed: "11" });
    const dir = join(root, "outputs");
    const failing = {
      ...cvJob,
      write(p: typeof plan, results: ReadonlyMap<string, unknown>, out: string) {
        cvJob.write(p, results, out);
        throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC", syscall: "write" });
      },
    };
    const opts = { out: dir, workers: 0, resume: true, quiet: true, label: "cv" };
    await expect(runJob(failing, { maps, plan }, opts)).rejects.toThrow(/ENOSPC/);
    const files = cvJob.files(plan);
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) expect(existsSync(join(dir, f)), f).toBe(false);
    expect(existsSync(join(dir, "results.jsonl"))).toBe(true);
    const s = await runJob(cvJob, { maps, plan }, opts);
    expect(s.resumed).toBe(s.tasks);
    for (const f of files) expect(existsSync(join(dir, f)), f).toBe(true);
  });
});
