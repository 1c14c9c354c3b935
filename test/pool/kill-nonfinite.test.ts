// Issue 14: kill -9 part-way through a cv job whose AREs are NaN (a map of zeros: 0/0) and Infinity (zero
// responses), then rerun: the outputs are byte-identical to an uninterrupted run, at two kill points.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { packageRoot } from "../../ts/package-root.js";
import { readRecords } from "../../ts/pool/store.js";

const tmp = (): string => mkdtempSync(join(tmpdir(), "varmap-kill-"));

function outputs(dir: string): Record<string, string> {
  const o: Record<string, string> = {};
  for (const f of readdirSync(dir).sort()) if (f !== "run-log.json") o[f] = readFileSync(join(dir, f), "utf8");
  return o;
}

describe("kill -9 and resume with non-finite AREs", () => {
  const script = join(packageRoot(), "test", "pool", "job-script.ts");
  const args = (out: string, workers: string) => ["--import", "tsx", script, out, workers, "mean", "3", "120", "nonfinite"];
  const runTo = (out: string, workers = "2") =>
    new Promise<number>((resolve) => spawn(process.execPath, args(out, workers), { stdio: "ignore" }).on("exit", (c) => resolve(c ?? -1)));

  it("reruns complete to the bytes of an uninterrupted run (and a rerun of a finished job changes nothing)", async () => {
    const ref = tmp();
    expect(await runTo(ref)).toBe(0);
    const reference = outputs(ref);
    expect(reference["are.csv"]).toMatch(/^s0,m0,mean,0\.1,120,0,NaN,NaN,/m);
    expect(reference["are.csv"]).toMatch(/^s1,m1,mean,0\.1,120,0,Infinity,NaN,/m);
    expect(await runTo(ref, "1")).toBe(0); // rerun of a finished job
    expect(outputs(ref)).toEqual(reference);

    for (const killAfter of [3, 40]) {
      const out = tmp();
      const child = spawn(process.execPath, args(out, "2"), { stdio: "ignore" });
      const journal = join(out, "journal.jsonl");
      await new Promise<void>((resolve) => {
        const poll = setInterval(() => {
          if (existsSync(journal) && readFileSync(journal, "utf8").split("\n").length > killAfter) {
            clearInterval(poll);
            child.kill("SIGKILL");
            resolve();
          }
        }, 5);
      });
      await new Promise((r) => child.on("exit", r));
      expect(existsSync(join(out, "results.jsonl"))).toBe(false); // killed before it finished
      expect(readRecords(journal).length).toBeGreaterThan(0);
      expect(await runTo(out, "1")).toBe(0);
      expect(outputs(out)).toEqual(reference);
    }
  }, 120_000);
});
