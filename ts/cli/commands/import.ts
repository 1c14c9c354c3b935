// `varmap import <tool> FILES... --out runs.parquet [--tag key=value FILES...]...`: flags to ImportOptions, then
// runImport. A --tag applies to the files after it (up to the next --tag), so commander leaves it to us: it is
// not declared, and unknown options reach the file list in order.
import type { Command } from "commander";
import { VarmapError } from "../../errors.js";
import { TOOL_NAMES, TOOLS, type FileGroup } from "../../import/registry.js";
import { runImport } from "../../verbs/import.js";

export function register(program: Command): void {
  program
    .command("import")
    .description("a benchmark tool's output files (fio, hyperfine, Google Benchmark, ...) as one table of runs")
    .argument("<tool>", `the tool that wrote the files: ${TOOL_NAMES.join(" | ")}`)
    .argument("<files...>", "its output files; --tag key=value before a group of files makes key a factor with that value for them")
    .requiredOption("--out <path>", "the table of runs: .parquet, .csv or .tsv")
    .option("--no-date", "do not make the tool's date a factor when the runs span several days")
    .option("--json", "print a machine-readable summary on stdout")
    .option("--quiet", "no notes on stderr")
    .allowUnknownOption()
    .addHelpText(
      "after",
      `\n  --tag key=value  before a group of files: key becomes a factor with that value for them (until key is tagged again)\n\nTools:\n${Object.values(TOOLS)
        .map((t) => `  ${t.name.padEnd(17)} ${t.description}`)
        .join(
          "\n",
        )}\n\nExample: varmap import fio --tag host=a a/*.json --tag host=b b/*.json --out runs.parquet\nThen:    varmap summarize runs.parquet --preset fio\n`,
    )
    .action(async (tool: string, args: string[], opts: Record<string, unknown>) => {
      const summary = await runImport({
        tool,
        groups: fileGroups(args),
        out: opts.out as string,
        date: opts.date !== false,
        note: opts.quiet || opts.json ? undefined : (m) => process.stderr.write(`varmap: note: ${m}\n`),
      });
      if (opts.json) {
        process.stdout.write(JSON.stringify(summary, null, 2) + "\n");
        return;
      }
      const r = summary.roles;
      process.stdout.write(
        `${summary.runs} runs of ${summary.configurations} configurations from ${summary.files} file(s) written to ${summary.out}\n` +
          `--preset ${summary.preset}: factors ${r.factors.join(", ") || "(none)"}; inputs ${r.inputs.join(", ") || "(none)"}; run ${r.run ?? "(none)"}; response ${r.response}\n` +
          `responses: ${summary.columns
            .filter((c) => c.role === "response")
            .map((c) => c.name)
            .join(", ")}\n`,
      );
    });
}

/** Files and `--tag key=value` (or `--tag=key=value`) in command-line order: each tag holds for the files after it. */
export function fileGroups(args: string[]): FileGroup[] {
  const groups: FileGroup[] = [{ files: [], tags: {} }];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    let kv: string | undefined;
    if (a === "--tag") kv = args[++i];
    else if (a.startsWith("--tag=")) kv = a.slice(6);
    else if (a.startsWith("-") && a !== "-") throw new VarmapError("E_USAGE", `unknown option '${a}'`, { remedy: "see varmap import --help" });
    else {
      groups[groups.length - 1].files.push(a);
      continue;
    }
    const m = kv === undefined ? null : /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(kv);
    if (!m) throw new VarmapError("E_USAGE", `--tag ${kv ?? ""}: expected key=value`, { remedy: "write --tag host=node1 before the files it describes" });
    const cur = groups[groups.length - 1];
    const tags = { ...cur.tags, [m[1]]: m[2] }; // a tag holds until its key is tagged again
    if (cur.files.length) groups.push({ files: [], tags });
    else cur.tags = tags;
  }
  return groups.filter((g) => g.files.length);
}
