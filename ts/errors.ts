// Every failure a user can cause is a VarmapError: a stable code, a message that says what and where,
// and the remedy. The CLI maps it to exit code 2; anything else is a bug (exit code 1).
import type { ErrorCode } from "./errors/catalogue.js";

export type { ErrorCode };

export interface ErrorLocation {
  file?: string;
  row?: number; // 1-based, header = row 1
  column?: string;
  configuration?: string;
  /** A JSON path inside the file ("$.jobs[0].error"), for tools' JSON output (ts/import). */
  path?: string;
}

export class VarmapError extends Error {
  readonly code: ErrorCode;
  /** The message without its location and remedy (what the constructor was given). */
  readonly detail: string;
  readonly location: ErrorLocation;
  readonly remedy: string;

  constructor(code: ErrorCode, message: string, opts: { location?: ErrorLocation; remedy?: string; cause?: unknown } = {}) {
    message = escapeBinary(message);
    const where = escapeBinary(formatLocation(opts.location ?? {}));
    const full = [where ? `${where}: ${message}` : message, opts.remedy ? `How to fix: ${opts.remedy}` : ""].filter(Boolean).join(". ");
    super(full, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = "VarmapError";
    this.code = code;
    this.detail = message;
    this.location = opts.location ?? {};
    this.remedy = opts.remedy ?? "";
  }
}

/**
 * Control characters and undecodable bytes (U+FFFD) of a value quoted from a file, shown as \xNN / \u{FFFD}
 * escapes: a message must not ring the terminal, move its cursor or print garbage. Tabs and newlines stay.
 */
export function escapeBinary(s: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
  return s.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\ufffd]/g, (ch) => {
    const c = ch.codePointAt(0)!;
    return c === 0xfffd ? "\\u{FFFD}" : `\\x${c.toString(16).padStart(2, "0").toUpperCase()}`;
  });
}

function formatLocation(l: ErrorLocation): string {
  const parts: string[] = [];
  if (l.file) parts.push(l.file);
  // A row is a 1-based file row: an unknown one (-1, NaN from a lookup that found nothing) is left out rather than
  // printed as "row -1" (issue 44 item 19d).
  if (l.row !== undefined && Number.isInteger(l.row) && l.row >= 1) parts.push(`row ${l.row}`);
  if (l.column) parts.push(`column '${l.column}'`);
  if (l.configuration) parts.push(`configuration ${l.configuration}`);
  if (l.path) parts.push(`at ${l.path}`);
  return parts.join(", ");
}

export function isVarmapError(e: unknown): e is VarmapError {
  return e instanceof VarmapError;
}
