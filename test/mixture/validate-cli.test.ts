// `varmap mixture --validate`, --criterion and --guard end to end (needs `npm run build`).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { packageRoot } from "../../ts/package-root.js";
import { rng } from "../helpers/backends.js";
import { G_X_ROLES } from "../helpers/runs.js";

const cli = join(packageRoot(), "dist", "ts", "cli", "main.js");
const run = (args: string[]) => spawnSync(process.execPath, [cli, ...args], { encoding: "utf8" });

function dataset(dir: string): string {
  const r = rng(13);
  const lines = ["g,x,run,y"];
  for (const [g, x, mu] of [
    ["a", 1, 100],
    ["a", 2, 150],
    ["b", 1, 80],
  ] as const)
    for (let i = 0; i < 40; i++) lines.push(`${g},${x},${i},${(mu + (i % 3 ? 20 : 0) + r() * 5).toFixed(3)}`);
  const file = join(dir, "runs.csv");
  writeFileSync(file, lines.join("\n") + "\n");
  return file;
}
const roles = [...G_X_ROLES, "--families", "normal,lognormal", "--kmax", "3", "--quiet", "--workers", "0"];

describe.skipIf(!existsSync(cli))("varmap mixture --validate / --criterion / --guard (CLI)", () => {
  it("--validate writes one row per configuration and prints the summary", () => {
    const dir = mkdtempSync(join(tmpdir(), "varmap-mixv-"));
    const out = join(dir, "val.csv");
    const r = run(["mixture", dataset(dir), ...roles, "--validate", "--split", "halves", "--criterion", "icl", "--guard", "on", "--validate-out", out]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Validation on held-back runs: split halves, 2 folds, 3 configurations/);
    expect(r.stdout).toMatch(/chosen .*\n.*normal1.*\n.*lognormal1/s);
    const rows = readFileSync(out, "utf8").trim().split("\n");
    expect(rows[0]).toBe("g,x,n,chosen,train_loglik_per_run,heldout_loglik_per_run,heldout_normal1,heldout_lognormal1,catastrophic");
    expect(rows.length).toBe(4);
    for (const l of rows.slice(1)) expect(l).toMatch(/,(true|false)$/);
  });

  it("--criterion cv marks one chosen model per configuration and adds the score and guard columns", () => {
    const dir = mkdtempSync(join(tmpdir(), "varmap-mixv-"));
    const out = join(dir, "fits.csv");
    const r = run(["mixture", dataset(dir), ...roles, "--criterion", "cv", "--folds", "3", "--out", out]);
    expect(r.status, r.stderr).toBe(0);
    const rows = readFileSync(out, "utf8").trim().split("\n");
    const flat = ["w", "a", "b", "se_w", "se_a", "se_b"].flatMap((p) => [1, 2, 3].map((j) => `${p}${j}`));
    expect(rows[0]).toBe(`g,x,n,family,k,loglik,bic,iterations,converged,floor_bound,params,se,a_name,b_name,${flat.join(",")},selection_cv,guard,best`);
    expect(rows.filter((l) => l.endsWith(",true")).length).toBe(3);
  });

  it("exits 2 on bad selection flags before writing anything", () => {
    const dir = mkdtempSync(join(tmpdir(), "varmap-mixv-"));
    const out = join(dir, "v.csv");
    for (const bad of [
      ["--criterion", "hqc"],
      ["--guard", "maybe"],
      ["--folds", "1"],
      ["--split", "thirds", "--validate"],
      ["--validate-out", out],
    ]) {
      const r = run(["mixture", dataset(dir), ...roles, ...bad]);
      expect(r.status, bad.join(" ")).toBe(2);
      expect(existsSync(out)).toBe(false);
    }
  });
});
