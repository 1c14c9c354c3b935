// Writes docs/errors.md from the error catalogue (ts/errors/catalogue.ts): `npm run docs:errors`.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { renderErrorsMarkdown } from "../ts/errors/catalogue.js";
import { packageRoot } from "../ts/package-root.js";

const path = join(packageRoot(), "docs", "errors.md");
writeFileSync(path, renderErrorsMarkdown());
process.stderr.write(`wrote ${path}\n`);
