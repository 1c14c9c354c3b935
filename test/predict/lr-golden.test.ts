// Linear regression against R lm on the real map's 180 splits.
import { describe, expect, it } from "vitest";
import { cvGivenSplits } from "../../ts/cv/given.js";
import { selected } from "../helpers/backends.js";
import { hasShared, sharedSkipReason } from "../helpers/shared.js";
import { moanaMap, moanaSplits, referencePredictions } from "./golden-data.js";

describe.skipIf(!hasShared)(`LR vs R lm on ${selected.name}${hasShared ? "" : ` — ${sharedSkipReason}`}`, () => {
  it("matches lr-lm-predictions.csv to 1e-9 relative on all 180 splits", () => {
    const ref = referencePredictions("lr-lm-predictions.csv");
    const results = cvGivenSplits(moanaMap(), moanaSplits(), "lr");
    let total = 0,
      worst = 0;
    for (const r of results)
      r.ids.forEach((id, k) => {
        const g = ref.get(`${r.p},${r.rep},${id}`)!.prediction as number;
        worst = Math.max(worst, Math.abs(r.predictions[k] - g) / Math.abs(g));
        total++;
      });
    expect(total).toBe(77760);
    expect(worst).toBeLessThanOrEqual(1e-9);
  });
});
