// MARS against R earth 5.3.2 on the 180 MOANA splits (../shared/golden): per variant, the share of test
// predictions within 1e-6 relative of earth's, mean ARE per p (ours vs earth's), and our fit time per split.
// Usage: node dist/bench/mars-golden.js [--shared DIR] [--variants d1,d2,d2nk200] [--reps N] [--json]
// (backend: VARMAP_BACKEND=native|wasm; earth's times are read from regressors-fit-times.csv)
import { performance } from "node:perf_hooks";
import { Mars, type MarsOptions } from "../ts/predict/mars.js";
import { sharedDir } from "../ts/benchmarks/shared-dir.js";
import { INPUTS, loadMoana, type Split } from "../ts/benchmarks/moana.js";

export const VARIANTS: Record<string, MarsOptions> = { d1: {}, d2: { degree: 2 }, d2nk200: { degree: 2, nk: 200 } };
export { INPUTS, loadMoana };

export function fitSplit(X: number[][], y: number[], s: Split, opts: MarsOptions) {
  const inTrain = new Set(s.train);
  const tr = [...s.train].sort((a, b) => a - b);
  const te = X.map((_, i) => i).filter((i) => !inTrain.has(i));
  const d = X[0].length;
  const Xt = { data: Float64Array.from(tr.flatMap((i) => X[i])), rows: tr.length, cols: d };
  const yt = Float64Array.from(tr.map((i) => y[i]));
  const Xq = { data: Float64Array.from(te.flatMap((i) => X[i])), rows: te.length, cols: d };
  const m = new Mars({ ...opts, inputs: { kind: "none" } });
  const t0 = performance.now();
  m.fit(Xt, yt);
  const fitMs = performance.now() - t0;
  return { model: m, test: te, pred: m.predict(Xq), fitMs };
}

function main() {
  const args = process.argv.slice(2);
  const get = (k: string) => (args.includes(k) ? args[args.indexOf(k) + 1] : undefined);
  const shared = sharedDir();
  const variants = (get("--variants") ?? "d1,d2,d2nk200").split(",");
  const reps = Number(get("--reps") ?? 3);
  const { X, y, splits, earth, earthMs } = loadMoana(shared);
  const report: Record<string, unknown> = {};
  for (const v of variants) {
    let match = 0,
      total = 0;
    const perP = new Map<number, { ours: number[]; ref: number[]; ms: number[] }>();
    const mismatchedSplits: string[] = [];
    for (const s of splits) {
      const times: number[] = [];
      let r = fitSplit(X, y, s, VARIANTS[v]);
      times.push(r.fitMs);
      for (let k = 1; k < reps; k++) {
        r = fitSplit(X, y, s, VARIANTS[v]);
        times.push(r.fitMs);
      }
      let splitMiss = 0;
      let areO = 0,
        areE = 0;
      r.test.forEach((idx, k) => {
        const e = earth.get(`${v}/${s.p}/${s.rep}/${idx}`);
        if (e === undefined) throw new Error(`no earth prediction for ${v} ${s.p} ${s.rep} ${idx}`);
        const o = r.pred[k];
        total++;
        if (Math.abs(o - e) <= 1e-6 * Math.max(Math.abs(e), Math.abs(o))) match++;
        else splitMiss++;
        areO += Math.abs(o - y[idx]) / y[idx];
        areE += Math.abs(e - y[idx]) / y[idx];
      });
      if (splitMiss) mismatchedSplits.push(`p${s.p}r${s.rep}(${splitMiss})`);
      const e = perP.get(s.p) ?? { ours: [], ref: [], ms: [] };
      e.ours.push(areO / r.test.length);
      e.ref.push(areE / r.test.length);
      e.ms.push(Math.min(...times));
      perP.set(s.p, e);
    }
    const rows = [...perP.entries()].map(([p, e]) => {
      const mean = (a: number[]) => a.reduce((s, x) => s + x, 0) / a.length;
      const med = (a: number[]) => [...a].sort((x, z) => x - z)[Math.floor(a.length / 2)];
      const earthMedian = med(earthMs.get(`${v}/${p}`) ?? [NaN]);
      return {
        p,
        areOurs: mean(e.ours),
        areEarth: mean(e.ref),
        relDiff: mean(e.ours) / mean(e.ref) - 1,
        fitMsMedian: med(e.ms),
        earthFitMsMedian: earthMedian,
        speedRatio: med(e.ms) / earthMedian,
      };
    });
    report[v] = { matchFraction: match / total, testPoints: total, mismatchedSplits, perP: rows };
    if (!args.includes("--json")) {
      console.log(
        `== ${v}: predictions within 1e-6 of earth: ${((100 * match) / total).toFixed(2)}% of ${total}; splits with mismatches: ${mismatchedSplits.length} ${mismatchedSplits.join(" ")}`,
      );
      console.log("   p    ARE ours     ARE earth    rel.diff   fit ms ours  fit ms earth  ours/earth   (medians over splits of each split's fastest fit)");
      for (const r of rows)
        console.log(
          `  ${r.p.toFixed(1)}  ${r.areOurs.toFixed(6)}  ${r.areEarth.toFixed(6)}  ${(100 * r.relDiff).toFixed(3).padStart(7)}%  ${r.fitMsMedian.toFixed(3).padStart(10)}  ${r.earthFitMsMedian.toFixed(3).padStart(12)}  ${r.speedRatio.toFixed(3).padStart(10)}`,
        );
    }
  }
  if (args.includes("--json")) console.log(JSON.stringify(report, null, 1));
}

if (import.meta.url === `file://${process.argv[1]}`) main();
