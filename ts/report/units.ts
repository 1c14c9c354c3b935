// Units of columns, read from their names (issue 44 item 5: "no figure gives units"): the suffix conventions of the
// varmap presets and of the papers' data (throughput_kbps, freq_khz, fsize_kb, time_s, …). A column whose unit is
// not known gets its bare name; a statistic of a column carries the column's unit (cv and counts have none).

const SUFFIXES: [RegExp, string][] = [
  [/_kbps$/i, "KB/s"],
  [/_mbps$/i, "MB/s"],
  [/_gbps$/i, "GB/s"],
  [/_bps$/i, "B/s"],
  [/_khz$/i, "kHz"],
  [/_mhz$/i, "MHz"],
  [/_ghz$/i, "GHz"],
  [/_hz$/i, "Hz"],
  [/_kb$/i, "KB"],
  [/_mb$/i, "MB"],
  [/_gb$/i, "GB"],
  [/_bytes$/i, "B"],
  [/_ns$/i, "ns"],
  [/_us$/i, "µs"],
  [/_ms$/i, "ms"],
  [/_(s|sec|secs|seconds)$/i, "s"],
  [/_pct$/i, "%"],
];

/** The unit of a column from its name's suffix, or undefined. */
export function unitOf(column: string): string | undefined {
  for (const [re, u] of SUFFIXES) if (re.test(column)) return u;
  return undefined;
}

/** An axis title: "threads", "freq_khz (kHz)". */
export function titleOf(column: string, unit = unitOf(column)): string {
  return unit ? `${column} (${unit})` : column;
}

/** The unit of a statistic of a column's runs: var in unit², cv and dimensionless ratios none. */
export function statUnit(stat: string, response: string): string | undefined {
  const u = unitOf(response);
  if (!u) return undefined;
  if (stat === "cv") return undefined;
  if (stat === "var") return `(${u})²`;
  return u;
}

/** "sd of throughput_kbps (KB/s)". */
export function statTitle(stat: string, response: string): string {
  const u = statUnit(stat, response);
  return `${stat} of ${response}${u ? ` (${u})` : ""}`;
}

/**
 * A Vega label expression for numbers of any magnitude: SI prefixes (k, M, G) only from 10⁴ up — never the
 * milli/micro prefixes, which read as units ("300m" for a cv of 0.3, issue 44 item 5); 3 significant digits below.
 * Use as `axis: { labelExpr: NUMBER_LABEL }` or `legend: { labelExpr: NUMBER_LABEL }`.
 */
export const NUMBER_LABEL = "abs(datum.value) >= 1e4 ? format(datum.value, '.3~s') : format(datum.value, '.3~g')";

/** The same rule for a number in TypeScript (titles, captions). */
export function formatNumber(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  const a = Math.abs(x);
  if (a >= 1e4) {
    const p = ["", "k", "M", "G", "T", "P", "E"];
    const e = Math.min(6, Math.floor(Math.log10(a) / 3));
    return `${Number((x / 10 ** (3 * e)).toPrecision(3))}${p[e]}`;
  }
  return String(Number(x.toPrecision(3)));
}
