// `varmap summarize` against DuckDB's own GROUP BY computing the same per-configuration statistics (issue 46:
// within 1.3× of the query's CPU, from Parquet and from CSV, memory ≤ 400 MB), and summarize's memory when the rows are
// shuffled against grouped (issue 44 item 18: memory must not depend on row order).
//   node dist/bench/summarize-pushdown-workload.js <moana.csv> [--reps 3] [--times 3] [--dir /tmp] [--save FILE.json]
// <moana.csv> is `varmap synth --design moana --out moana.csv` (3.79 M runs). Each rep runs, interleaved, summarize
// and the raw query as child processes under /usr/bin/time -v, from the CSV and from its Parquet copy; the figures
// are the medians of process CPU (user + system), wall and peak RSS. With --times k it also writes the design k
// times over (run indices shifted) grouped by configuration and shuffled (ORDER BY hash) as Parquet, and measures
// summarize on both.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { flag } from "../ts/benchmarks/shared-dir.js";
import { figure, printFigures, saveRecord, type Figure } from "./figures.js";

const KEYS = "host_sched, vm_sched, mode, freq_khz, threads, fsize_kb, rsize_kb";
const q = (s: string) => `'${s.replaceAll("'", "''")}'`;
const scanOf = (file: string) => (file.endsWith(".parquet") ? `read_parquet(${q(file)})` : `read_csv(${q(file)})`);

/** The raw query: what summarize's table holds (n, mean, sd, var, min, max, 7 quantiles, skewness), fetched whole. */
async function rawQuery(file: string): Promise<void> {
  const instance = await DuckDBInstance.create(":memory:");
  const con = await instance.connect();
  const y = "throughput_kbps";
  const r = await con.runAndReadAll(
    `SELECT ${KEYS}, count(*) AS n, avg(${y}) AS mean, stddev_samp(${y}) AS sd, var_samp(${y}) AS var, min(${y}) AS min, max(${y}) AS max, ` +
      `quantile_cont(${y}, [0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95]) AS q, skewness(${y}) AS skewness FROM ${scanOf(file)} GROUP BY ALL ORDER BY ALL`,
  );
  process.stdout.write(`${r.currentRowCount}\n`);
  con.closeSync();
  instance.closeSync();
}

async function copies(csv: string, out: string, times: number, shuffled: boolean): Promise<void> {
  if (existsSync(out)) return;
  const instance = await DuckDBInstance.create(":memory:", { temp_directory: join(flag("--dir") ?? "/tmp", "varmap-bench-spill") });
  const con = await instance.connect();
  const order = shuffled ? "hash(k, run, host_sched, vm_sched, mode, freq_khz, threads, fsize_kb, rsize_kb)" : `${KEYS}, k, run`;
  await con.run(
    `COPY (SELECT ${KEYS}, run + 40 * k AS run, throughput_kbps * (1 + 0.01 * k) AS throughput_kbps ` +
      `FROM read_csv(${q(csv)}), range(${times}) AS r(k) ORDER BY ${order}) TO ${q(out)} (FORMAT parquet)`,
  );
  con.closeSync();
  instance.closeSync();
}

interface Measure {
  cpu: number;
  wall: number;
  rssMiB: number;
}

function timed(args: string[]): Measure {
  const cmd = `/usr/bin/time -v ${args.map((a) => JSON.stringify(a)).join(" ")} 2>&1 >/dev/null`;
  const text = execFileSync("sh", ["-c", cmd], { encoding: "utf8", maxBuffer: 1 << 26 });
  const num = (re: RegExp) => Number(re.exec(text)?.[1] ?? NaN);
  const w = /Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)/.exec(text);
  return {
    cpu: num(/User time \(seconds\): ([\d.]+)/) + num(/System time \(seconds\): ([\d.]+)/),
    wall: w ? Number(w[1] ?? 0) * 3600 + Number(w[2]) * 60 + Number(w[3]) : NaN,
    rssMiB: Math.round(num(/Maximum resident set size \(kbytes\): (\d+)/) / 1024),
  };
}

const summarize = (file: string, out: string) =>
  timed([process.execPath, "dist/ts/cli/main.js", "summarize", file, "--preset", "moana", "--out", out, "--quiet"]);
const query = (file: string) => timed([process.execPath, process.argv[1], "--query", file]);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const med = (ms: Measure[]): Measure => ({ cpu: median(ms.map((m) => m.cpu)), wall: median(ms.map((m) => m.wall)), rssMiB: median(ms.map((m) => m.rssMiB)) });

async function main(): Promise<void> {
  const i = process.argv.indexOf("--query");
  if (i >= 0) return rawQuery(process.argv[i + 1]);
  const csv = process.argv.slice(2).find((a) => !a.startsWith("--") && a.endsWith(".csv"));
  if (!csv) throw new Error("usage: summarize-pushdown-workload <moana.csv> [--reps 3] [--times 3] [--dir /tmp] [--save FILE.json]");
  const dir = flag("--dir") ?? "/tmp";
  const reps = Number(flag("--reps") ?? "3");
  const times = Number(flag("--times") ?? "0");
  const parquet = join(dir, "moana-x1.parquet");
  await copies(csv, parquet, 1, false);
  const figs: Figure[] = [];
  for (const [label, file] of [
    ["Parquet", parquet],
    ["CSV", csv],
  ] as const) {
    const s: Measure[] = [];
    const d: Measure[] = [];
    for (let r = 0; r < reps; r++) {
      s.push(summarize(file, join(dir, "pushdown-summary.csv")));
      d.push(query(file));
    }
    const a = med(s);
    const b = med(d);
    const note = `summarize ${a.cpu.toFixed(2)} s CPU, ${a.wall.toFixed(2)} s wall, ${a.rssMiB} MiB; DuckDB query ${b.cpu.toFixed(2)} s CPU, ${b.wall.toFixed(2)} s wall, ${b.rssMiB} MiB (medians of ${reps}, interleaved)`;
    figs.push(
      figure(
        `summarize / DuckDB GROUP BY CPU, 3.79 M runs from ${label}`,
        a.cpu / b.cpu,
        "x",
        { op: "<=", value: 1.3, unit: "x", text: "≤ 1.3× DuckDB's query" },
        { note, reference: { name: "DuckDB query CPU", figure: b.cpu, unit: "s" } },
      ),
      figure(`summarize peak RSS, 3.79 M runs from ${label}`, a.rssMiB, "MiB", { op: "<=", value: 400, unit: "MiB", text: "≤ 400 MB" }, { note }),
    );
  }
  if (times > 1) {
    const grouped = join(dir, `moana-x${times}-grouped.parquet`);
    const shuffled = join(dir, `moana-x${times}-shuffled.parquet`);
    await copies(csv, grouped, times, false);
    await copies(csv, shuffled, times, true);
    const g = summarize(grouped, join(dir, "pushdown-summary.csv"));
    const s = summarize(shuffled, join(dir, "pushdown-summary.csv"));
    const note = `grouped ${g.rssMiB} MiB (${g.cpu.toFixed(1)} s CPU), shuffled ${s.rssMiB} MiB (${s.cpu.toFixed(1)} s CPU)`;
    figs.push(
      figure(`summarize peak RSS, ${(3.79 * times).toFixed(1)} M runs shuffled / grouped`, s.rssMiB / g.rssMiB, "x", undefined, { note }),
      figure(
        `summarize peak RSS, ${(3.79 * times).toFixed(1)} M runs shuffled`,
        s.rssMiB,
        "MiB",
        { op: "<=", value: 800, unit: "MiB", text: "≤ 2× the 3.8 M figure (400 MB)" },
        { note },
      ),
    );
  }
  printFigures(figs);
  saveRecord(flag("--save"), { workload: "summarize-pushdown", figures: figs });
}

main().catch((e) => {
  process.stderr.write(String(e?.stack ?? e) + "\n");
  process.exitCode = 1;
});
