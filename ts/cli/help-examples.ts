// What `varmap <verb> --help` ends with: one or two examples and the user's-guide page that explains the verb
// (issue 40). They sit in each verb's entry of ts/cli/commands/index.ts and are hooked once over every command in
// program.ts, so command files need not change when examples do; test/cli/help-examples.test.ts checks every verb
// has them, that their flags exist and that the page is there.
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Command } from "commander";
import { packageRoot } from "../package-root.js";
import { VERBS } from "./commands/index.js";

export interface HelpExamples {
  /** Commands as a user types them, `varmap <verb> …` (a preceding `varmap synth` line is allowed). */
  examples: string[];
  /** The guide page, relative to the package root. */
  guide: string;
}

/** Every verb's examples and guide page, from its entry in ts/cli/commands/index.ts. */
export const HELP_EXAMPLES: Readonly<Record<string, HelpExamples>> = VERBS;

/** The verb a command belongs to: its top-level ancestor below the program (`plot heatmap` → `plot`). */
export function verbOf(cmd: Command): string {
  let c = cmd;
  while (c.parent?.parent) c = c.parent;
  return c.name();
}

/** The text after a command's help: its verb's examples and the guide page (an absolute path, to open). */
export function helpExamplesText(verb: string): string {
  const entry = HELP_EXAMPLES[verb];
  if (!entry) return "";
  const page = join(packageRoot(), entry.guide);
  return `\nExamples:\n${entry.examples.map((e) => `  ${e}`).join("\n")}\n\nGuide: ${existsSync(page) ? page : entry.guide}`;
}

/** Hooks the examples into the help of every command below `program` (sub-commands get their verb's), and the
 * guide's index into the program's own help. */
export function addHelpExamples(program: Command): void {
  program.addHelpText("after", () => `\nEvery verb's examples: varmap <verb> --help. The user's guide: ${join(packageRoot(), "docs", "guide", "README.md")}`);
  const visit = (cmd: Command): void => {
    for (const sub of cmd.commands) {
      const verb = verbOf(sub);
      if (HELP_EXAMPLES[verb]) sub.addHelpText("after", () => helpExamplesText(verb));
      visit(sub);
    }
  };
  visit(program);
}
