// The bulk verbs end to end through the built CLI (run `npm run build:ts` first): refit and cv into output
// directories, sharded runs merged, exit codes. Uses the real MOANA map when ../shared is present.
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { packageRoot } from "../../ts/package-root.js";
import { dataPath, hasShared, sharedSkipReason } from "../helpers/shared.js";

const cli = join(packageRoot(), "dist", "ts", "cli", "main.js");
const built = existsSync(cli);
const tmp = (): string => mkdtempSync(join(tmpdir(), "varmap-cli-"));
const varmap = (...args: string[]) => spawnSync(process.execPath, [cli, ...args], { encoding: "utf8" });

function outputs(dir: string): Record<string, string> {
  const o: Record<string, string> = {};
  for (const f of readdirSync(dir).sort()) if (f !== "run-log.json") o[f] = readFileSync(join(dir, f), "utf8");
  return o;
}

describe.skipIf(!built || !hasShared)(`bulk CLI${!built ? " (dist not built: run npm run build:ts)" : !hasShared ? ` (${sharedSkipReason})` : ""}`, () => {
  const data = () => dataPath("moana-cfq-noop-fread.csv");

  it("refit with mixtures and cv: 3 shards (1 worker) merged write what one run (2 workers) writes", () => {
    // The 54 configurations of the lowest frequency (a small file, so each spawn loads fast): 1 map fit and
    // 1 mixture chunk; cv: 2 methods × 9 p tasks.
    const small = join(tmp(), "moana-1200mhz.csv");
    const lines = readFileSync(data(), "utf8").split("\n");
    writeFileSync(small, [lines[0], ...lines.filter((l) => l.split(",")[3] === "1200000")].join("\n") + "\n");
    const sel = ["--preset", "moana"];
    for (const verb of ["refit", "cv"]) {
      const extra = verb === "refit" ? ["--methods", "lr", "--families", "normal,lognormal", "--kmax", "2"] : ["--methods", "lr,mean", "--reps", "10"];
      const whole = tmp();
      const r = varmap(verb, small, ...sel, ...extra, "--out", whole, "--workers", "2", "--quiet");
      expect(r.status, r.stderr).toBe(0);
      const shards = [1, 2, 3].map((i) => {
        const d = tmp();
        const s = varmap(verb, small, ...sel, ...extra, "--out", d, "--workers", "1", "--shard", `${i}/3`, "--quiet");
        expect(s.status, s.stderr).toBe(0);
        return d;
      });
      const merged = tmp();
      const m = varmap("merge", ...shards, "--out", merged, "--quiet");
      expect(m.status, m.stderr).toBe(0);
      expect(outputs(merged)).toEqual(outputs(whole));
      if (verb === "refit") expect(outputs(whole)["distributions.csv"].trim().split("\n").length).toBe(1 + 54);
      else expect(outputs(whole)["table2.csv"].split("\n")[0]).toMatch(/^p,are_lr,are_mean,median_are_lr,/);
      // A shard alone writes no summaries, and merge refuses an incomplete set with exit code 2.
      expect(existsSync(join(shards[0], "table2.md")) || existsSync(join(shards[0], "models.json"))).toBe(false);
      const bad = varmap("merge", shards[0], shards[2], "--out", tmp());
      expect(bad.status).toBe(2);
      expect(bad.stderr).toMatch(/shard\(s\) 2\/3 missing/);
    }
  });

  it("bad usage exits with 2 and names the flag", () => {
    for (const args of [
      ["--shard", "3/2"],
      ["--workers", "-1"],
      ["--methods", "nope"],
    ]) {
      const r = varmap("refit", data(), "--preset", "moana", "--out", tmp(), ...args);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/--shard|--workers|unknown method/);
    }
  });
});
