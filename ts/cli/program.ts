// The `varmap` command. Exit codes: 0 ok, 1 internal error (a bug), 2 bad input or usage.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Command, CommanderError } from "commander";
import { isVarmapError, VarmapError, type ErrorCode } from "../errors.js";
import { exitStatusOf } from "../errors/catalogue.js";
import { packageRoot } from "../package-root.js";
import { loadCommands } from "./commands/index.js";
import { addHelpExamples } from "./help-examples.js";
import { registerLogInputsJudge } from "../data/auto-transforms.js";
import { splineGcvJudge } from "../predict/log-inputs-judge.js";

// The composition root wires the layers: --log-inputs auto's candidates (data) are judged by a spline (predict).
registerLogInputsJudge(splineGcvJudge);

function packageVersion(): string {
  return (JSON.parse(readFileSync(join(packageRoot(), "package.json"), "utf8")) as { version: string }).version;
}

/**
 * The `varmap` program with every verb registered (also what docs/cli.md is generated from), or with `verb` alone
 * when it names one: a run loads only its verb's modules.
 */
export async function createProgram(verb?: string): Promise<Command> {
  const program = new Command("varmap")
    .description("model and predict the run-to-run performance variability of computer systems")
    .version(packageVersion(), "-V, --version", "print the varmap version")
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) });
  for (const register of await loadCommands(verb)) register(program);
  addHelpExamples(program);
  return program;
}

export async function main(argv: string[]): Promise<number> {
  try {
    const program = await createProgram(argv[0]);
    await program.parseAsync(argv, { from: "user" });
    return 0;
  } catch (e) {
    return reportError(e);
  }
}

export function reportError(e: unknown): number {
  if (e instanceof CommanderError) return e.exitCode === 0 ? 0 : 2;
  const user = isVarmapError(e) ? e : environmentError(e);
  if (user) {
    process.stderr.write(`varmap: error [${user.code}]: ${user.message}\n`);
    return exitStatusOf(user.code);
  }
  process.stderr.write(`varmap: internal error (a bug in varmap): ${(e as Error)?.stack ?? String(e)}\n`);
  process.stderr.write("Please report it with the command line and, if you can, the input that triggers it.\n");
  return 1;
}

/**
 * The file-system errors a user or the machine causes (no permission, no space, a missing directory, too many
 * open files) as coded errors: they are not bugs, so they exit 2 with what to do, never a stack trace.
 */
export function environmentError(e: unknown): VarmapError | undefined {
  const err = e as NodeJS.ErrnoException;
  if (!err || typeof err.code !== "string" || !err.syscall) return undefined;
  const path = err.path ?? (err as { dest?: string }).dest;
  const what = path ? `${err.syscall} ${path}` : err.syscall;
  const table: Record<string, [ErrorCode, string, string]> = {
    EACCES: ["E_PERMISSION", "permission denied", "check the file's and its directory's permissions, or choose another path"],
    EPERM: ["E_PERMISSION", "operation not permitted", "check the file's and its directory's permissions, or choose another path"],
    EROFS: ["E_PERMISSION", "the file system is read-only", "write to a writable directory (--out elsewhere)"],
    ENOSPC: ["E_DISK_FULL", "no space left on the device", "free some space or write elsewhere, then run the same command again (jobs resume)"],
    EDQUOT: ["E_DISK_FULL", "disk quota exceeded", "free some space or write elsewhere, then run the same command again (jobs resume)"],
    ENOENT: ["E_NOT_FOUND", "no such file or directory", "check the path (relative paths start from the current directory)"],
    ENOTDIR: ["E_NOT_FOUND", "a part of the path is not a directory", "check the path"],
    EISDIR: ["E_NOT_FOUND", "is a directory, not a file", "give a file path"],
    EMFILE: ["E_RESOURCES", "too many open files", "raise the limit (ulimit -n) or use fewer --workers"],
  };
  const hit = table[err.code];
  if (!hit) return undefined;
  return new VarmapError(hit[0], `cannot ${what}: ${hit[1]} (${err.code})`, { location: path ? { file: path } : {}, remedy: hit[2], cause: e });
}
