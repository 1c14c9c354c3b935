// IOR JSON summary (`ior -O summaryFormat=JSON [-O summaryFile=FILE]`): one row per repetition and access
// (write/read) from each test's "Results". The configuration is the test's "Parameters" (block and transfer size,
// segments, API, file per process, ...) and the task count of its "Options". The layout follows IOR's writer
// (src/ior-output.c: Results is a list per repetition of one entry per access); no IOR output was made on this machine.
import { isObject, JsonReader, parseJsonDocuments, type Json } from "./json.js";
import type { ToolParser, ToolRun } from "./types.js";

const PRODUCE = "ior -O summaryFormat=JSON -O summaryFile=FILE";

/** Parameters that name files or are bookkeeping. */
const NOT_SETTINGS = /^(testID|TestID|refnum|testFileName|hintsFileName|options|verbose|setTimeStampSignature.*|data packet type|platform)$/;

const METRICS: [string, string][] = [
  ["bwMiB", "bw_mib"],
  ["iops", "iops"],
  ["latency", "latency_s"],
  ["openTime", "open_s"],
  ["wrRdTime", "wrrd_s"],
  ["closeTime", "close_s"],
  ["totalTime", "total_s"],
];

export const ior: ToolParser = {
  name: "ior",
  description: "IOR JSON summary (-O summaryFormat=JSON): one row per repetition and access; test parameters are the configuration",
  produce: PRODUCE,
  files: /\.json$/i,
  vocabulary: {
    response: "bw_mib",
    responses: /^(bw_mib|iops|latency_s|open_s|wrrd_s|close_s|total_s)$/,
    meta: /^(file|test)$/,
    factors: /^(access|api|host|date)$/,
  },
  sniff: (text) => /"tests"\s*:/.test(text) && /"Began"\s*:/.test(text.slice(0, 2000)),
  parse(text, file) {
    const r = new JsonReader(file, "IOR", PRODUCE);
    const [doc] = parseJsonDocuments(text, file, PRODUCE);
    const top = r.object(doc, [], "an IOR JSON document");
    if (!("tests" in top)) r.fail(["tests"], "no 'tests' list: this is not IOR JSON output");
    const machine = typeof top.Machine === "string" ? top.Machine.split(/\s+/)[1] : undefined;
    const began = typeof top.Began === "string" ? Date.parse(top.Began) : Number.NaN;
    const runs: ToolRun[] = [];
    r.array(top.tests, ["tests"]).forEach((x, i) => {
      const path = ["tests", i];
      const test = r.object(x, path, "a test");
      const settings: Record<string, string | number> = {};
      const params = isObject(test.Parameters) ? test.Parameters : {};
      for (const [k, v] of Object.entries(params)) if (!NOT_SETTINGS.test(k) && (typeof v === "string" || typeof v === "number")) settings[k] = v;
      const options = isObject(test.Options) ? test.Options : {};
      if (typeof options.tasks === "number") settings.tasks = options.tasks;
      if (typeof options["clients per node"] === "number") settings.tasksPerNode = options["clients per node"];
      if (!("Results" in test)) r.fail([...path, "Results"], "the test has no 'Results' (per-repetition results)", undefined, "E_IMPORT_NO_RUNS");
      const results = r.array(test.Results, [...path, "Results"]);
      // A list per repetition (IOR 3.3, 4.0) or one flat list of entries.
      const reps: [Json[], (string | number)[]][] = results.every(Array.isArray)
        ? results.map((rep, k) => [rep as Json[], [...path, "Results", k]])
        : [[results, [...path, "Results"]]];
      for (const [entries, repPath] of reps) {
        entries.forEach((e, k) => {
          const entry = r.object(e, [...repPath, k], "a result entry");
          const access = typeof entry.access === "string" ? entry.access : r.fail([...repPath, k, "access"], "a result without 'access' (write or read)");
          const metrics: Record<string, number> = {};
          for (const [src, dst] of METRICS) if (typeof entry[src] === "number") metrics[dst] = entry[src] as number;
          if (!("bw_mib" in metrics)) r.fail([...repPath, k, "bwMiB"], "a result without 'bwMiB'");
          runs.push({ settings: { ...settings, access }, metrics, meta: { test: i }, host: machine, time: Number.isNaN(began) ? undefined : began });
        });
      }
    });
    if (!runs.length) r.fail(["tests"], "no test results in the file", undefined, "E_IMPORT_NO_RUNS");
    return runs;
  },
};
