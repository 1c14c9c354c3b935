// Issue 17 measurements on the IOzone data: (1) validation of selection rules on held-back runs, both split
// schemes (odd/even runs, first/second half); (2) the time of `--criterion cv --folds 5` selection (5 fold fits +
// the full fit of 274 configurations × 30 models).
//   node dist/bench/studies/mixture-validate-workload.js [--data /work/shared/data/iozone-2018.csv] [--workers 2] [--only timing|validate]
//     [--prior-strengths 0,1,4 --arms bic-unguarded,icl,single-k1]: one validation per MAP prior strength (EM's
//     --prior-strength), each arm's table, then every (strength, arm) against the ML references (best single family by
//     training log L and the BIC default, both at strength 0: mean held-back log L per run, differences in nats).
//     The arm `default` is DEFAULT_SETUP (loglogistic, MAP EM s = 4, BIC, guard on), validated with its own fits and
//     compared with the same references.
import { loadDataset } from "../../ts/data/load.js";
import { fitMixturesParallel } from "../../ts/jobs/mixture.js";
import { DEFAULT_SETUP, GUARD_OFF, STRICT_GUARD, parseGuard } from "../../ts/mixture/select.js";
import { formatValidation, selectModels, summarizeValidation, validateMixtures, type Arm } from "../../ts/jobs/mixture-validate.js";
import { flag } from "../../ts/benchmarks/shared-dir.js";

const file = flag("--data") ?? "/work/shared/data/iozone-2018.csv";
const workers = Number(flag("--workers") ?? 2);
const only = flag("--only");
// Guard settings of the guarded arms over all six families (defaults: STRICT_GUARD, the setting studied with them);
// --no-cv drops the cv arms (6 fits per fold instead of 1).
const guard = {
  ...STRICT_GUARD,
  minRunsPerParam: Number(flag("--min-runs-per-param") ?? STRICT_GUARD.minRunsPerParam),
  relativeScale: Number(flag("--rel-scale") ?? STRICT_GUARD.relativeScale),
};
const noCv = process.argv.includes("--no-cv");
const strengths = (flag("--prior-strengths") ?? "0").split(",").map(Number);
const armFilter = flag("--arms")?.split(",");
const data = await loadDataset(file, { preset: "iozone", stat: "sd", requirePositive: true, positiveReason: "mixtures" });
const t = data.table;
const runs = Float64Array.from(t.runs.subarray(0, t.offsets[t.count]));
const offsets = Int32Array.from(t.offsets.subarray(0, t.count + 1));
const configIds = Int32Array.from({ length: t.count }, (_, i) => i);
const fit = { families: undefined, kmax: 5, restarts: 5, seed: 1 };
const base = { folds: 5, seed: 1, workers, fit };

if (only !== "validate") {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const full = await fitMixturesParallel(runs, offsets, { ...fit, configIds, workers });
  const t1 = performance.now();
  const s = await selectModels(runs, offsets, configIds, full, { ...base, criterion: "cv", guard: STRICT_GUARD });
  const t2 = performance.now();
  const cpu = process.cpuUsage(c0);
  process.stdout.write(
    `criterion cv, 5 folds, ${t.count} configurations x ${full.rows.length / t.count} models, ${workers} workers: ` +
      `full fit ${((t1 - t0) / 1000).toFixed(2)} s + cv folds and selection ${((t2 - t1) / 1000).toFixed(2)} s = ${((t2 - t0) / 1000).toFixed(2)} s wall, ` +
      `${((cpu.user + cpu.system) / 1e6).toFixed(2)} s CPU (all threads); guard binds in ${s.guardBinds}\n`,
  );
}
if (only !== "timing") {
  const all: Arm[] = [
    { name: "bic-unguarded", criterion: "bic", guard: GUARD_OFF },
    { name: "aic-unguarded", criterion: "aic", guard: GUARD_OFF },
    { name: "bic", criterion: "bic", guard: STRICT_GUARD },
    { name: "icl", criterion: "icl", guard: STRICT_GUARD },
    { name: "aic", criterion: "aic", guard: STRICT_GUARD },
    { name: "cv", criterion: "cv", guard: STRICT_GUARD },
    { name: "cv-unguarded", criterion: "cv", guard: GUARD_OFF },
    { name: "single-k1", criterion: "single", guard: GUARD_OFF },
  ];
  const arms = all.filter((a) => !(noCv && a.criterion === "cv") && (!armFilter || armFilter.includes(a.name))).map((a) => (a.guard.on ? { ...a, guard } : a));
  const withDefault = !armFilter || armFilter.includes("default");
  const defaultFit = { ...fit, families: DEFAULT_SETUP.families, priorStrength: DEFAULT_SETUP.priorStrength };
  for (const split of ["odd-even", "halves"] as const) {
    const rows: { s: number; arm: string; mean: number; cat: number; perConfig: number[] }[] = [];
    if (withDefault) {
      const v = await validateMixtures(
        runs,
        offsets,
        configIds,
        split,
        2,
        [{ name: "default", criterion: DEFAULT_SETUP.criterion, guard: parseGuard(DEFAULT_SETUP.guard) }],
        {
          ...base,
          fit: defaultFit,
        },
      );
      process.stdout.write(
        `default setup (${DEFAULT_SETUP.families.join(",")}, prior strength ${DEFAULT_SETUP.priorStrength}, ${DEFAULT_SETUP.criterion}, guard ${DEFAULT_SETUP.guard}): ` +
          formatValidation(v) +
          `(${v.seconds.toFixed(1)} s)\n\n`,
      );
      const a = summarizeValidation(v)[0];
      rows.push({
        s: DEFAULT_SETUP.priorStrength,
        arm: "default",
        mean: a.meanHeldOutPerRun,
        cat: a.catastrophic,
        perConfig: v.configs.map((c) => c.heldOut.default),
      });
    }
    for (const s of strengths) {
      const v = await validateMixtures(runs, offsets, configIds, split, 2, arms, { ...base, fit: { ...fit, priorStrength: s } });
      process.stdout.write(`prior strength ${s}: ` + formatValidation(v) + `(${v.seconds.toFixed(1)} s)\n\n`);
      for (const a of summarizeValidation(v))
        rows.push({ s, arm: a.arm, mean: a.meanHeldOutPerRun, cat: a.catastrophic, perConfig: v.configs.map((c) => c.heldOut[a.arm]) });
    }
    const ref = (arm: string) => rows.find((r) => r.s === 0 && r.arm === arm && arm !== "default");
    const single = ref("single-k1"),
      bic = ref("bic-unguarded");
    if (!single || !bic) continue;
    process.stdout.write(
      `split ${split}: mean held-back log L per run, minus the ML best single family (${single.mean.toFixed(4)}) and the ML BIC default (${bic.mean.toFixed(4)})\n`,
    );
    for (const r of rows)
      process.stdout.write(
        `  s=${r.s}  ${r.arm.padEnd(14)} mean ${r.mean.toFixed(4)}  vs single ${(r.mean - single.mean).toFixed(4)}  vs bic ${(r.mean - bic.mean).toFixed(4)}  catastrophic ${r.cat}\n`,
      );
    process.stdout.write("\n");
  }
}
