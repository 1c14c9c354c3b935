// The importers, one per tool, and what the rest of varmap asks of them: the table of runs of a set of files
// (varmap import, --format on every verb), the column roles of an imported table (--preset <tool>), and one
// number of one tool run (readToolResult, for the experiment planner).
import { VarmapError } from "../errors.js";
import { buildRuns, type BuildOptions, type FileGroup } from "./build.js";
import { fio } from "./fio.js";
import { gbench } from "./gbench.js";
import { hyperfine } from "./hyperfine.js";
import { ior } from "./ior.js";
import { iozone } from "./iozone.js";
import { jsonPath, parseJsonDocuments, type Json } from "./json.js";
import { pytestBenchmark } from "./pytest.js";
import type { ImportedRuns, ImportRoles, ToolParser } from "./types.js";

export type { FileGroup, BuildOptions };

export const TOOLS: Record<string, ToolParser> = { fio, hyperfine, gbench, "pytest-benchmark": pytestBenchmark, ior, iozone };

export const TOOL_NAMES = Object.keys(TOOLS);

/** The presets of tables `varmap import` writes: preset name → tool. */
export const TOOL_PRESETS: Record<string, string> = Object.fromEntries(Object.values(TOOLS).map((t) => [t.preset ?? t.name, t.name]));

/** The `--preset` of a tool's tables. */
export function presetNameOf(tool: string): string {
  const t = toolOf(tool);
  return t.preset ?? t.name;
}

export function toolOf(name: string, flag = "the tool"): ToolParser {
  const t = TOOLS[name];
  if (!t) throw new VarmapError("E_USAGE", `unknown tool '${name}' (${flag})`, { remedy: `use one of: ${TOOL_NAMES.join(", ")}` });
  return t;
}

/** The runs of the files of one tool (groups carry their --tag values). */
export function importRuns(tool: string, groups: FileGroup[], opts: BuildOptions = {}): ImportedRuns {
  return buildRuns(toolOf(tool), groups, { others: Object.values(TOOLS), ...opts });
}

/**
 * The roles `--preset <tool>` gives a table written by `varmap import <tool>`, from its columns: run is `run`, the
 * response the tool's default; the tool's metrics and bookkeeping columns get no role; every other column is a
 * factor when it holds text (or is one of the tool's categorical settings), an input when it holds numbers.
 */
export function rolesFromColumns(tool: string, columns: { name: string; numeric: boolean }[]): ImportRoles {
  const v = toolOf(TOOL_PRESETS[tool] ?? tool, "--preset").vocabulary;
  const factors: string[] = [];
  const inputs: string[] = [];
  for (const c of columns) {
    if (c.name === "run" || v.responses.test(c.name) || v.meta.test(c.name) || c.name === v.response) continue;
    if (!c.numeric || v.factors.test(c.name)) factors.push(c.name);
    else inputs.push(c.name);
  }
  return { factors, inputs, response: v.response, run: columns.some((c) => c.name === "run") ? "run" : undefined };
}

/**
 * One number from the output of one tool run (for `varmap plan --exec`): `selector` is either a JSON path into
 * the file (`jobs[0].read.bw_bytes`, `$.results[0].mean`) or the name of a column `varmap import` writes
 * (`bw_bytes`, `read_clat_p99_ns`, `time_s`), which must then have exactly one value in the file (one run).
 */
export function readToolResult(tool: string, text: string, selector: string, file = "<result>"): number {
  const values = readToolResults(tool, text, selector, file);
  if (values.length !== 1)
    throw new VarmapError("E_IMPORT_SELECTOR", `'${selector}' has ${values.length} values in this ${tool} output, not one`, {
      location: { file },
      remedy: "select one with a JSON path (e.g. results[0].times[0]), or run the tool once per result",
    });
  return values[0];
}

/** Every value of `selector` in the output (a JSON path gives one; a column name one per run). */
export function readToolResults(tool: string, text: string, selector: string, file = "<result>"): number[] {
  const parser = toolOf(tool);
  if (/[.[$]/.test(selector)) {
    const segs = parseSelector(selector, file);
    const [doc] = parseJsonDocuments(text, file, parser.produce);
    let v: Json | undefined = doc;
    for (let i = 0; i < segs.length; i++) {
      const s = segs[i];
      v = Array.isArray(v) && typeof s === "number" ? v[s] : v !== null && typeof v === "object" && !Array.isArray(v) ? v[String(s)] : undefined;
      if (v === undefined)
        throw new VarmapError("E_IMPORT_SELECTOR", `no value at ${jsonPath(segs.slice(0, i + 1))}`, {
          location: { file, path: jsonPath(segs.slice(0, i + 1)) },
          remedy: "check the selector against the tool's JSON output",
        });
    }
    // A setting as the tool writes it ("4k") through the tool's own reading of numbers (fio: 4096 bytes).
    const last = String(segs[segs.length - 1]);
    const x = typeof v === "number" ? v : typeof v === "string" ? (parser.numeric?.(last, v) ?? (v.trim() !== "" ? Number(v) : Number.NaN)) : Number.NaN;
    if (!Number.isFinite(x))
      throw new VarmapError("E_IMPORT_SELECTOR", `the value at ${jsonPath(segs)} is not a number`, {
        location: { file, path: jsonPath(segs) },
        remedy: "select a numeric field",
      });
    return [x];
  }
  const runs = parser.parse(text, file);
  const values = runs.map((r) => r.metrics[selector]).filter((x): x is number => typeof x === "number");
  if (!values.length) {
    const names = [...new Set(runs.flatMap((r) => Object.keys(r.metrics)))];
    throw new VarmapError("E_IMPORT_SELECTOR", `no metric '${selector}' in this ${tool} output`, {
      location: { file },
      remedy: `use one of: ${names.join(", ")}, or a JSON path`,
    });
  }
  return values;
}

/** "jobs[0].read.bw_bytes" / "$.jobs[0]['job options'].bs" → segments. */
function parseSelector(sel: string, file: string): (string | number)[] {
  const segs: (string | number)[] = [];
  const re = /\[(\d+)\]|\[(?:"([^"]*)"|'([^']*)')\]|\.?([^.[\]]+)/g;
  const s = sel.trim().replace(/^\$/, "");
  let m: RegExpExecArray | null;
  let pos = 0;
  while ((m = re.exec(s)) !== null) {
    if (m.index !== pos) break;
    pos = re.lastIndex;
    segs.push(m[1] !== undefined ? Number(m[1]) : (m[2] ?? m[3] ?? m[4]));
  }
  if (pos !== s.length || !segs.length)
    throw new VarmapError("E_IMPORT_SELECTOR", `cannot read the selector '${sel}'`, { location: { file }, remedy: "write a path like jobs[0].read.bw_bytes" });
  return segs;
}
