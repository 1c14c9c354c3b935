// How `varmap plan --exec` reads a run's result from the command's output (issue 43): a small registry of result
// readers, named by the text before the first ":" of --result. Built in: `stdout` (the last non-empty line is a
// number) and `json:PATH` (stdout is JSON; PATH like jobs[0].read.bw). A benchmark tool's parser (fio, hyperfine,
// … in ts/import/) plugs in with registerResultReader("fio", (arg) => reader) and is then --result fio:ARG.
import { VarmapError } from "../errors.js";
import { readToolResult, TOOL_NAMES } from "../import/registry.js";

export interface CommandOutput {
  stdout: string;
  stderr: string;
  /** Exit status (null when killed by a signal). */
  status: number | null;
}

/** A reader returns the run's number, or throws ResultUnreadable saying why. */
export type ResultReader = (out: CommandOutput) => number;

export class ResultUnreadable extends Error {}

type ReaderFactory = (arg: string | undefined) => ResultReader;

const READERS = new Map<string, { factory: ReaderFactory; help: string }>();

export function registerResultReader(kind: string, factory: ReaderFactory, help: string): void {
  READERS.set(kind, { factory, help });
}

export function resultReaderKinds(): { kind: string; help: string }[] {
  return [...READERS].map(([kind, r]) => ({ kind, help: r.help }));
}

/** The reader a --result spec names (checked before any command runs). */
export function resultReader(spec: string): ResultReader {
  const i = spec.indexOf(":");
  const kind = i < 0 ? spec : spec.slice(0, i);
  const arg = i < 0 ? undefined : spec.slice(i + 1);
  const r = READERS.get(kind);
  if (!r)
    throw new VarmapError("E_USAGE", `--result ${spec}: no result reader '${kind}'`, {
      remedy: `use one of ${[...READERS.keys()].map((k) => (k === "json" ? "json:PATH" : k)).join(", ")}`,
    });
  return r.factory(arg);
}

function toNumber(v: unknown, what: string): number {
  const x = typeof v === "number" ? v : typeof v === "string" && v.trim() !== "" ? Number(v) : NaN;
  if (!Number.isFinite(x)) throw new ResultUnreadable(`${what} is ${JSON.stringify(v) ?? "missing"}, not a finite number`);
  return x;
}

registerResultReader(
  "stdout",
  (arg) => {
    if (arg !== undefined) throw new VarmapError("E_USAGE", `--result stdout takes no argument (got '${arg}')`, { remedy: "write --result stdout" });
    return (out) => {
      const lines = out.stdout.split("\n").filter((l) => l.trim() !== "");
      if (lines.length === 0) throw new ResultUnreadable("the command printed nothing on stdout");
      return toNumber(lines[lines.length - 1].trim(), "the last line of stdout");
    };
  },
  "the last non-empty line of stdout is the number",
);

/** Parses a path like `jobs[0].read.bw` into keys and indices. */
export function parseJsonPath(path: string): (string | number)[] {
  const out: (string | number)[] = [];
  const re = /([^.[\]]+)|\[(\d+)\]/g;
  let m: RegExpExecArray | null;
  let consumed = 0;
  while ((m = re.exec(path))) {
    out.push(m[2] !== undefined ? Number(m[2]) : m[1]);
    consumed += m[0].length;
  }
  const dots = (path.match(/\./g) ?? []).length;
  if (out.length === 0 || consumed + dots !== path.length)
    throw new VarmapError("E_USAGE", `--result json:${path} is not a JSON path`, { remedy: "write e.g. --result json:jobs[0].read.bw" });
  return out;
}

registerResultReader(
  "json",
  (arg) => {
    if (!arg) throw new VarmapError("E_USAGE", "--result json needs a path", { remedy: "write e.g. --result json:jobs[0].read.bw" });
    const keys = parseJsonPath(arg);
    return (out) => {
      let v: unknown;
      try {
        v = JSON.parse(out.stdout);
      } catch {
        throw new ResultUnreadable("stdout is not JSON");
      }
      for (const k of keys) {
        if (v === null || typeof v !== "object") throw new ResultUnreadable(`the JSON has no ${arg}`);
        v = (v as Record<string | number, unknown>)[k];
      }
      return toNumber(v, `JSON ${arg}`);
    };
  },
  "stdout is JSON; the number at PATH (e.g. jobs[0].read.bw)",
);

// The benchmark tools' parsers (issue 42): --result fio:jobs[0].read.bw_bytes, --result hyperfine:time_s, … — the
// command's stdout is the tool's JSON output; the selector is a JSON path or a column `varmap import` writes.
for (const tool of TOOL_NAMES)
  registerResultReader(
    tool,
    (arg) => {
      if (!arg) throw new VarmapError("E_USAGE", `--result ${tool} needs a selector`, { remedy: `write e.g. --result ${tool}:<json path or column>` });
      return (out) => {
        try {
          return readToolResult(tool, out.stdout, arg, "<stdout>");
        } catch (e) {
          if (e instanceof VarmapError) throw new ResultUnreadable(`${tool} output: ${e.message}`);
          throw e;
        }
      };
    },
    `stdout is ${tool}'s output; the number at a JSON path or the one value of a column varmap import writes`,
  );
