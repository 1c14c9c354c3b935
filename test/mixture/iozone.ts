// Test-side reader of ../shared/data/iozone-2018.csv: runs grouped by configuration (order of first appearance).
import { readFileSync } from "node:fs";
import { dataPath } from "../helpers/shared.js";

export const IOZONE_KEYS = ["dataset", "host", "freq_khz", "threads", "fsize_kb", "rsize_kb", "test"];

export interface IozoneRuns {
  keys: string[];
  runs: Float64Array;
  offsets: Int32Array;
}

export function readIozone(): IozoneRuns {
  const lines = readFileSync(dataPath("iozone-2018.csv"), "utf8").split(/\r?\n/).filter(Boolean);
  const head = lines[0].split(",");
  const ki = IOZONE_KEYS.map((k) => head.indexOf(k));
  const ti = head.indexOf("throughput_kbps");
  const groups = new Map<string, number[]>();
  for (const l of lines.slice(1)) {
    const c = l.split(",");
    const key = ki.map((i) => c[i]).join(",");
    let g = groups.get(key);
    if (!g) groups.set(key, (g = []));
    g.push(Number(c[ti]));
  }
  const keys = [...groups.keys()];
  const offsets = new Int32Array(keys.length + 1);
  const all: number[] = [];
  keys.forEach((k, i) => {
    all.push(...groups.get(k)!);
    offsets[i + 1] = all.length;
  });
  return { keys, runs: Float64Array.from(all), offsets };
}

/** The runs of some configurations (by index), packed as a kernel batch keyed by those indices. */
export function pickIozone(d: IozoneRuns, pick: number[]): { runs: Float64Array; offsets: Int32Array; configIds: Int32Array } {
  const runs: number[] = [];
  const offsets = [0];
  for (const c of pick) {
    runs.push(...d.runs.subarray(d.offsets[c], d.offsets[c + 1]));
    offsets.push(runs.length);
  }
  return { runs: Float64Array.from(runs), offsets: Int32Array.from(offsets), configIds: Int32Array.from(pick) };
}
