// docs/cli.md: every verb, its arguments and every flag with its default and choices, rendered from the commander
// definitions themselves (issue 40), so the page cannot drift from the code. `npm run docs:cli` writes it;
// test/cli/cli-reference.test.ts fails when the committed page is not what this renders.
import type { Argument, Command, Option } from "commander";
import { HELP_EXAMPLES, verbOf } from "./help-examples.js";

/** A table cell: one line, pipes escaped. */
function cell(text: string): string {
  return text
    .replace(/\s*\n\s*/g, " ")
    .replace(/\|/g, "\\|")
    .trim();
}

function code(text: string): string {
  const t = text.replace(/\|/g, "\\|");
  return t.includes("`") ? `\`\` ${t} \`\`` : `\`${t}\``;
}

function defaultOf(o: Option | Argument): string {
  if (o.defaultValueDescription) return o.defaultValueDescription;
  if (o.defaultValue === undefined) return "";
  return JSON.stringify(o.defaultValue);
}

function choicesOf(o: Option | Argument): string {
  return o.argChoices ? o.argChoices.map((c) => code(c)).join(", ") : "";
}

function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) names.unshift(c.name());
  return names.join(" ");
}

function renderCommand(cmd: Command, depth: number): string[] {
  const path = commandPath(cmd);
  const out = [`${"#".repeat(depth)} ${path}`, "", cmd.description().trim(), "", "```", `${path} ${cmd.usage()}`, "```", ""];
  const args = cmd.registeredArguments;
  if (args.length) {
    out.push("| argument | description | default | choices |", "|---|---|---|---|");
    for (const a of args) {
      const name = `${a.required ? "<" : "["}${a.name()}${a.variadic ? "..." : ""}${a.required ? ">" : "]"}`;
      out.push(`| ${code(name)} | ${cell(a.description)} | ${cell(defaultOf(a))} | ${choicesOf(a)} |`);
    }
    out.push("");
  }
  const options = cmd.options.filter((o) => !o.hidden);
  if (options.length) {
    out.push("| flag | description | default | choices |", "|---|---|---|---|");
    for (const o of options)
      out.push(`| ${code(o.flags)} | ${cell(o.description)}${o.mandatory ? " (required)" : ""} | ${cell(defaultOf(o))} | ${choicesOf(o)} |`);
    out.push("");
  }
  const subs = cmd.commands.filter((c) => c.name() !== "help");
  if (subs.length) out.push(`Sub-commands: ${subs.map((c) => code(c.name())).join(", ")}.`, "");
  if (depth === 2) {
    const help = HELP_EXAMPLES[verbOf(cmd)];
    if (help)
      out.push(
        "Examples:",
        "",
        "```sh",
        ...help.examples,
        "```",
        "",
        `Guide: [${help.guide.replace(/^docs\//, "")}](${help.guide.replace(/^docs\//, "")})`,
        "",
      );
  }
  for (const s of subs) out.push(...renderCommand(s, depth + 1));
  return out;
}

/** The Markdown of docs/cli.md for a program with its verbs registered. */
export function renderCliMarkdown(program: Command): string {
  const verbs = program.commands.filter((c) => c.name() !== "help");
  const out = [
    "# The varmap command line",
    "",
    "Generated from the command definitions by `npm run docs:cli`; do not edit by hand (a test fails when this page is",
    "stale). Every verb with its arguments, flags, defaults and choices. `varmap <verb> --help` prints the same, and",
    "the [user's guide](guide/README.md) explains each task.",
    "",
    `Global flags: ${program.options.map((o) => code(o.flags)).join(", ")}, ${code("-h, --help")}.`,
    "",
    "## Verbs",
    "",
    ...verbs.map((c) => `- [${c.name()}](#${commandPath(c).replace(/ /g, "-")}): ${cell(c.description())}`),
    "",
  ];
  for (const v of verbs) out.push(...renderCommand(v, 2));
  return `${out
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trimEnd()}\n`;
}
