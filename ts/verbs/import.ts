// `varmap import <tool> FILES... --out runs.parquet` (issue 42): a benchmark tool's output files as one table of
// runs (settings that vary as factors and inputs, every metric as a response), with the roles `--preset <tool>`
// gives it.
import { VarmapError } from "../errors.js";
import { importedTableColumns } from "../data/imported.js";
import { tableFormat, writeTable } from "../data/write.js";
import { importRuns, presetNameOf, rolesFromColumns, toolOf, type FileGroup } from "../import/registry.js";
import type { ImportRoles, Role } from "../import/types.js";

export interface ImportOptions {
  tool: string;
  /** Files, in groups carrying their --tag key=value factors. */
  groups: FileGroup[];
  /** .parquet, .csv, .tsv (or .json). */
  out: string;
  /** The tool's date becomes a factor when runs span several days (default true; false: --no-date). */
  date?: boolean;
  note?: (msg: string) => void;
}

export interface ImportSummary {
  tool: string;
  /** The `--preset` naming the table's roles (the tool's name; iozone-runs for IOzone). */
  preset: string;
  out: string;
  files: number;
  runs: number;
  configurations: number;
  /** The roles `--preset <tool>` reads back from the written table. */
  roles: ImportRoles;
  columns: { name: string; role: Role }[];
  notes: string[];
}

export async function runImport(options: ImportOptions): Promise<ImportSummary> {
  const parser = toolOf(options.tool);
  tableFormat(options.out, "--out");
  if (!options.groups.some((g) => g.files.length))
    throw new VarmapError("E_USAGE", "no files to import", {
      remedy: `give the ${parser.name} output files: varmap import ${parser.name} FILES... --out runs.parquet`,
    });
  const imported = importRuns(parser.name, options.groups, { date: options.date });
  for (const n of imported.notes) options.note?.(n);
  const roles = rolesFromColumns(parser.name, imported.columns);
  await writeTable(options.out, importedTableColumns(imported));
  return {
    tool: parser.name,
    preset: presetNameOf(parser.name),
    out: options.out,
    files: imported.files,
    runs: imported.rows,
    configurations: imported.configurations,
    roles,
    columns: imported.columns.map((c) => ({ name: c.name, role: c.role })),
    notes: imported.notes,
  };
}
