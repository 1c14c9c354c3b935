// Where the Table-2 workload's CPU time goes, in one thread (no pool): the synthetic moana design loaded once,
// then every cv task of a slice of the maps run in-process, timed per method (process CPU time) and per p.
// Usage: node dist/bench/studies/table2-profile.js [--data file] [--maps K] [--reps R] [--methods lr,lsp,delaunay,mars]
//        [--save record.json]
// Prints a JSON record; CPU seconds scaled to the full workload (117 maps × 200 reps) are in `extrapolated`.
import { loadavg } from "node:os";
import { loadDataset } from "../../ts/data/load.js";
import { packMaps } from "../../ts/data/shared-maps.js";
import { cvPlan, cvTasks, runCvTask, type CvContext } from "../../ts/jobs/cv.js";
import { backendInfo } from "../../ts/backend/index.js";
import { flag } from "../../ts/benchmarks/shared-dir.js";
import { figure, machine, printFigures, saveRecord } from "../figures.js";
import { table2Dataset } from "../table2-data.js";

const data = flag("--data") ?? table2Dataset();
const K = Number(flag("--maps") ?? "6");
const reps = Number(flag("--reps") ?? "25");
const methods = (flag("--methods") ?? "lr,lsp,delaunay,mars").split(",");
const cpu = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

const c0 = cpu();
const ds = await loadDataset(data, { preset: "moana", stat: "sd" });
const loadCpu = cpu() - c0;
// Every (117 / K)-th map: a spread over the scheduler pairs and files.
const step = Math.max(1, Math.floor(ds.maps.length / K));
const picked = ds.maps.filter((_, i) => i % step === 0).slice(0, K);
const maps = packMaps(picked);
const ps = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9];
const perMethod: Record<string, { cpu: number; perP: number[] }> = {};
for (const method of methods) {
  const { plan } = cvPlan(maps, { methods: [method], response: "linear", ps, reps, seed: "1" });
  const ctx: CvContext = { plan, maps };
  const perP = ps.map(() => 0);
  const t0 = cpu();
  for (const t of cvTasks(plan)) {
    const s = cpu();
    runCvTask(ctx, t);
    if (t.kind === "cv-gen") perP[t.pIndex] += cpu() - s;
  }
  perMethod[method] = { cpu: cpu() - t0, perP };
  process.stderr.write(`${method}: ${perMethod[method].cpu.toFixed(2)} CPU s (${perP.map((x) => x.toFixed(2)).join(" ")})\n`);
}
const scale = (ds.maps.length / picked.length) * (200 / reps);
const extrapolated = Object.fromEntries(Object.entries(perMethod).map(([m, v]) => [m, Math.round(v.cpu * scale * 10) / 10]));
process.stdout.write(
  JSON.stringify({ data, maps: picked.length, reps, backend: backendInfo().backend.name, loadCpu, perMethod, extrapolated, loadavg: loadavg() }, null, 2) +
    "\n",
);
const figs = Object.entries(extrapolated).map(([m, v]) => figure(`Table-2 cv tasks of ${m}, one thread, scaled to 117 maps × 200 reps`, v, "s CPU"));
figs.push(figure("Loading the synthetic moana design (3.8 M runs)", loadCpu, "s CPU"));
printFigures(figs);
saveRecord(flag("--save"), { workload: "table2-profile", figures: figs, machine: machine(backendInfo().backend.name) });
