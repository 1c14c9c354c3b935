// `varmap samplesize --mixture` at extreme scales and its empty cells (issue 44, item 15; needs `npm run build`): a
// model near 1e300 (or 1e-300) over- or underflowed its Fisher information and came back "singular" with every cell
// empty; it is now evaluated divided by a power of two, so Γ is the same as at scale 1. Every empty cell is explained
// by a warning (and the --json notes), and a model beyond 16 components is refused with exit 2.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { packageRoot } from "../../ts/package-root.js";
import { secondBackendRun } from "../helpers/once.js";

const cli = join(packageRoot(), "dist", "ts", "cli", "main.js");
const run = (args: string[]) => spawnSync(process.execPath, [cli, ...args], { encoding: "utf8", env: { ...process.env } });
type Out = { quantiles: { q: number; x_q: number | null; se1: number | null; gamma1: number | null }[]; singular: boolean; notes: string[] };
const json = (model: object, extra: string[] = []): Out => {
  const r = run(["samplesize", "--mixture", JSON.stringify(model), "--q", "0.001,0.1,0.5,0.9", "--n", "2", "--json", ...extra]);
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Out;
};

// The CLI's arithmetic is TypeScript: one backend's run covers it.
describe.skipIf(secondBackendRun)("samplesize --mixture at any scale", () => {
  const models = [
    { family: "normal", w: [0.3, 0.7], a: [10, 14], b: [1, 2] },
    { family: "gamma", w: [1], a: [3], b: [2] },
  ];
  for (const m of models)
    for (const f of [1e300, 1e-300])
      it(`${m.family} × ${f}: Γ as at scale 1, x_q and se1 × ${f}`, () => {
        const base = json(m);
        const scaled = json(m.family === "normal" ? { ...m, a: m.a.map((v) => v * f), b: m.b.map((v) => v * f) } : { ...m, b: m.b.map((v) => v * f) });
        expect(scaled.singular).toBe(false);
        scaled.quantiles.forEach((qa, i) => {
          const b = base.quantiles[i];
          expect(Math.abs(qa.gamma1! / b.gamma1! - 1), `q ${qa.q}`).toBeLessThan(1e-9);
          expect(Math.abs(qa.x_q! / f / b.x_q! - 1)).toBeLessThan(1e-9);
          expect(Math.abs(qa.se1! / f / b.se1! - 1)).toBeLessThan(1e-9);
        });
      });

  it("lognormal: a model shifted by ln 2^990 keeps its Γ", () => {
    const base = json({ family: "lognormal", w: [1], a: [2], b: [0.5] });
    const scaled = json({ family: "lognormal", w: [1], a: [2 + 990 * Math.LN2], b: [0.5] });
    scaled.quantiles.forEach((qa, i) => expect(Math.abs(qa.gamma1! / base.quantiles[i].gamma1! - 1)).toBeLessThan(1e-9));
  });

  it("an empty gamma_q at the center (--center mean) is explained in the notes", () => {
    const out = json({ family: "normal", w: [1], a: [10], b: [1] }, ["--center", "mean"]);
    const mid = out.quantiles.find((qa) => qa.q === 0.5)!;
    expect(mid.gamma1).toBeNull();
    expect(out.notes.join(" ")).toMatch(/x_q equals the center .* q = 0\.5/);
  });

  it("17 components are refused with exit 2 (E_MIXTURE_MODEL)", () => {
    const k = 17;
    const model = {
      family: "normal",
      w: Array.from({ length: k }, () => 1 / k),
      a: Array.from({ length: k }, (_, i) => 10 * i),
      b: Array.from({ length: k }, () => 1),
    };
    const r = run(["samplesize", "--mixture", JSON.stringify(model)]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("E_MIXTURE_MODEL");
    expect(r.stdout).toBe("");
  });
});
