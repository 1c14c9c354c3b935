// Preloaded into every Node process of a run (NODE_OPTIONS=--require=$PWD/bench/studies/process-cpu.cjs npx vitest run),
// it appends one line per process at exit: pid, CPU seconds (user + sys, all its threads), wall seconds, argv. Summing by
// argv shows where a test suite's CPU goes (docs/studies/cli-startup.md). VARMAP_PROCESS_CPU_LOG names the file.
const fs = require("node:fs");
const t0 = Date.now();
const log = process.env.VARMAP_PROCESS_CPU_LOG ?? "/tmp/varmap-process-cpu.tsv";
process.on("exit", () => {
  try {
    const u = process.cpuUsage();
    const argv = process.argv.slice(1).join(" ").slice(0, 300);
    fs.appendFileSync(log, `${process.pid}\t${((u.user + u.system) / 1e6).toFixed(3)}\t${((Date.now() - t0) / 1e3).toFixed(2)}\t${argv}\n`);
  } catch {}
});
