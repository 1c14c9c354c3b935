// Workload timing for the data layer (issue #3): reading a runs table into configurations and maps.
//   node dist/bench/data-ingest.js <file.csv|file.parquet> [--preset moana] [--reps 3]
// Prints one JSON line: median seconds to read into a ConfigTable (grouped, ordered runs) and for the whole
// loadDataset (plus statistics and maps), and the process's peak resident memory.
import { readConfigTable } from "../ts/data/read.js";
import { loadDataset } from "../ts/data/load.js";
import { presetOf } from "../ts/data/presets.js";

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
  let info = {};
  for (let r = 0; r < reps; r++) {
    let t0 = performance.now();
    const table = await readConfigTable(file, presetOf(preset).roles, { allowDuplicateRuns: presetOf(preset).allowDuplicateRuns });
    read.push((performance.now() - t0) / 1000);
    t0 = performance.now();
    const data = await loadDataset(file, { preset });
    load.push((performance.now() - t0) / 1000);
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
    readAll: read,
    loadAll: load,
    peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
  };
  process.stdout.write(JSON.stringify(out) + "\n");
}

main().catch((e) => {
  process.stderr.write(String(e?.stack ?? e) + "\n");
  process.exitCode = 1;
});
