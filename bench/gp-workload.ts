// gp on the real fread runs (issue 16's benchmark): log2 inputs threads, fsize_kb, rsize_kb, log response, the
// golden splits at p = 0.1 / 0.5 / 0.9 (20 each). Prints the mean ARE % per p and the CPU time per fit. The map is read
// from the runs, so gp models each configuration's measured noise (its jackknife variance); --gp-noise none ignores it.
//   node dist/bench/gp-workload.js [--methods gp,rbf] [--p 0.1,0.5,0.9] [--reps 20] [--gp-kernel matern32|matern52|sqexp] [--gp-point are|median]
//     [--auto-candidates list] [--gp-mean linear|constant] [--gp-hyper-points n] [--gp-screen-points n] [--gp-restarts n] [--gp-noise measured|none] [--gp-local yes|no] [--gp-neighbours m]
//     [--backend native|wasm] [--log-inputs threads,fsize_kb,rsize_kb (the default; add freq_khz to log it too)] [--shared DIR]
import { loadavg } from "node:os";
import { scoreSplits } from "../ts/cv/scoring.js";
import { flag } from "../ts/benchmarks/shared-dir.js";
import { freadGolden } from "./fread-golden.js";

const methods = (flag("--methods") ?? "gp").split(",");
const ps = (flag("--p") ?? "0.1,0.5,0.9").split(",").map(Number);
const reps = Number(flag("--reps") ?? 20);
const hyper: Record<string, unknown> = {};
if (flag("--gp-kernel")) hyper.kernel = flag("--gp-kernel");
if (flag("--gp-mean")) hyper.mean = flag("--gp-mean");
if (flag("--backend")) hyper.backend = flag("--backend");
if (flag("--gp-hyper-points")) hyper.hyperPoints = Number(flag("--gp-hyper-points"));
// --gp-screen-points 100000 --gp-hyper-points 400: the search as it was before issue 46 (every start on 400 points).
if (flag("--gp-screen-points")) hyper.screenPoints = Number(flag("--gp-screen-points"));
if (flag("--gp-restarts")) hyper.restarts = Number(flag("--gp-restarts"));
if (flag("--gp-point")) hyper.point = flag("--gp-point");
// --gp-local yes: the local variant (each query from its nearest training points) even on maps the exact solve takes.
if (flag("--gp-local")) hyper.local = flag("--gp-local") === "yes";
if (flag("--gp-neighbours")) hyper.neighbours = Number(flag("--gp-neighbours"));
// --gp-noise none: one nugget for every point (the map's measured per-configuration variances are ignored).
if (flag("--gp-noise")) hyper.noise = flag("--gp-noise");
// auto's candidates (--auto-candidates lr,rbf,gp): passed to the auto method only.
const autoHyper: Record<string, unknown> = flag("--auto-candidates") ? { candidates: flag("--auto-candidates")!.split(",") } : {};

const fread = await freadGolden((flag("--log-inputs") ?? "threads,fsize_kb,rsize_kb").split(","));
const map = fread.map;
console.log(`fread map: ${map.rows} configurations; load average ${loadavg()[0].toFixed(1)}`);
for (const method of methods) {
  const cells: string[] = [];
  for (const p of ps) {
    const rows = fread.splitsAt(p, reps);
    const c0 = process.cpuUsage();
    const scored = scoreSplits(map, rows, method, "log", method === "gp" ? hyper : method === "auto" ? autoHyper : {});
    const cpu = process.cpuUsage(c0);
    const ares = scored.map((r) => ("are" in r ? r.are : NaN));
    const failed = ares.filter((a) => !Number.isFinite(a)).length;
    const ok = ares.filter(Number.isFinite);
    const mean = (100 * ok.reduce((a, b) => a + b, 0)) / ok.length;
    const max = 100 * Math.max(...ok);
    cells.push(
      `p=${p}: ${mean.toFixed(2)} % (max ${max.toFixed(0)} %, ${failed} failed; ${((cpu.user + cpu.system) / 1000 / rows.length).toFixed(0)} ms CPU/fit)`,
    );
  }
  const shown = method === "gp" ? hyper : method === "auto" ? autoHyper : {};
  console.log(`${method}${Object.keys(shown).length ? " " + JSON.stringify(shown) : ""}: ${cells.join("; ")}`);
}
