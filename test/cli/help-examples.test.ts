// `varmap <verb> --help` ends with examples and the guide page (issue 40): every verb has an entry in
// ts/cli/help-examples.ts, its examples call that verb with flags the verb has, and its page exists.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Command } from "commander";
import { describe, expect, it } from "vitest";
import { HELP_EXAMPLES } from "../../ts/cli/help-examples.js";
import { createProgram } from "../../ts/cli/program.js";
import { packageRoot } from "../../ts/package-root.js";

const root = packageRoot();
const cli = join(root, "dist", "ts", "cli", "main.js");
const program = await createProgram();
const verbs = program.commands.filter((c) => c.name() !== "help");

/** The long and short flags a command accepts (its own, and the help flag). */
function flagsOf(cmd: Command): Set<string> {
  const flags = new Set(["--help", "-h"]);
  for (const o of cmd.options) for (const f of [o.long, o.short]) if (f) flags.add(f);
  return flags;
}

describe("help examples", () => {
  it("lists the verbs", () => expect(verbs.map((v) => v.name())).toEqual(expect.arrayContaining(["fit", "predict", "cv", "plot"])));

  for (const verb of verbs) {
    it(`${verb.name()}: examples that call it with its own flags, and a guide page that exists`, () => {
      const entry = HELP_EXAMPLES[verb.name()];
      expect(entry, `give "${verb.name()}" examples and a guide in its entry of ts/cli/commands/index.ts`).toBeDefined();
      expect(entry.examples.length).toBeGreaterThanOrEqual(1);
      expect(entry.examples.length).toBeLessThanOrEqual(2);
      expect(existsSync(join(root, entry.guide)), entry.guide).toBe(true);
      expect(entry.guide).toMatch(/^docs\/guide\/[a-z0-9-]+\.md$/);
      for (const example of entry.examples) {
        const words = example
          .replace(/\s+#.*$/, "")
          .replace(/^([A-Z_]+=\S+\s+)+/, "")
          .split(/\s+/);
        expect(words.slice(0, 2), example).toEqual(["varmap", verb.name()]);
        // A sub-command (plot heatmap, slurm submit) takes the flags; `slurm submit cv …` passes the rest to cv.
        const sub = verb.commands.find((c) => c.name() === words[2]);
        const cmd = sub ?? verb;
        const passThrough = sub && verb.name() === "slurm" && sub.name() === "submit" ? program.commands.find((c) => c.name() === words[3]) : undefined;
        const known = new Set([...flagsOf(cmd), ...(passThrough ? flagsOf(passThrough) : [])]);
        for (const w of words) if (/^--?[a-z]/.test(w)) expect(known.has(w.split("=")[0]), `${example}: ${w} is not a flag of ${cmd.name()}`).toBe(true);
      }
    });
  }

  it.skipIf(!existsSync(cli))("--help of a verb and of a sub-command ends with them", () => {
    for (const args of [
      ["fit", "--help"],
      ["plot", "heatmap", "--help"],
    ]) {
      const r = spawnSync(process.execPath, [cli, ...args], { encoding: "utf8" });
      expect(r.status).toBe(0);
      const tail = r.stdout.slice(r.stdout.indexOf("\nExamples:\n"));
      expect(tail, args.join(" ")).toMatch(/^\nExamples:\n {2}varmap /);
      const guide = /\nGuide: (.+)\n+$/.exec(tail)?.[1];
      expect(guide && existsSync(guide), `${args.join(" ")}: ${guide}`).toBe(true);
    }
  });
});
