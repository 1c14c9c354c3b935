// The real MOANA map through the pool: cv over the 180 golden divisions with lr and lsp reproduces the anchors'
// mean ARE per p (R lm: 1e-8 relative; SHEPPACK LSP: within 0.05 percentage points, issue #4's tolerance).
import { describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCv } from "../../ts/verbs/cv.js";
import { goldenPath, hasShared, readCsv, sharedSkipReason } from "../helpers/shared.js";

const why = !hasShared ? sharedSkipReason : "";

function perP(rows: Record<string, number | string>[], col: string, keep: (r: Record<string, number | string>) => boolean = () => true): Map<number, number> {
  const acc = new Map<number, number[]>();
  for (const r of rows) if (keep(r)) (acc.get(r.p as number) ?? acc.set(r.p as number, []).get(r.p as number)!).push(r[col] as number);
  return new Map([...acc].map(([p, v]) => [p, v.reduce((a, b) => a + b, 0) / v.length]));
}

describe.skipIf(why !== "")(`golden cv through the pool${why ? ` (${why})` : ""}`, () => {
  it("reproduces the per-p ARE of R lm and SHEPPACK on the 180 given divisions", async () => {
    const out = mkdtempSync(join(tmpdir(), "varmap-golden-cv-"));
    const s = await runCv(goldenPath("moana-map.csv"), {
      // the papers' setup: no transforms (the CLI's defaults are auto)
      data: { map: true, id: "index", inputs: ["u_freq", "u_threads", "u_fsize", "u_rsize"], response: "sd", stat: "sd" },
      splits: goldenPath("moana-splits.json"),
      methods: ["lr", "lsp"],
      out,
      run: { workers: 2, quiet: true },
    });
    expect(s.tasks).toBe(2 * 9); // 180 splits in chunks of 20, per method
    const table = readCsv(join(out, "table2.csv"));
    const lm = perP(readCsv(goldenPath("regressors-are-per-split.csv")), "are", (r) => r.model === "lm");
    const lsp = perP(readCsv(goldenPath("anchors-fortran-are-per-split.csv")), "are_lsp_sheppack");
    expect(table.length).toBe(9);
    for (const r of table) {
      const p = r.p as number;
      expect(Math.abs((r.are_lr as number) - lm.get(p)!) / lm.get(p)!).toBeLessThan(1e-8);
      expect(Math.abs((r.are_lsp as number) - lsp.get(p)!)).toBeLessThan(5e-4);
    }
    // The papers' columns first, unchanged; the trust columns (issue 15) after them, then skipped divisions and reasons (issue 16).
    expect(readFileSync(join(out, "are.csv"), "utf8").split("\n")[0]).toBe(
      "method,p,reps,failed,are_mean,are_sd,predictions,extrapolated,clamped,are_clamped_mean,are_clamped_sd,skipped,reason",
    );
  });
});
