// `varmap predict` reads the models.json that `varmap refit` writes: every method side by side.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { packageRoot } from "../../ts/package-root.js";

const cli = join(packageRoot(), "dist", "ts", "cli", "main.js");
const varmap = (...args: string[]) => spawnSync(process.execPath, [cli, ...args], { encoding: "utf8" });

describe.skipIf(!existsSync(cli))("predict with refit's models", () => {
  it("predicts with every method of a refit models.json, one column per method, equal to fit's models", () => {
    const dir = mkdtempSync(join(tmpdir(), "varmap-predict-"));
    const lines = ["g,x,z,y"];
    for (const g of ["a", "b"])
      for (let i = 0; i < 30; i++)
        lines.push(`${g},${i % 6},${Math.floor(i / 6)},${(g === "a" ? 1 : 2) + (i % 6) * 0.3 + Math.floor(i / 6) * 0.1 + ((i * 37) % 11) / 50}`);
    const data = join(dir, "map.csv");
    writeFileSync(data, lines.join("\n") + "\n");
    const sel = ["--map", "--factors", "g", "--inputs", "x,z", "--response", "y"];
    const r = varmap("refit", data, ...sel, "--methods", "lr,lsp", "--paper", "--out", join(dir, "refit"), "--quiet");
    expect(r.status, r.stderr).toBe(0);
    const at = join(dir, "at.csv");
    writeFileSync(at, "g,x,z\na,2.5,1.5\nb,0.5,3\n");
    const p = varmap("predict", join(dir, "refit", "models.json"), "--at", at);
    expect(p.status, p.stderr).toBe(0);
    const [header, ...rows] = p.stdout.trim().split("\n");
    expect(header).toBe("g,x,z,prediction_lr,extrapolated_lr,distance_lr,clamped_lr,prediction_lsp,extrapolated_lsp,distance_lsp,clamped_lsp");
    expect(rows.length).toBe(2);
    const f = varmap("fit", data, ...sel, "--method", "lsp", "--paper", "--out", join(dir, "lsp.json"), "--quiet");
    expect(f.status, f.stderr).toBe(0);
    const q = varmap("predict", join(dir, "lsp.json"), "--at", at);
    expect(
      q.stdout
        .trim()
        .split("\n")
        .slice(1)
        .map((l) => l.split(",")[3]),
    ).toEqual(rows.map((l) => l.split(",")[7]));
    expect(readFileSync(join(dir, "refit", "models.json"), "utf8")).toMatch(/"inputs":\["x","z"\]/);
  });

  it("summary: per map the method, inputs, coefficients or terms, and the in-sample fit given --data", () => {
    const dir = mkdtempSync(join(tmpdir(), "varmap-summary-"));
    const lines = ["g,x,z,y"];
    for (const g of ["a", "b"])
      for (let i = 0; i < 30; i++) lines.push(`${g},${i % 6},${Math.floor(i / 6)},${(g === "a" ? 1 : 2) + (i % 6) * 0.3 + Math.floor(i / 6) * 0.1}`);
    const data = join(dir, "map.csv");
    writeFileSync(data, lines.join("\n") + "\n");
    const sel = ["--map", "--factors", "g", "--inputs", "x,z", "--response", "y"];
    expect(varmap("refit", data, ...sel, "--methods", "lr,mars", "--paper", "--out", join(dir, "refit"), "--quiet").status).toBe(0);
    const s = varmap("summary", join(dir, "refit", "models.json"), "--data", data, ...sel);
    expect(s.status, s.stderr).toBe(0);
    expect(s.stdout).toMatch(/Map g=a: lr, 30 configurations/);
    expect(s.stdout).toMatch(/\(Intercept\)/);
    expect(s.stdout).toMatch(/GCV .* RSq/);
    expect(s.stdout).toMatch(/In-sample \(30 configurations of --data\): R² 1\.0000/); // y is exactly linear in x, z
    const j = JSON.parse(varmap("summary", join(dir, "refit", "models.json"), "--json").stdout);
    expect(j.length).toBe(4);
    expect(j[0].details.coefficients.length).toBe(3);
  });
});
