// Memory and time of `varmap summarize` on the full synthetic MOANA design and on ten times its runs (issue 14:
// ≤ 400 MB peak RSS on 3.8 M runs; 38 M runs within 2× that memory).
//   node dist/bench/summarize-memory-workload.js <moana.csv> [--times 10] [--dir /tmp]
// <moana.csv> is `varmap synth --design moana --out moana.csv`. The script writes <dir>/moana-x<times>.parquet
// once (the whole design repeated `times` times, copy after copy, with run indices shifted by 40 per copy and the
// throughput perturbed by 1 % per copy, so configurations keep unique, increasing run indices down the file), then runs `summarize` as a child process under
// /usr/bin/time -v on the CSV, the CSV as Parquet, and the ×times Parquet, and prints one JSON line per run:
// rows, wall and CPU seconds, peak RSS in MiB.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { flag } from "../ts/benchmarks/shared-dir.js";

async function makeCopies(csv: string, out: string, times: number): Promise<void> {
  if (existsSync(out)) return;
  const instance = await DuckDBInstance.create(":memory:", { temp_directory: join(flag("--dir") ?? "/tmp", "varmap-bench-spill") });
  const con = await instance.connect();
  const q = (s: string) => `'${s.replaceAll("'", "''")}'`;
  await con.run(
    `COPY (SELECT host_sched, vm_sched, mode, freq_khz, threads, fsize_kb, rsize_kb, run + 40 * k AS run, throughput_kbps * (1 + 0.01 * k) AS throughput_kbps ` +
      `FROM read_csv(${q(csv)}), range(${times}) AS r(k) ORDER BY k, host_sched, vm_sched, mode, freq_khz, threads, fsize_kb, rsize_kb, run) TO ${q(out)} (FORMAT parquet)`,
  );
  con.closeSync();
  instance.closeSync();
}

function measured(file: string): Record<string, unknown> {
  // The child's --json summary goes to a file; /usr/bin/time's report (stderr) comes back here.
  const cmd = `/usr/bin/time -v ${process.execPath} dist/ts/cli/main.js summarize ${JSON.stringify(file)} --preset moana --json --out ${JSON.stringify(`${file}.summary.csv`)} 2>&1 >${JSON.stringify(`${file}.summary.json`)}`;
  const text = execFileSync("sh", ["-c", cmd], { encoding: "utf8", maxBuffer: 1 << 26 });
  const num = (re: RegExp) => Number(re.exec(text)?.[1] ?? NaN);
  const wall = /Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)/.exec(text);
  const wallSeconds = wall ? Number(wall[1] ?? 0) * 3600 + Number(wall[2]) * 60 + Number(wall[3]) : NaN;
  const summary = JSON.parse(readFileSync(`${file}.summary.json`, "utf8")) as { runs: number; configurations: number };
  return {
    runs: summary.runs,
    configurations: summary.configurations,
    cpuSeconds: num(/User time \(seconds\): ([\d.]+)/) + num(/System time \(seconds\): ([\d.]+)/),
    wallSeconds,
    peakRssMiB: Math.round(num(/Maximum resident set size \(kbytes\): (\d+)/) / 1024),
  };
}

async function main(): Promise<void> {
  const csv = process.argv.slice(2).find((a) => !a.startsWith("--") && a.endsWith(".csv"));
  if (!csv) throw new Error("usage: summarize-memory-workload <moana.csv> [--times 10] [--dir /tmp]");
  const times = Number(flag("--times") ?? "10");
  const dir = flag("--dir") ?? "/tmp";
  const parquet1 = join(dir, "moana-x1.parquet");
  const parquetN = join(dir, `moana-x${times}.parquet`);
  await makeCopies(csv, parquet1, 1);
  await makeCopies(csv, parquetN, times);
  for (const file of [csv, parquet1, parquetN]) {
    process.stdout.write(JSON.stringify({ bench: "summarize-memory", file, ...measured(file) }) + "\n");
  }
}

main().catch((e) => {
  process.stderr.write(String(e?.stack ?? e) + "\n");
  process.exitCode = 1;
});
