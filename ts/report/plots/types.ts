// What a plot kind is: one file in ts/report/plots/ exporting `plot: PlotKind`, listed in plots/index.ts. The
// kind's pure part is its spec function (rows → Vega-Lite spec); `fromFile` reads the table the CLI names.
import type { TopLevelSpec } from "../render.js";

export interface PlotFlag {
  /** Commander flag text, e.g. "--x <col>". */
  flag: string;
  description: string;
  default?: string;
}

export interface PlotKind {
  /** The CLI name: `varmap plot <kind>`. */
  kind: string;
  /** The plot's id in the spec (F.2), e.g. "P1". */
  id: string;
  description: string;
  /** The table it reads and the verb that writes it (help text and the missing-column error's remedy). */
  writtenBy: string;
  flags: PlotFlag[];
  /** Takes the shared data-selection flags (--preset, --where, --stat, …): the table is runs or a map. */
  dataFlags?: boolean;
  /** The spec for the table in `file` with the CLI's flags (camelCase keys, as commander gives them). */
  fromFile(file: string, opts: Record<string, unknown>): Promise<TopLevelSpec>;
}

/** Shortest readable form of a number for titles and labels. */
export function short(x: number, digits = 4): string {
  if (!Number.isFinite(x)) return String(x);
  return String(Number(x.toPrecision(digits)));
}
