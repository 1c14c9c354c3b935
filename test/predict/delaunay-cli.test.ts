// `varmap fit / predict / cv --method delaunay` end to end (spawns the built CLI: run `npm run build` first).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cliBuilt, cliIn } from "../helpers/cli.js";
import { goldenPath, hasShared, readCsv, moanaMapArgs } from "../helpers/shared.js";

const built = cliBuilt;
const dir = mkdtempSync(join(tmpdir(), "varmap-delaunay-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const varmap = cliIn(dir, { VARMAP_QUIET: "1" });

describe.skipIf(!built)(`delaunay through the CLI${built ? "" : " — dist/ts/cli/main.js missing: run npm run build"}`, () => {
  // One map: a 3 x 3 x 3 grid of settings (cospherical: ties everywhere), sd of 3 runs linear in the settings.
  const map = join(dir, "map.csv");
  const lines = ["id,a,b,c,sd"];
  let id = 0;
  for (const a of [0, 1, 2]) for (const b of [0, 1, 2]) for (const c of [0, 1, 2]) lines.push(`${id++},${a},${b},${c},${1 + a + 2 * b + 3 * c}`);
  writeFileSync(map, lines.join("\n") + "\n");
  const cols = ["--map", "--id", "id", "--inputs", "a,b,c", "--response", "sd"];

  it("fits, predicts a linear response exactly inside, and turns far points into NaN with --max-extrapolation", () => {
    const models = join(dir, "models.json");
    const fit = varmap("fit", map, ...cols, "--method", "delaunay", "--paper", "--max-extrapolation", "0.25", "--out", models);
    expect(fit.code, fit.err).toBe(0);
    const json = JSON.parse(readFileSync(models, "utf8"));
    expect(json.maps[0].model.method).toBe("delaunay");
    expect(json.maps[0].model.options.maxExtrapolation).toBe(0.25);
    const at = join(dir, "at.csv");
    writeFileSync(at, "a,b,c\n0.5,1.5,0.25\n2,2,2.2\n2,2,4\n");
    const pred = varmap("predict", models, "--at", at, "--out", join(dir, "pred.csv"));
    expect(pred.code, pred.err).toBe(0);
    const rows = readCsv(join(dir, "pred.csv"));
    expect(rows[0].prediction as number).toBeCloseTo(1 + 0.5 + 3 + 0.75, 12);
    expect(rows[1].prediction as number).toBeCloseTo(1 + 2 + 4 + 6, 12); // 0.1 outside: its projection (2,2,2)
    expect(Number.isNaN(rows[2].prediction as number) || rows[2].prediction === "").toBe(true);
  });

  it("refuses nearly coincident configurations with a coded error (exit 2)", () => {
    const dup = join(dir, "dup.csv");
    writeFileSync(dup, "id,a,b,sd\n0,0,0,1\n1,1,0,2\n2,0,1,3\n3,1,1,4\n4,1.0000000001,1,5\n");
    const fit = varmap(
      "fit",
      dup,
      "--map",
      "--id",
      "id",
      "--inputs",
      "a,b",
      "--response",
      "sd",
      "--method",
      "delaunay",
      "--paper",
      "--out",
      join(dir, "dup.json"),
    );
    expect(fit.code).toBe(2);
    expect(fit.err).toMatch(/coincide/);
  });

  it.skipIf(!hasShared)("runs MOANA splits with varmap cv --method delaunay (reps 0-1 of the 180; the golden test runs all)", () => {
    const out = join(dir, "cv.csv");
    const all = JSON.parse(readFileSync(goldenPath("moana-splits.json"), "utf8")) as { n: number; splits: { rep: number }[] };
    const splits = join(dir, "splits.json");
    writeFileSync(splits, JSON.stringify({ n: all.n, splits: all.splits.filter((s) => s.rep < 2) }));
    const r = varmap("cv", ...moanaMapArgs(), "--splits", splits, "--method", "delaunay", "--paper", "--json", "--predictions", out);
    expect(r.code, r.err).toBe(0);
    const preds = readCsv(out);
    expect(preds).toHaveLength(7776);
    const ref = new Map(readCsv(goldenPath("delaunay-delsparse-predictions.csv")).map((x) => [`${x.p},${x.rep},${x.index}`, x.prediction as number]));
    let close = 0;
    for (const p of preds)
      if (Math.abs((p.prediction as number) - ref.get(`${p.p},${p.rep},${p.index}`)!) <= 1e-9 * Math.abs(ref.get(`${p.p},${p.rep},${p.index}`)!)) close++;
    expect(close / preds.length).toBeGreaterThan(0.985); // the rest: grid ties and DelaunaySparse's inexact projections
  });
});
