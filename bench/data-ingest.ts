// Workload timing for the data layer (issue #3): reading a runs table into configurations and maps.
//   node dist/bench/data-ingest.js <file.csv|file.parquet> [--preset moana] [--reps 3]
// Prints one JSON line: median seconds to read into a ConfigTable (grouped, ordered runs) and for the whole
// loadDataset (plus statistics and maps), the share of it spent on the jackknife variances of the sd (gp's measured
// noise), and the process's peak resident memory.
import { readConfigTable } from "../ts/data/read.js";
import { loadDataset } from "../ts/data/load.js";
import { presetOf } from "../ts/data/presets.js";
import { jackknifeVariances } from "../ts/data/stat-variance.js";

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const file = args.find((a) => !a.startsWith("--"));
  if (!file) throw new Error("usage: data-ingest <file> [--preset moana] [--reps 3]");
  const flag = (name: string, dflt: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : dflt;
  };
  const preset = flag("--preset", "moana");
  const reps = Number(flag("--reps", "3"));
  const read: number[] = [];
  const load: number[] = [];
  // CPU seconds of the process (all DuckDB threads included): on a shared, loaded machine the wall time
  // mostly measures the other tenants; the CPU time is the work itself.
  const readCpu: number[] = [];
  const loadCpu: number[] = [];
  const jackknifeCpu: number[] = [];
  const cpu = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1e6;
  };
  let info = {};
  for (let r = 0; r < reps; r++) {
    let t0 = performance.now();
    let c0 = cpu();
    const table = await readConfigTable(file, presetOf(preset).roles, { allowDuplicateRuns: presetOf(preset).allowDuplicateRuns });
    read.push((performance.now() - t0) / 1000);
    readCpu.push(cpu() - c0);
    t0 = performance.now();
    c0 = cpu();
    const data = await loadDataset(file, { preset });
    load.push((performance.now() - t0) / 1000);
    loadCpu.push(cpu() - c0);
    c0 = cpu();
    jackknifeVariances(table, "sd");
    jackknifeCpu.push(cpu() - c0);
    info = { runs: table.runs.length, configurations: table.count, maps: data.maps.length };
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const out = {
    bench: "data-ingest",
    file,
    ...info,
    reps,
    readSeconds: median(read),
    loadSeconds: median(load),
    readCpuSeconds: median(readCpu),
    loadCpuSeconds: median(loadCpu),
    jackknifeCpuSeconds: median(jackknifeCpu),
    readAll: read,
    loadAll: load,
    loadavg: (await import("node:os")).loadavg().map((x) => Math.round(x * 10) / 10),
    peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
  };
  process.stdout.write(JSON.stringify(out) + "\n");
}

main().catch((e) => {
  process.stderr.write(String(e?.stack ?? e) + "\n");
  process.exitCode = 1;
});
