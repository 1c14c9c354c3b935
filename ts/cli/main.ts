#!/usr/bin/env node
// The `varmap` executable.
import { main, reportError } from "./program.js";

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    process.exitCode = reportError(e);
  },
);
