// fio JSON (`--output-format=json` or `json+`): one row per job of each document. The job's options (the file's
// "global options" under its own "job options") are the configuration; read/write/trim bandwidth, IOPS and
// completion latency (mean and percentiles) are the responses. Checked against fio 3.33's own output (the tests run
// fio); fio 2.x's "clat" in microseconds is read as nanoseconds ×1000.
import { isObject, JsonReader, parseJsonDocuments, type Json, type JsonObject } from "./json.js";
import type { ToolParser, ToolRun } from "./types.js";

const PRODUCE = "fio --output-format=json (or json+) --output=FILE";

/** Options naming files, logs or the job itself: never a setting (a per-run file name would split every run). */
const NOT_SETTINGS = new Set([
  "name",
  "description",
  "filename",
  "directory",
  "filename_format",
  "opendir",
  "output",
  "output-format",
  "write_bw_log",
  "write_lat_log",
  "write_iops_log",
  "write_hist_log",
  "log_avg_msec",
  "per_job_logs",
  "exec_prerun",
  "exec_postrun",
]);

/** Options given in bytes with fio's suffixes (k = 1024 unless kb_base=1000, not handled). */
const SIZE_OPTIONS = new Set(["bs", "blocksize", "size", "filesize", "io_size", "io_limit", "offset", "offset_increment", "ba", "blockalign", "buffer_size"]);

const UNITS: Record<string, number> = { "": 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3, t: 1024 ** 4, p: 1024 ** 5 };

/** fio's size syntax: "4k", "4KiB", "1m", "4096" → bytes; undefined for lists and ranges ("4k,8k", "4k-16k"). */
export function fioBytes(v: string | number): number | undefined {
  if (typeof v === "number") return v;
  const m = /^\s*(\d+(?:\.\d+)?)\s*([kmgtp]?)(?:i?b)?\s*$/i.exec(v);
  return m ? Number(m[1]) * UNITS[m[2].toLowerCase()] : undefined;
}

const PERCENTILES: [string, string][] = [
  ["50.000000", "p50"],
  ["90.000000", "p90"],
  ["95.000000", "p95"],
  ["99.000000", "p99"],
  ["99.900000", "p99_9"],
];

export const fio: ToolParser = {
  name: "fio",
  description: "fio JSON (--output-format=json / json+): one row per job and file; job options that vary are the configuration",
  produce: PRODUCE,
  files: /\.json$/i,
  vocabulary: {
    response: "bw_bytes",
    responses: /^(bw_bytes|iops|usr_cpu|sys_cpu|(read|write|trim)_.*)$/,
    meta: /^(job|time|file)$/,
    factors:
      /^(rw|readwrite|ioengine|direct|buffered|sync|fsync|fdatasync|invalidate|randrepeat|norandommap|verify|group_reporting|time_based|thread|host|date)$/,
  },
  defaults: { bs: 4096, iodepth: 1, numjobs: 1, rw: "read", direct: 0, ioengine: "psync" },
  sniff: (text) => /"fio version"\s*:/.test(text.slice(0, 2000)),
  numeric(setting, value) {
    if (SIZE_OPTIONS.has(setting)) return fioBytes(value);
    if (typeof value === "number") return value;
    return value.trim() !== "" && Number.isFinite(Number(value)) ? Number(value) : undefined;
  },
  parse(text, file) {
    const docs = parseJsonDocuments(text, file, PRODUCE);
    const r = new JsonReader(file, "fio", PRODUCE);
    const runs: ToolRun[] = [];
    docs.forEach((doc, d) => {
      const base: (string | number)[] = docs.length > 1 ? [d] : [];
      const top = r.object(doc, base, "a fio JSON document");
      if (!("jobs" in top)) r.fail([...base, "jobs"], "no 'jobs' list: this is not fio JSON output", `give fio output written with ${PRODUCE}`);
      const jobs = r.array(top.jobs, [...base, "jobs"]);
      if (!jobs.length) r.fail([...base, "jobs"], "the 'jobs' list is empty (did fio run any job?)");
      const global = isObject(top["global options"]) ? top["global options"] : {};
      const time = typeof top.timestamp_ms === "number" ? top.timestamp_ms : typeof top.timestamp === "number" ? top.timestamp * 1000 : undefined;
      const host = typeof top.hostname === "string" ? top.hostname : undefined;
      jobs.forEach((j, k) => {
        const path = [...base, "jobs", k];
        const job = r.object(j, path, "a job");
        if (typeof job.error === "number" && job.error !== 0)
          r.fail(
            [...path, "error"],
            `fio job '${String(job.jobname)}' failed with error ${job.error}`,
            "fix the job (fio's stderr says why) and run it again, or leave this file out",
            "E_IMPORT_RUN_FAILED",
          );
        const opts = { ...global, ...(isObject(job["job options"]) ? job["job options"] : {}) };
        const settings: Record<string, string | number> = {};
        for (const [key, v] of Object.entries(opts)) if (!NOT_SETTINGS.has(key) && (typeof v === "string" || typeof v === "number")) settings[key] = v;
        const metrics: Record<string, number> = {};
        let bw = 0;
        let iops = 0;
        let any = false;
        for (const dir of ["read", "write", "trim"]) {
          const s = job[dir];
          if (!isObject(s)) continue;
          const ios = typeof s.total_ios === "number" ? s.total_ios : typeof s.io_bytes === "number" ? s.io_bytes : 0;
          if (!(ios > 0)) continue;
          any = true;
          const b = typeof s.bw_bytes === "number" ? s.bw_bytes : r.number(s.bw, [...path, dir, "bw"], "bandwidth in KiB/s") * 1024;
          const io = r.number(s.iops, [...path, dir, "iops"]);
          metrics[`${dir}_bw_bytes`] = b;
          metrics[`${dir}_iops`] = io;
          bw += b;
          iops += io;
          latency(metrics, `${dir}_clat`, s, "clat");
          latency(metrics, `${dir}_lat`, s, "lat", false);
          if (typeof s.runtime === "number") metrics[`${dir}_runtime_ms`] = s.runtime;
        }
        if (!any) r.fail(path, `fio job '${String(job.jobname)}' did no I/O (read, write and trim are all empty)`, "check the job's options (size, runtime)");
        metrics.bw_bytes = bw;
        metrics.iops = iops;
        if (typeof job.usr_cpu === "number") metrics.usr_cpu = job.usr_cpu;
        if (typeof job.sys_cpu === "number") metrics.sys_cpu = job.sys_cpu;
        runs.push({ settings, metrics, meta: { job: String(job.jobname ?? "") }, time, host });
      });
    });
    return runs;
  },
};

/** Mean (and with `percentiles` the percentiles) of a latency block, in ns (`<name>_ns`, or µs in fio 2.x `<name>`). */
function latency(out: Record<string, number>, prefix: string, s: JsonObject, name: string, percentiles = true): void {
  let block: Json | undefined = s[`${name}_ns`];
  let scale = 1;
  if (!isObject(block)) {
    block = s[name];
    scale = 1000;
  }
  if (!isObject(block)) return;
  if (typeof block.mean === "number" && (typeof block.N !== "number" || block.N > 0)) out[`${prefix}_mean_ns`] = block.mean * scale;
  if (!percentiles || !isObject(block.percentile)) return;
  for (const [key, col] of PERCENTILES) {
    const v = block.percentile[key];
    if (typeof v === "number") out[`${prefix}_${col}_ns`] = v * scale;
  }
}
