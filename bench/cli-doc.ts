// Writes docs/cli.md from the commander definitions of every verb (ts/cli/reference.ts): `npm run docs:cli`.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createProgram } from "../ts/cli/program.js";
import { renderCliMarkdown } from "../ts/cli/reference.js";
import { packageRoot } from "../ts/package-root.js";

const path = join(packageRoot(), "docs", "cli.md");
writeFileSync(path, renderCliMarkdown(await createProgram()));
process.stderr.write(`wrote ${path}\n`);
