// `varmap screen` over the full synthetic mixture design (22,734 configurations × 150 runs, issue 45's figure:
// ≤ 30 s on 2 cores). Generates the design once (or reads --data), then times the verb end to end (read + screen +
// write) and the screening alone, as process CPU and wall time.
//   node dist/bench/screen-workload.js [--data runs.csv] [--out /tmp/screen.csv]
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runScreen } from "../ts/verbs/screen.js";
import { flag } from "../ts/benchmarks/shared-dir.js";

const data = flag("--data") ?? join(tmpdir(), "varmap-mixture-design.csv");
const out = flag("--out") ?? join(tmpdir(), "varmap-screen-workload.csv");
if (!existsSync(data)) {
  process.stderr.write(`generating the mixture design into ${data} …\n`);
  execFileSync("node", [join(import.meta.dirname, "../ts/cli/main.js"), "synth", "--design", "mixture", "--out", data, "--quiet"], { stdio: "inherit" });
}
const t0 = process.hrtime.bigint();
const c0 = process.cpuUsage();
const s = await runScreen(data, { load: { preset: "iozone", allowDuplicateRuns: true }, out });
const cpu = process.cpuUsage(c0);
const wall = Number(process.hrtime.bigint() - t0) / 1e9;
console.log(
  JSON.stringify(
    {
      configurations: s.configurations,
      headline: s.headline,
      wallSeconds: wall,
      cpuSeconds: (cpu.user + cpu.system) / 1e6,
      screeningCpuSeconds: s.cpuSeconds,
    },
    null,
    2,
  ),
);
