// The shapes the tool importers share: what a parser reads from one file (ToolRun), and the table of runs the
// importer builds from many files (ImportedRuns). This folder sits below ts/data (the loader reads tool output
// through it), so it imports nothing of ts/ but the errors.

/** One run as a tool reports it, before the files are put together. */
export interface ToolRun {
  /** Settings of the configuration (option → raw value); those that vary across the imported runs become columns. */
  settings: Record<string, string | number>;
  /** Everything measured in this run: each becomes a response column. */
  metrics: Record<string, number>;
  /** Columns written for the reader but given no role (a command line, a per-configuration mean). */
  meta?: Record<string, string | number>;
  /** The host the tool names (a factor), and when the run happened (ms since 1970; orders runs, gives the date). */
  host?: string;
  time?: number;
}

export type Role = "factor" | "input" | "run" | "response" | "meta";

export type Cell = string | number | null;

export interface ImportColumn {
  name: string;
  role: Role;
  /** Numbers (inputs, responses, run) or text. */
  numeric: boolean;
  values: Cell[];
}

/** Column roles, the same shape as ts/data's ColumnRoles. */
export interface ImportRoles {
  factors: string[];
  inputs: string[];
  response: string;
  run?: string;
}

/** One row per run: the settings that vary, tags, host/date, the run index, every metric. */
export interface ImportedRuns {
  tool: string;
  columns: ImportColumn[];
  rows: number;
  roles: ImportRoles;
  files: number;
  configurations: number;
  notes: string[];
}

/** What a tool's rows look like to `--preset <tool>` (roles read back from a written table's columns). */
export interface ToolVocabulary {
  /** The response the preset names. */
  response: string;
  /** Response columns (the tool's metrics). */
  responses: RegExp;
  /** Columns given no role. */
  meta: RegExp;
  /** Columns that are factors even when their values are numbers (fio's direct=0/1). */
  factors: RegExp;
}

export interface ToolParser {
  name: string;
  /** The `--preset` naming its tables, when not the tool's name (IOzone: `iozone` is the papers' data). */
  preset?: string;
  /** One line for help and the guide. */
  description: string;
  /** Which files of a directory are this tool's output (--format with a directory). */
  files: RegExp;
  /** How to make the file (a command), for messages. */
  produce: string;
  vocabulary: ToolVocabulary;
  /** Whether the file's text is this tool's output (for the message when files of several tools are mixed). */
  sniff(text: string): boolean;
  /** The runs of one file; a malformed file is a VarmapError naming the file and the JSON path. */
  parse(text: string, file: string): ToolRun[];
  /** Setting values parsed as numbers (fio sizes as bytes); undefined: not a number. */
  numeric?(setting: string, value: string | number): number | undefined;
  /** Defaults of settings a file may leave out (fio's bs=4k). */
  defaults?: Record<string, string | number>;
}
