// Real data against the references (mclust, mixtools, exact gamma MLE) at the tolerances.
import { describe, expect, it } from "vitest";
import { fitMixtures } from "../../ts/mixture/fit.js";
import { PAPERS_SETUP } from "../../ts/mixture/select.js";

// The fidelity bar is on the papers' setup: maximum-likelihood EM (the default fits are MAP, DEFAULT_SETUP), every
// fit scored (the bar is per (configuration, k), so no selection or guard is involved).
const PAPERS_FIT = { priorStrength: PAPERS_SETUP.priorStrength };
import { selected } from "../helpers/backends.js";
import { goldenPath, hasShared, readCsv, sharedSkipReason } from "../helpers/shared.js";
import { IOZONE_KEYS, readIozone } from "./iozone.js";

const keyOf = (r: Record<string, number | string>) => IOZONE_KEYS.map((k) => String(r[k])).join(",");

describe.skipIf(!hasShared)(
  `mixtures of the 274 IOzone configurations vs mclust/mixtools on ${selected.name}${hasShared ? "" : " — " + sharedSkipReason}`,
  () => {
    const data = hasShared ? readIozone() : undefined;
    const anchors = hasShared ? readCsv(goldenPath("mixture-anchors-detail.csv")) : [];
    const stats = new Map(hasShared ? readCsv(goldenPath("mixture-config-stats.csv")).map((r) => [keyOf(r), r]) : []);

    it("normal and lognormal: log L >= best anchor - 1e-6 n in >= 99% of pairs (anchor scales below the tie floor counted apart)", () => {
      const d = data!;
      const fit = fitMixtures(d.runs, d.offsets, { ...PAPERS_FIT, families: ["normal", "lognormal"], kmax: 5, backend: selected });
      const ours = new Map(fit.rows.map((r) => [`${d.keys[r.config]}|${r.family}|${r.k}`, r]));
      const summary: Record<string, { pairs: number; pass: number; belowFloor: number; exceptions: string[] }> = {};
      const byPair = new Map<string, Record<string, number | string>[]>();
      for (const a of anchors) {
        if ((a.family !== "normal" && a.family !== "lognormal") || a.status !== "ok") continue;
        const p = `${keyOf(a)}|${a.family}|${a.k}`;
        if (!byPair.has(p)) byPair.set(p, []);
        byPair.get(p)!.push(a);
      }
      for (const [p, list] of byPair) {
        const [key, family, k] = p.split("|");
        const s = (summary[`${family}:${k}`] ??= { pairs: 0, pass: 0, belowFloor: 0, exceptions: [] });
        const ci = d.keys.indexOf(key);
        const st = stats.get(key)!;
        const floor = family === "normal" ? fit.resolution[2 * ci] : fit.resolution[2 * ci + 1];
        const unit = family === "normal" ? Number(st.sd) : Number(st.sd_log);
        const usable = list.filter((a) => {
          const sd = String(a.params)
            .split(";")
            .find((t) => t.startsWith("sd="))!
            .slice(3)
            .split(" ")
            .map(Number);
          return Math.min(...sd) * unit >= floor;
        });
        if (usable.length === 0) {
          s.belowFloor++;
          continue;
        }
        s.pairs++;
        const target = Math.max(...usable.map((a) => Number(a.loglik_raw)));
        const mine = ours.get(p)!;
        if (mine.loglik >= target - 1e-6 * mine.n) s.pass++;
        else s.exceptions.push(`${key} k=${k}: ours ${mine.loglik.toFixed(4)} < anchor ${target.toFixed(4)}`);
      }
      let pairs = 0,
        pass = 0;
      for (const [m, s] of Object.entries(summary).sort()) {
        console.log(`${m}: ${s.pass}/${s.pairs} pairs at or above the best anchor; ${s.belowFloor} excluded (anchor scale below tie floor)`);
        for (const e of s.exceptions) console.log(`  exception ${m} ${e}`);
        pairs += s.pairs;
        pass += s.pass;
      }
      // The target: >= 99% of the (configuration, k) pairs per family. With split-and-merge refinement:
      // normal 99.26%, lognormal 99.33% (the pairs still short, all at k >= 3, are listed above: mixtools/mclust found
      // a different spike or core arrangement). And 100% for k = 1, 2.
      const fam = (f: string) =>
        Object.entries(summary)
          .filter(([m]) => m.startsWith(f + ":"))
          .map(([, s]) => s);
      for (const f of ["normal", "lognormal"]) {
        const list = fam(f);
        const rate = list.reduce((t, s) => t + s.pass, 0) / list.reduce((t, s) => t + s.pairs, 0);
        console.log(`${f}: ${(100 * rate).toFixed(2)}% of pairs at or above the best anchor`);
        expect(rate, f).toBeGreaterThanOrEqual(0.99);
      }
      for (const m of ["normal:1", "normal:2", "lognormal:1", "lognormal:2"]) expect(summary[m].pass, m).toBe(summary[m].pairs);
      expect(pass / pairs).toBeGreaterThanOrEqual(0.99);
    });

    it("gamma: k = 1 equals the exact MLE within 1e-9; k = 2, 3 are >= mixtools - 1e-6 n", () => {
      const d = data!;
      const fit = fitMixtures(d.runs, d.offsets, { ...PAPERS_FIT, families: ["gamma"], kmax: 3, backend: selected });
      const ours = new Map(fit.rows.map((r) => [`${d.keys[r.config]}|${r.k}`, r]));
      let worst = 0,
        checked = 0;
      const exceptions: string[] = [];
      let cmp = 0,
        ok = 0;
      for (const a of anchors) {
        if (a.family !== "gamma") continue;
        const mine = ours.get(`${keyOf(a)}|${a.k}`)!;
        const ref = Number(a.loglik_raw);
        if (a.package === "exact-mle") {
          const rel = Math.abs(mine.loglik - ref) / Math.abs(ref);
          worst = Math.max(worst, rel);
          checked++;
          if (rel > 1e-9) exceptions.push(`${keyOf(a)} k=1: ours ${mine.loglik} vs exact ${ref}`);
        } else if (a.package === "mixtools" && Number(a.k) >= 2 && a.status === "ok") {
          cmp++;
          if (mine.loglik >= ref - 1e-6 * mine.n) ok++;
          else exceptions.push(`${keyOf(a)} k=${a.k}: ours ${mine.loglik.toFixed(4)} < mixtools ${ref.toFixed(4)}`);
        }
      }
      console.log(`gamma k=1: ${checked} configurations, worst relative difference to the exact MLE ${worst.toExponential(2)}`);
      console.log(`gamma k=2,3: ${ok}/${cmp} at or above mixtools`);
      for (const e of exceptions) console.log(`  exception gamma ${e}`);
      expect(checked).toBe(274);
      expect(worst).toBeLessThanOrEqual(1e-9);
      expect(ok).toBe(cmp);
    });
  },
);
