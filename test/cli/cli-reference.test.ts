// docs/cli.md is the current rendering of the commander definitions (issue 40), like docs/errors.md of the error
// catalogue: regenerate it with `npm run docs:cli` after changing a verb's flags.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createProgram } from "../../ts/cli/program.js";
import { renderCliMarkdown } from "../../ts/cli/reference.js";
import { packageRoot } from "../../ts/package-root.js";

const program = await createProgram();
const page = renderCliMarkdown(program);

describe("docs/cli.md", () => {
  it("has every verb and every flag of each, with defaults and choices", () => {
    for (const verb of program.commands.filter((c) => c.name() !== "help")) {
      expect(page).toContain(`## varmap ${verb.name()}\n`);
      for (const o of verb.options) expect(page, `${verb.name()} ${o.flags}`).toContain(`| \`${o.flags.replace(/\|/g, "\\|")}\` |`);
    }
    expect(page).toMatch(/\| `--stat <name>` \| [^\n]* \| "sd" \| `sd`, `var`, `mean`/);
  });

  it("is up to date (regenerate with `npm run docs:cli`)", () => {
    expect(readFileSync(join(packageRoot(), "docs", "cli.md"), "utf8")).toBe(page);
  });
});
