// The `varmap` command. Exit codes: 0 ok, 1 internal error (a bug), 2 bad input or usage.
import { Command, CommanderError } from "commander";
import { isVarmapError } from "../errors.js";
import { exitStatusOf } from "../errors/catalogue.js";
import { commands } from "./commands/index.js";

export async function main(argv: string[]): Promise<number> {
  const program = new Command("varmap")
    .description("model and predict the run-to-run performance variability of computer systems")
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) });
  for (const register of commands) register(program);
  try {
    await program.parseAsync(argv, { from: "user" });
    return 0;
  } catch (e) {
    return reportError(e);
  }
}

export function reportError(e: unknown): number {
  if (e instanceof CommanderError) return e.exitCode === 0 ? 0 : 2;
  if (isVarmapError(e)) {
    process.stderr.write(`varmap: error [${e.code}]: ${e.message}\n`);
    return exitStatusOf(e.code);
  }
  process.stderr.write(`varmap: internal error (a bug in varmap): ${(e as Error)?.stack ?? String(e)}\n`);
  process.stderr.write("Please report it with the command line and, if you can, the input that triggers it.\n");
  return 1;
}

