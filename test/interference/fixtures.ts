// Run-table fixtures for the interference tests, built as records (the analysis) or CSV text (the CLI).
import { DEFAULT_OPTIONS, type InterferenceOptions, type RunRecord } from "../../ts/interference/types.js";

export function options(over: Partial<InterferenceOptions> = {}): InterferenceOptions {
  return { ...DEFAULT_OPTIONS, metric: "throughput", factorNames: ["fs", "chunk_mib"], mixtureMinRuns: 0, ...over };
}

/** Builds records from [experiment, app, value, factors?, instance?, noise?] tuples; rows numbered from 2. */
export function records(rows: [string, string, number | null, string[]?, (string | null)?, (number | null)?][], defaultFactors = ["lustre", "1"]): RunRecord[] {
  return rows.map(([experiment, app, value, factors, instance, noise], i) => ({
    row: i + 2,
    experiment,
    app,
    instance: instance ?? null,
    factors: factors ?? defaultFactors,
    run: null,
    value,
    noise: noise ?? null,
  }));
}

/** Seed 003 Table 2 (Lustre, probe OWC, 1 MiB, GB/s), with the signal AW's "3.8" read as 38.0 (C.1). */
export const TABLE2: [string, string, number][] = [
  ["s1", "OWC", 28.4],
  ["s2", "WS", 31.6],
  ["s3", "AW", 42.2],
  ["p1", "OWC", 16.3],
  ["p1", "OWC", 16.1],
  ["p2", "OWC", 16.8],
  ["p2", "WS", 19.8],
  ["p3", "OWC", 9.6],
  ["p3", "AW", 38.0],
];

export const TABLE2_CSV = ["exp,app,fs,chunk_mib,rep,bw", ...TABLE2.map(([e, a, v]) => `${e},${a},lustre,1,1,${v}`)].join("\n") + "\n";

/**
 * A run table in which every app's standalone bandwidth is 100 and D_{a←b} = d[a][b] exactly (interfered = 100 − D),
 * at each value of `chunks` (factor chunk_mib; fs = gpfs). Self-pairs give both instances d[a][a].
 */
export function fromDegradations(d: (chunk: string) => Record<string, Record<string, number>>, chunks: string[], apps: string[]): RunRecord[] {
  const rows: [string, string, number, string[]][] = [];
  for (const c of chunks) {
    const f = ["gpfs", c];
    for (const a of apps) rows.push([`alone-${a}-${c}`, a, 100, f]);
    const dc = d(c);
    for (let i = 0; i < apps.length; i++)
      for (let j = i; j < apps.length; j++) {
        const [a, b] = [apps[i], apps[j]];
        rows.push([`pair-${a}-${b}-${c}`, a, 100 - dc[a][b], f]);
        rows.push([`pair-${a}-${b}-${c}`, b, 100 - dc[b][a], f]);
      }
  }
  return records(rows);
}
