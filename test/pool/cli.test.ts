// The bulk verbs end to end through the built CLI (run `npm run build:ts` first): refit and cv into output
// directories, sharded runs merged, exit codes. Uses the real MOANA map when ../shared is present.
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync } from "node:fs";
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

  it("refit writes the same files with 1 and 2 workers", () => {
    const whole = tmp();
    const one = tmp();
    let r = varmap("refit", data(), "--preset", "moana", "--methods", "lr", "--no-mixtures", "--out", whole, "--workers", "2", "--quiet", "--json");
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).tasks).toBe(1);
    r = varmap("refit", data(), "--preset", "moana", "--methods", "lr", "--no-mixtures", "--out", one, "--workers", "1", "--quiet");
    expect(r.status, r.stderr).toBe(0);
    expect(outputs(one)).toEqual(outputs(whole));
    expect(Object.keys(outputs(whole))).toEqual(["manifest.json", "models.json", "results.jsonl", "summary.csv", "summary.md"]);
  });

  it("refit with mixtures and cv: 3 shards merged write what one run writes", () => {
    // 108 configurations (2 of 16 frequencies): 1 map fit + 2 mixture chunks; cv: 2 methods × 9 p tasks.
    const sel = ["--preset", "moana", "--where", "freq_khz IN (1200000, 3001000)"];
    for (const verb of ["refit", "cv"]) {
      const extra = verb === "refit" ? ["--methods", "lr", "--families", "normal,lognormal", "--kmax", "2"] : ["--methods", "lr,mean", "--reps", "10"];
      const whole = tmp();
      const r = varmap(verb, data(), ...sel, ...extra, "--out", whole, "--workers", "2", "--quiet");
      expect(r.status, r.stderr).toBe(0);
      const shards = [1, 2, 3].map((i) => {
        const d = tmp();
        const s = varmap(verb, data(), ...sel, ...extra, "--out", d, "--workers", "1", "--shard", `${i}/3`, "--quiet");
        expect(s.status, s.stderr).toBe(0);
        return d;
      });
      const merged = tmp();
      const m = varmap("merge", ...shards, "--out", merged, "--quiet");
      expect(m.status, m.stderr).toBe(0);
      expect(outputs(merged)).toEqual(outputs(whole));
      if (verb === "refit") expect(outputs(whole)["distributions.csv"].trim().split("\n").length).toBe(1 + 108);
      else expect(outputs(whole)["table2.csv"].split("\n")[0]).toBe("p,are_lr,are_mean");
    }
  });

  it("merge refuses an incomplete set of shards with exit code 2", () => {
    const s1 = tmp();
    const r = varmap("refit", data(), "--preset", "moana", "--methods", "lr", "--no-mixtures", "--out", s1, "--shard", "1/2", "--quiet");
    expect(r.status, r.stderr).toBe(0);
    expect(existsSync(join(s1, "models.json"))).toBe(false);
    const m = varmap("merge", s1, "--out", tmp());
    expect(m.status).toBe(2);
    expect(m.stderr).toMatch(/shard\(s\) 2\/2 missing/);
  });

  it("bad usage exits with 2 and names the flag", () => {
    for (const args of [["--shard", "3/2"], ["--workers", "-1"], ["--methods", "nope"]]) {
      const r = varmap("refit", data(), "--preset", "moana", "--out", tmp(), ...args);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/--shard|--workers|unknown method/);
    }
  });
});
