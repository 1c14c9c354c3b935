// LSP against SHEPPACK (LSHEP + LSHEPVAL): the real map's 180 splits and the six synthetic problems.
import { describe, expect, it } from "vitest";
import { cvGivenSplits } from "../../ts/cv/given.js";
import { meanArePerP } from "../../ts/cv/are.js";
import { LinearShepard } from "../../ts/predict/lsp.js";
import { matrix } from "../../ts/predict/matrix.js";
import { selected } from "../helpers/backends.js";
import { goldenPath, hasShared, readCsv, sharedSkipReason } from "../helpers/shared.js";
import { moanaMap, moanaSplits, referencePredictions } from "./golden-data.js";

const rel = (a: number, b: number) => Math.abs(a - b) / Math.abs(b);

describe.skipIf(!hasShared)(`LSP vs SHEPPACK on ${selected.name}${hasShared ? "" : ` — ${sharedSkipReason}`}`, () => {
  it("matches lsp-sheppack-predictions.csv to 1e-8 at >= 99.5% of the 77,760 test points, ARE per p within 0.05 points", () => {
    const map = moanaMap();
    const ref = referencePredictions("lsp-sheppack-predictions.csv");
    const results = cvGivenSplits(map, moanaSplits(), "lsp");
    let total = 0,
      within = 0,
      codes = 0;
    const refAre: { p: number; are: number }[] = [];
    for (const r of results) {
      let s = 0;
      r.ids.forEach((id, k) => {
        const g = ref.get(`${r.p},${r.rep},${id}`)!;
        expect(g, `reference row ${r.p},${r.rep},${id}`).toBeDefined();
        total++;
        if (rel(r.predictions[k], g.prediction as number) <= 1e-8) within++;
        if (g.lshep_ier === 2) codes++;
        s += Math.abs((g.prediction as number) - r.truth[k]) / r.truth[k];
      });
      refAre.push({ p: r.p, are: s / r.ids.length });
    }
    expect(total).toBe(77760);
    expect(codes).toBe(total); // LSHEP reported a rank-deficient local fit on every split
    expect(within / total).toBeGreaterThanOrEqual(0.995);
    const ours = meanArePerP(results),
      theirs = meanArePerP(refAre);
    ours.forEach((o, i) => expect(Math.abs(o.are - theirs[i].are)).toBeLessThanOrEqual(0.0005));
  });

  it("reports a rank-deficient local fit on every split, as LSHEP's IER = 2 does", () => {
    const map = moanaMap();
    const splits = moanaSplits().splits.filter((_, i) => i % 30 === 0);
    for (const s of splits) {
      const train = [...s.train].map(Number).sort((a, b) => a - b);
      const X = matrix(Float64Array.from(train.flatMap((i) => Array.from(map.X.subarray(i * 4, i * 4 + 4)))), train.length, 4);
      const model = new LinearShepard({ inputs: { kind: "none" } }).fit(
        X,
        train.map((i) => map.y[i]),
      );
      expect(model.rankDeficientNodes).toBeGreaterThan(0);
    }
  });

  for (const d of [4, 8, 20])
    for (const n of [1000, 10000])
      it(`synthetic d=${d} n=${n}: 1e-8 at >= 99.9% of the 1,100 queries, LSHEPVAL's codes`, () => {
        const cols = Array.from({ length: d }, (_, j) => `x${j + 1}`);
        const train = readCsv(goldenPath(`synthetic-d${d}-n${n}-train.csv`));
        const query = readCsv(goldenPath(`synthetic-d${d}-query.csv`));
        const ref = readCsv(goldenPath(`synthetic-d${d}-n${n}-lsp-sheppack.csv`));
        const X = matrix(Float64Array.from(train.flatMap((r) => cols.map((c) => r[c] as number))), train.length, d);
        const Q = matrix(Float64Array.from(query.flatMap((r) => cols.map((c) => r[c] as number))), query.length, d);
        const model = new LinearShepard({ inputs: { kind: "none" } }).fit(
          X,
          train.map((r) => r.f as number),
        );
        const ev = model.evaluate(Q);
        let within = 0,
          sameCode = 0;
        ref.forEach((g, k) => {
          if (rel(ev.values[k], g.prediction as number) <= 1e-8) within++;
          if (ev.ierr[k] === g.ierr) sameCode++;
        });
        expect(within / ref.length).toBeGreaterThanOrEqual(0.999);
        expect(sameCode / ref.length).toBeGreaterThanOrEqual(0.999);
      });
});
