// Issue 17: which default generalizes? Fits every family × k on the training runs of both 2-fold split schemes
// (odd/even runs, first/second half) once per MAP prior strength, keeps every fit's training and held-back
// log-likelihood, then scores many selection rules (family set × criterion × guard × prior) offline: mean held-back
// log L per run, catastrophic configurations, against the best single family (k = 1, by training log L, ML) and
// unguarded BIC over all families (ML, the papers' default).
//   node dist/bench/studies/mixture-default-study.js [--data /work/shared/data/iozone-2018.csv] [--workers 2] [--prior-strengths 0,1,4,16]
import { loadDataset } from "../../ts/data/load.js";
import { fitMixturesParallel } from "../../ts/jobs/mixture.js";
import { FAMILY_NAMES, type FamilyName } from "../../ts/mixture/families.js";
import type { MixtureFitRow } from "../../ts/mixture/fit.js";
import { DEFAULT_GUARD, foldBatch, guardVerdict, informationCriterion, runFolds, runSpread, type GuardOptions } from "../../ts/mixture/select.js";
import { flag } from "../../ts/benchmarks/shared-dir.js";

const file = flag("--data") ?? "/work/shared/data/iozone-2018.csv";
const workers = Number(flag("--workers") ?? 2);
const strengths = (flag("--prior-strengths") ?? "0,1,4,16").split(",").map(Number);
const data = await loadDataset(file, { preset: "iozone", stat: "sd", requirePositive: true, positiveReason: "mixtures" });
const t = data.table;
const runs = Float64Array.from(t.runs.subarray(0, t.offsets[t.count]));
const offsets = Int32Array.from(t.offsets.subarray(0, t.count + 1));
const nconf = t.count;
const configIds = Int32Array.from({ length: nconf }, (_, i) => i);

interface RowScore {
  family: FamilyName;
  k: number;
  train: number;
  held: number;
  bic: number;
  icl: number;
  aic: number;
  w: readonly number[];
  row: MixtureFitRow;
  spread: ReturnType<typeof runSpread>;
}
// scores[split][s][fold][config] = the fits of that configuration's training runs
const scores = new Map<string, RowScore[][][]>();
for (const split of ["odd-even", "halves"] as const) {
  const assign = Array.from({ length: nconf }, (_, c) => runFolds(offsets[c + 1] - offsets[c], split, 2, 1, c));
  for (const s of strengths) {
    const perFold: RowScore[][][] = [];
    for (let f = 0; f < 2; f++) {
      const b = foldBatch(runs, offsets, assign, f);
      const fit = await fitMixturesParallel(b.train.runs, b.train.offsets, {
        kmax: 5,
        restarts: 5,
        seed: 1,
        priorStrength: s || undefined,
        configIds,
        workers,
      });
      const per = fit.rows.length / nconf;
      const byConfig: RowScore[][] = [];
      for (let c = 0; c < nconf; c++) {
        const x = b.train.runs.subarray(b.train.offsets[c], b.train.offsets[c + 1]);
        const y = b.test.runs.subarray(b.test.offsets[c], b.test.offsets[c + 1]);
        const spread = runSpread(x);
        const list: RowScore[] = [];
        for (let i = c * per; i < (c + 1) * per; i++) {
          const r = fit.rows[i];
          const ok = Number.isFinite(r.loglik);
          list.push({
            family: r.family,
            k: r.k,
            train: ok ? r.loglik : -Infinity,
            held: ok ? r.mixture.loglik(y) : -Infinity,
            bic: informationCriterion(r, "bic", x),
            icl: informationCriterion(r, "icl", x),
            aic: informationCriterion(r, "aic", x),
            w: r.params.w,
            row: r,
            spread,
          });
        }
        byConfig.push(list);
      }
      perFold.push(byConfig);
    }
    scores.set(`${split}:${s}`, perFold);
    process.stderr.write(`fitted ${split} s=${s}\n`);
  }
}

type Crit = "bic" | "icl" | "aic" | "train1";
interface Rule {
  name: string;
  s: number;
  families: FamilyName[];
  crit: Crit;
  guard: GuardOptions;
}
function evaluate(split: string, rule: Rule): { mean: number; median: number; cat: number; perConfig: number[] } {
  const perFold = scores.get(`${split}:${rule.s}`)!;
  const per: number[] = [];
  let cat = 0;
  for (let c = 0; c < nconf; c++) {
    const n = offsets[c + 1] - offsets[c];
    let held = 0,
      train = 0;
    for (let f = 0; f < 2; f++) {
      const list = perFold[f][c].filter((r) => rule.families.includes(r.family) && (rule.crit !== "train1" || r.k === 1));
      let best: RowScore | undefined;
      for (const r of list) {
        if (!Number.isFinite(r.train)) continue;
        if (guardVerdict(r.row.mixture, r.spread, rule.guard) !== "ok") continue;
        const sc = rule.crit === "train1" ? -r.train : r[rule.crit];
        const bs = best ? (rule.crit === "train1" ? -best.train : best[rule.crit]) : Infinity;
        if (sc < bs) best = r;
      }
      held += best ? best.held : -Infinity;
      train += best ? best.train / best.spread.n / 2 : -Infinity;
    }
    const v = held / n;
    per.push(v);
    if (!(v >= train - 5)) cat++;
  }
  const sorted = [...per].sort((a, b) => a - b);
  return { mean: per.reduce((a, b) => a + b, 0) / nconf, median: sorted[nconf >> 1], cat, perConfig: per };
}

const off = { ...DEFAULT_GUARD, on: false };
const all = [...FAMILY_NAMES];
const sets: [string, FamilyName[]][] = [
  ["ll", ["loglogistic"]],
  ["ll+ln", ["loglogistic", "lognormal"]],
  ["ll+ln+n", ["loglogistic", "lognormal", "normal"]],
];
// guard variants: the count rule with 3 or 5 runs per parameter, the scale floor relative to the sd at 0 (only 2 × resolution), 0.01, 0.1
const guards: [string, GuardOptions][] = [["", off]];
for (const m of [3, 5]) for (const r of [0, 0.01, 0.1]) guards.push([`+g${m}/${r}`, { on: true, minRunsPerParam: m, relativeScale: r }]);
const rules: Rule[] = [];
for (const s of strengths)
  for (const [sn, fams] of sets)
    for (const crit of ["bic", "icl", "aic"] as Crit[])
      for (const [gn, g] of guards) rules.push({ name: `s=${s} ${sn} ${crit}${gn}`, s, families: fams, crit, guard: g });
const refSingle = { name: "single", s: 0, families: all, crit: "train1" as Crit, guard: off };
const refBic = { name: "bic", s: 0, families: all, crit: "bic" as Crit, guard: off };
for (const split of ["odd-even", "halves"]) {
  const a = evaluate(split, refSingle),
    b = evaluate(split, refBic);
  process.stdout.write(`split ${split}: single mean ${a.mean.toFixed(4)} cat ${a.cat}; bic mean ${b.mean.toFixed(4)} cat ${b.cat}\n`);
  for (const r of rules) {
    const e = evaluate(split, r);
    // the margin over the reference per configuration, mean; and the mean over configurations where the reference is not catastrophic
    process.stdout.write(
      `  ${r.name.padEnd(28)} mean ${e.mean.toFixed(4).padStart(12)} median ${e.median.toFixed(4)} cat ${String(e.cat).padStart(3)}  vs single ${(e.mean - a.mean).toFixed(4)}  vs bic ${(e.mean - b.mean).toFixed(4)}\n`,
    );
  }
}
