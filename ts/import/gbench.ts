// Google Benchmark JSON (`--benchmark_format=json --benchmark_out=FILE`, with --benchmark_repetitions=N): one row
// per repetition ("run_type": "iteration"; aggregates such as mean/median/stddev are skipped). The configuration is
// the family name and the arguments parsed from the benchmark's name: `BM_x/8/64` → arg0=8, arg1=64; named
// arguments `BM_x/size:8/threads:4` → size=8, threads=4. real_time and cpu_time are converted to ns; every other
// numeric field (user counters, bytes_per_second, items_per_second) is a response. From the documented schema
// (docs/user_guide.md "Output Formats" of google/benchmark); no Google Benchmark output was made on this machine.
import { isObject, JsonReader, parseJsonDocuments } from "./json.js";
import type { ToolParser, ToolRun } from "./types.js";

const PRODUCE = "--benchmark_format=json --benchmark_out=FILE --benchmark_repetitions=N";

const TO_NS: Record<string, number> = { ns: 1, us: 1e3, ms: 1e6, s: 1e9 };

/** Fields of a benchmark entry that are neither configuration nor counters. */
const KNOWN = new Set([
  "name",
  "family_index",
  "per_family_instance_index",
  "run_name",
  "run_type",
  "repetitions",
  "repetition_index",
  "threads",
  "iterations",
  "real_time",
  "cpu_time",
  "time_unit",
  "aggregate_name",
  "aggregate_unit",
  "label",
  "error_occurred",
  "error_message",
  "skipped",
  "skip_message",
]);

/** Name segments that are run options, not arguments. */
const OPTION_SEGMENTS = /^(real_time|manual_time|process_time|(iterations|repeats|min_time|min_warmup_time):.*)$/;

/** The family and the arguments of a benchmark name. */
export function benchmarkArgs(name: string): { family: string; args: Record<string, number | string> } {
  const parts = name.split("/");
  const args: Record<string, number | string> = {};
  let positional = 0;
  for (const seg of parts.slice(1)) {
    if (OPTION_SEGMENTS.test(seg)) continue;
    const named = /^([A-Za-z_][A-Za-z0-9_]*):(.*)$/.exec(seg);
    const [key, raw] = named ? [named[1], named[2]] : [`arg${positional++}`, seg];
    args[key] = raw !== "" && Number.isFinite(Number(raw)) ? Number(raw) : raw;
  }
  return { family: parts[0], args };
}

export const gbench: ToolParser = {
  name: "gbench",
  description: "Google Benchmark JSON (--benchmark_format=json, --benchmark_repetitions=N): one row per repetition, arguments from the name",
  produce: PRODUCE,
  files: /\.json$/i,
  vocabulary: {
    response: "real_time_ns",
    responses: /^(real_time_ns|cpu_time_ns|.*_per_second|counter_.*)$/,
    meta: /^(name|iterations|label|file)$/,
    factors: /^(benchmark|host|date)$/,
  },
  sniff: (text) => /"benchmarks"\s*:/.test(text) && /"context"\s*:/.test(text.slice(0, 400)),
  parse(text, file) {
    const r = new JsonReader(file, "Google Benchmark", PRODUCE);
    const [doc] = parseJsonDocuments(text, file, PRODUCE);
    const top = r.object(doc, [], "a Google Benchmark JSON document");
    if (!("benchmarks" in top)) r.fail(["benchmarks"], "no 'benchmarks' list: this is not Google Benchmark JSON output");
    const list = r.array(top.benchmarks, ["benchmarks"]);
    const ctx = isObject(top.context) ? top.context : {};
    const host = typeof ctx.host_name === "string" ? ctx.host_name : undefined;
    const t = typeof ctx.date === "string" ? Date.parse(ctx.date) : Number.NaN;
    const runs: ToolRun[] = [];
    list.forEach((x, i) => {
      const path = ["benchmarks", i];
      const b = r.object(x, path, "a benchmark entry");
      if (b.run_type === "aggregate") return;
      if (b.error_occurred === true)
        r.fail(
          [...path, "error_occurred"],
          `benchmark '${String(b.name)}' failed: ${String(b.error_message ?? "")}`,
          "fix the benchmark or leave it out",
          "E_IMPORT_RUN_FAILED",
        );
      if (b.skipped === true || (typeof b.skipped === "number" && b.skipped !== 0)) return;
      const name = typeof b.run_name === "string" ? b.run_name : String(b.name ?? "");
      const { family, args } = benchmarkArgs(name);
      const unit = typeof b.time_unit === "string" ? b.time_unit : "ns";
      const scale = TO_NS[unit];
      if (!scale) r.fail([...path, "time_unit"], `unknown time unit '${unit}'`);
      const metrics: Record<string, number> = {
        real_time_ns: r.number(b.real_time, [...path, "real_time"]) * scale,
        cpu_time_ns: r.number(b.cpu_time, [...path, "cpu_time"]) * scale,
      };
      for (const [k, v] of Object.entries(b)) {
        if (KNOWN.has(k) || typeof v !== "number") continue;
        metrics[/_per_second$/.test(k) ? k : `counter_${k}`] = v;
      }
      const settings: Record<string, string | number> = { benchmark: family, ...args };
      if (!("threads" in args) && typeof b.threads === "number") settings.threads = b.threads;
      runs.push({
        settings,
        metrics,
        meta: { name: String(b.name ?? ""), iterations: typeof b.iterations === "number" ? b.iterations : "" },
        host,
        time: Number.isNaN(t) ? undefined : t,
      });
    });
    if (!runs.length)
      r.fail(
        ["benchmarks"],
        `no repetition rows: the file holds only aggregates (${list.length} entries with run_type 'aggregate')`,
        "run without --benchmark_report_aggregates_only, with --benchmark_repetitions=N (N ≥ 2)",
        "E_IMPORT_NO_RUNS",
      );
    return runs;
  },
};
