#!/usr/bin/env node
// The `varmap` executable.
import { main, reportError } from "./program.js";

// A closed pipe (`varmap summarize … | head`) ends the output, not the program with a stack trace.
process.stdout.on("error", (e: NodeJS.ErrnoException) => {
  if (e.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw e;
});

main(process.argv.slice(2)).then(
  (code) => {
    // A verb may have set its own status (doctor: 1 when a check fails); success does not overwrite it.
    process.exitCode = code !== 0 ? code : (process.exitCode ?? 0);
  },
  (e) => {
    process.exitCode = reportError(e);
  },
);
