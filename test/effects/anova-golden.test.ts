// The ANOVA of the fread configurations against R (../shared/golden/anova-fread-r.csv): lm(log(sd) ~ (freq + thr
// + pair)^2) with frequency, threads and the (file size, record size) pair as factors; anova() for type I,
// car::Anova() for type II. SS, F and partial η² to 1e-8 relative; p to 1e-8 relative where R's p > 1e-300.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { anova, factorOf } from "../../ts/effects/anova.js";
import { goldenPath, hasShared, readCsv } from "../helpers/shared.js";

function readQuoted(path: string): Record<string, string>[] {
  const [head, ...lines] = readFileSync(path, "utf8").split(/\r?\n/).filter(Boolean);
  const unq = (s: string) => s.replace(/^"|"$/g, "");
  const cols = head.split(",").map(unq);
  return lines.map((l) => Object.fromEntries(l.split(",").map((v, i) => [cols[i], unq(v)])));
}

const rel = (a: number, b: number) => Math.abs(a - b) / Math.max(Math.abs(b), 1e-300);

describe.skipIf(!hasShared)("ANOVA against R on the fread configurations", () => {
  it("type I and type II SS, F, p and partial η² equal R's to 1e-8", () => {
    const map = readCsv(goldenPath("moana-map.csv"));
    const y = Float64Array.from(map, (r) => Math.log(r.sd as number));
    const factors = [
      factorOf(
        "freq",
        map.map((r) => r.freq_khz as number),
      ),
      factorOf(
        "thr",
        map.map((r) => r.threads as number),
      ),
      factorOf(
        "pair",
        map.map((r) => `${r.fsize_kb}|${r.rsize_kb}`),
      ),
    ];
    const t = anova(y, factors);
    const golden = readQuoted(goldenPath("anova-fread-r.csv"));
    const res = golden.find((g) => g.term === "Residuals");
    expect(t.residual.df).toBe(Number(res?.df));
    expect(rel(t.residual.ss, Number(res?.ss_type1))).toBeLessThan(1e-8);
    let worst = 0;
    for (const g of golden.filter((g) => g.term !== "Residuals")) {
      const row = t.rows.find((r) => r.term === g.term);
      expect(row, g.term).toBeDefined();
      if (!row) continue;
      expect(row.df).toBe(Number(g.df));
      const pairs: [number, number][] = [
        [row.ssType1, Number(g.ss_type1)],
        [row.fType1, Number(g.f_type1)],
        [row.ssType2, Number(g.ss_type2)],
        [row.fType2, Number(g.f_type2)],
        [row.partialEta2, Number(g.partial_eta2_type2)],
      ];
      for (const [ours, r] of [
        [row.pType1, Number(g.p_type1)],
        [row.pType2, Number(g.p_type2)],
      ] as [number, number][]) {
        if (r > 1e-300) pairs.push([ours, r]);
        else expect(ours).toBeLessThan(1e-300);
      }
      for (const [ours, r] of pairs) worst = Math.max(worst, rel(ours, r));
    }
    console.log(`ANOVA max relative difference from R: ${worst.toExponential(2)}`);
    expect(worst).toBeLessThan(1e-8);
  });
});
