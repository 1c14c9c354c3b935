// `varmap doctor`: the backend in use and why, versions, and a self-test of every kernel on both backends. The
// verb is ts/verbs/doctor.ts; here the report is printed (text or JSON) and a failure exits 1.
import type { Command } from "commander";
import { runDoctor } from "../../verbs/doctor.js";

export function register(program: Command): void {
  program
    .command("doctor")
    .description("backend in use and why, versions, kernel self-test")
    .option("--json", "machine-readable report on stdout")
    .action(async (opts: { json?: boolean }) => {
      const { ok, text, ...report } = await runDoctor();
      process.stdout.write(opts.json ? JSON.stringify(report, null, 2) + "\n" : text);
      // A failing self-test, or a requested backend that cannot be used: exit 1 (not the verbs' usage code 2).
      if (!ok) process.exitCode = 1;
    });
}
