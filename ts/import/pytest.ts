// pytest-benchmark JSON (`--benchmark-json=FILE`, or a saved run under .benchmarks/): one row per round from
// `stats.data`, which pytest-benchmark keeps only with --benchmark-save-data (without it only statistics are
// saved: an error). The configuration is the test's name without its parameter id, its group, and its params.
// From the documented format and public sample files; no pytest-benchmark output was made on this machine.
import { isObject, JsonReader, parseJsonDocuments } from "./json.js";
import type { ToolParser, ToolRun } from "./types.js";

const PRODUCE = "pytest --benchmark-json=FILE --benchmark-save-data";

export const pytestBenchmark: ToolParser = {
  name: "pytest-benchmark",
  description: "pytest-benchmark JSON (--benchmark-json with --benchmark-save-data): one row per round; params are the configuration",
  produce: PRODUCE,
  files: /\.json$/i,
  vocabulary: { response: "time_s", responses: /^time_s$/, meta: /^(fullname|file)$/, factors: /^(test|group|host|date)$/ },
  sniff: (text) => /"machine_info"\s*:/.test(text.slice(0, 4000)) && /"benchmarks"\s*:/.test(text),
  parse(text, file) {
    const r = new JsonReader(file, "pytest-benchmark", PRODUCE);
    const [doc] = parseJsonDocuments(text, file, PRODUCE);
    const top = r.object(doc, [], "a pytest-benchmark JSON document");
    if (!("benchmarks" in top)) r.fail(["benchmarks"], "no 'benchmarks' list: this is not pytest-benchmark JSON output");
    const list = r.array(top.benchmarks, ["benchmarks"]);
    const machine = isObject(top.machine_info) ? top.machine_info : {};
    const host = typeof machine.node === "string" ? machine.node : undefined;
    const t = typeof top.datetime === "string" ? Date.parse(top.datetime) : Number.NaN;
    const runs: ToolRun[] = [];
    list.forEach((x, i) => {
      const path = ["benchmarks", i];
      const b = r.object(x, path, "a benchmark entry");
      const stats = r.object(b.stats, [...path, "stats"], "the benchmark's stats");
      if (!("data" in stats))
        r.fail(
          [...path, "stats", "data"],
          "no per-round times ('stats.data'): pytest-benchmark saved only statistics",
          "run pytest with --benchmark-save-data",
          "E_IMPORT_NO_RUNS",
        );
      const data = r.array(stats.data, [...path, "stats", "data"]);
      const name = String(b.name ?? "");
      const settings: Record<string, string | number> = { test: name.replace(/\[.*\]$/, "") };
      if (typeof b.group === "string") settings.group = b.group;
      if (isObject(b.params)) for (const [k, v] of Object.entries(b.params)) if (typeof v === "string" || typeof v === "number") settings[k] = v;
      data.forEach((v, k) => {
        runs.push({
          settings,
          metrics: { time_s: r.number(v, [...path, "stats", "data", k], "a time in seconds") },
          meta: { fullname: String(b.fullname ?? name) },
          host,
          time: Number.isNaN(t) ? undefined : t,
        });
      });
    });
    if (!runs.length) r.fail(["benchmarks"], "no benchmark with rounds in the file", undefined, "E_IMPORT_NO_RUNS");
    return runs;
  },
};
