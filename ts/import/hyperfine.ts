// hyperfine JSON (`--export-json FILE`, with --parameter-scan / --parameter-list): each result's parameters are
// the configuration (its command when it has none), each entry of its `times` a run. hyperfine writes exit codes
// per run but user and system time only as a mean per command (kept as columns without a role). Checked against
// hyperfine 1.15's own output (the tests run it).
import { isObject, JsonReader, parseJsonDocuments } from "./json.js";
import type { ToolParser, ToolRun } from "./types.js";

const PRODUCE = "hyperfine --export-json FILE";

export const hyperfine: ToolParser = {
  name: "hyperfine",
  description: "hyperfine JSON (--export-json): one row per run (times); parameters (or the command) are the configuration",
  produce: PRODUCE,
  files: /\.json$/i,
  vocabulary: {
    response: "time_s",
    responses: /^(time_s|exit_code|user_s|system_s|memory_bytes)$/,
    meta: /^(user_mean_s|system_mean_s|file)$/,
    factors: /^(command|host|date)$/,
  },
  sniff: (text) => /^\s*\{\s*"results"\s*:\s*\[\s*\{\s*"command"/.test(text.slice(0, 400)),
  parse(text, file) {
    const r = new JsonReader(file, "hyperfine", PRODUCE);
    const runs: ToolRun[] = [];
    const docs = parseJsonDocuments(text, file, PRODUCE);
    docs.forEach((doc, d) => {
      const base: (string | number)[] = docs.length > 1 ? [d] : [];
      const top = r.object(doc, base, "a hyperfine JSON document");
      if (!("results" in top)) r.fail([...base, "results"], "no 'results' list: this is not hyperfine JSON output");
      const results = r.array(top.results, [...base, "results"]);
      results.forEach((x, i) => {
        const path = [...base, "results", i];
        const res = r.object(x, path, "a result");
        if (!("times" in res))
          r.fail(
            [...path, "times"],
            "the result has no 'times' (per-run times)",
            "export with hyperfine 1.7 or later (--export-json writes every run's time)",
            "E_IMPORT_NO_RUNS",
          );
        const times = r.array(res.times, [...path, "times"]);
        if (!times.length) r.fail([...path, "times"], "the result's 'times' list is empty", undefined, "E_IMPORT_NO_RUNS");
        const command = typeof res.command === "string" ? res.command : "";
        const params = isObject(res.parameters) ? res.parameters : undefined;
        const settings: Record<string, string | number> = {};
        if (params && Object.keys(params).length) {
          for (const [k, v] of Object.entries(params)) if (typeof v === "string" || typeof v === "number") settings[k] = v;
        } else settings.command = command;
        const exit = Array.isArray(res.exit_codes) ? res.exit_codes : undefined;
        const perRun = (name: string) => (Array.isArray(res[name]) && (res[name] as unknown[]).length === times.length ? (res[name] as unknown[]) : undefined);
        const user = perRun("user");
        const system = perRun("system");
        const memory = perRun("memory_usage_byte");
        const meta: Record<string, string | number> = {};
        if (typeof res.user === "number") meta.user_mean_s = res.user;
        if (typeof res.system === "number") meta.system_mean_s = res.system;
        times.forEach((t, k) => {
          const metrics: Record<string, number> = { time_s: r.number(t, [...path, "times", k], "a time in seconds") };
          if (exit && typeof exit[k] === "number") metrics.exit_code = exit[k] as number;
          if (user && typeof user[k] === "number") metrics.user_s = user[k] as number;
          if (system && typeof system[k] === "number") metrics.system_s = system[k] as number;
          if (memory && typeof memory[k] === "number") metrics.memory_bytes = memory[k] as number;
          runs.push({ settings, metrics, meta });
        });
      });
    });
    return runs;
  },
};
