// Shapiro–Wilk and the dip test against R (shapiro.test; diptest::dip.test with its interpolated table) on every
// configuration of the real fread (864) and IOzone (274) data: ../shared/golden/screen-{fread,iozone}-r.csv.
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadDataset } from "../../ts/data/load.js";
import { screenTable } from "../../ts/screen/screen.js";
import { dataPath, goldenPath, hasShared, sharedSkipReason } from "../helpers/shared.js";

/** The golden CSVs quote their strings; R writes NA for missing and "" for the empty SW cells. */
function readQuoted(path: string): Record<string, string>[] {
  const [head, ...lines] = readFileSync(path, "utf8").split(/\r?\n/).filter(Boolean);
  const unq = (s: string) => s.replace(/^"|"$/g, "");
  const cols = head.split(",").map(unq);
  return lines.map((l) => Object.fromEntries(l.split(",").map((v, i) => [cols[i], unq(v)])));
}

const num = (s: string) => (s === "" || s === "NA" ? Number.NaN : Number(s));

async function compare(dataFile: string, golden: string, preset: string) {
  const data = await loadDataset(dataPath(dataFile), { preset, stat: "mean", allowNoInputs: true, allowDuplicateRuns: preset === "iozone" });
  const t = data.table;
  const d = t.roles.inputs.length;
  const keyOf = (factors: string[], inputs: number[]) => [...factors, ...inputs.map(String)].join("|");
  const index = new Map<string, number>();
  for (let c = 0; c < t.count; c++)
    index.set(
      keyOf(
        t.factorValues.map((f) => f[c]),
        Array.from(t.inputs.subarray(c * d, c * d + d)),
      ),
      c,
    );
  const rows = readQuoted(goldenPath(golden));
  const r = screenTable(t);
  let swMax = 0;
  let dipMax = 0;
  let dipPMax = 0;
  let swCompared = 0;
  let notNormalR = 0;
  let notNormalUs = 0;
  for (const row of rows) {
    const c = index.get(
      keyOf(
        t.roles.factors.map((f) => row[f]),
        t.roles.inputs.map((i) => Number(row[i])),
      ),
    );
    expect(c, `configuration ${JSON.stringify(row)}`).toBeDefined();
    if (c === undefined) continue;
    expect(r.columns.n[c]).toBe(Number(row.n));
    const w = num(row.sw_w);
    const p = num(row.sw_p);
    if (Number.isNaN(w)) {
      expect(r.columns.swW[c]).toBeNaN();
    } else {
      swCompared++;
      swMax = Math.max(swMax, Math.abs(r.columns.swW[c] - w), Math.abs(r.columns.swP[c] - p));
      if (p < 0.05) notNormalR++;
      if (r.columns.swP[c] < 0.05) notNormalUs++;
    }
    dipMax = Math.max(dipMax, Math.abs(r.columns.dip[c] - num(row.dip)));
    dipPMax = Math.max(dipPMax, Math.abs(r.columns.dipP[c] - num(row.dip_p)));
  }
  return { rows: rows.length, swCompared, swMax, dipMax, dipPMax, notNormalR, notNormalUs };
}

describe.skipIf(!hasShared)("screen against R", () => {
  if (!hasShared) console.warn(sharedSkipReason);
  for (const [file, golden, preset, configs] of [
    ["moana-cfq-noop-fread.csv", "screen-fread-r.csv", "moana", 864],
    ["iozone-2018.csv", "screen-iozone-r.csv", "iozone", 274],
  ] as const) {
    it(`${golden}: Shapiro–Wilk W and p to 1e-6, dip to 1e-12, dip p within 0.01`, async () => {
      if (!existsSync(goldenPath(golden))) return;
      const s = await compare(file, golden, preset);
      console.log(`${golden}: ${JSON.stringify(s)}`);
      expect(s.rows).toBe(configs);
      expect(s.swCompared).toBeGreaterThan(0.9 * configs);
      expect(s.swMax).toBeLessThan(1e-6);
      expect(s.notNormalUs).toBe(s.notNormalR);
      expect(s.dipMax).toBeLessThan(1e-12);
      expect(s.dipPMax).toBeLessThan(0.01);
    }, 60_000);
  }
});
