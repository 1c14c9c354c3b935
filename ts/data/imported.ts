// A benchmark tool's runs (ts/import) as a table: the columns writeTable takes, and a temporary CSV for the
// loader's --format path (read back with the import's roles, then removed).
import { ownedTempDir } from "./atomic.js";
import { readdirSync, rmSync, statSync, type Stats } from "node:fs";
import { join } from "node:path";
import { VarmapError } from "../errors.js";
import type { ImportedRuns } from "../import/types.js";
import { writeTable, type Column } from "./write.js";

/** The columns of the imported runs (text columns as text, numbers as doubles, the run index as an integer). */
export function importedTableColumns(imported: ImportedRuns): Column[] {
  return imported.columns.map((c) => ({ name: c.name, values: c.values, type: c.role === "run" ? "int" : c.numeric ? "double" : "string" }));
}

/** A tool output path: the file itself, or the files of a directory (sorted by name; hidden files left out). */
export function toolFiles(path: string, pattern: RegExp = /./): string[] {
  let st: Stats;
  try {
    st = statSync(path);
  } catch {
    throw new VarmapError("E_FILE_NOT_FOUND", "cannot read input file", { location: { file: path }, remedy: "check the path" });
  }
  if (!st.isDirectory()) return [path];
  const files = readdirSync(path)
    .filter((f) => !f.startsWith(".") && pattern.test(f))
    .sort((a, b) => a.localeCompare(b, "en", { numeric: true }))
    .map((f) => join(path, f))
    .filter((f) => statSync(f).isFile());
  if (!files.length)
    throw new VarmapError("E_EMPTY_FILE", "the directory holds no output file of the tool", {
      location: { file: path },
      remedy: `give the tool's output files (names matching ${pattern})`,
    });
  return files;
}

/** Runs `use` on a temporary CSV of the imported runs; errors that name the temporary file name `source` instead. */
export async function importedColumns<T>(imported: ImportedRuns, use: (table: string) => Promise<T>, source: string): Promise<T> {
  const dir = ownedTempDir("import");
  const table = join(dir, "runs.csv");
  try {
    await writeTable(table, importedTableColumns(imported));
    return await use(table);
  } catch (e) {
    if (e instanceof VarmapError && e.location.file === table)
      throw new VarmapError(e.code, e.detail, { location: { ...e.location, file: `${source} (imported ${imported.tool} runs)` }, remedy: e.remedy, cause: e });
    throw e;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
