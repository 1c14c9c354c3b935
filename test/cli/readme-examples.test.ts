// The documentation's command examples run as written (issue 15: "README examples run as written from the clone
// root"; issue 40: every example of every user's-guide page too). Every code block of README.md and of each
// docs/guide/*.md page with a `varmap` command (fenced sh/bash blocks and indented blocks) is split into commands;
// each runs in bash, in page order, with `varmap` a shell function that calls the built CLI. Each page runs in its
// own temporary directory (pages added later are picked up by listing the folder), where small stand-ins are
// written first for the files the examples assume you have (runs.csv, configs.csv, data.parquet). Commands that
// cannot run here are skipped, each kind with its reason below; commands on ../shared run when the shared data are
// present (VARMAP_SHARED or ../shared) and are skipped, saying so, otherwise.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { packageRoot } from "../../ts/package-root.js";
import { writeTable } from "../../ts/data/write.js";
import { hasShared, sharedDir, sharedSkipReason } from "../helpers/shared.js";
import { onceReason, secondBackendRun } from "../helpers/once.js";

const root = packageRoot();
const cli = join(root, "dist", "ts", "cli", "main.js");
const built = existsSync(cli);

interface ReadmeCommand {
  /** Page line of the command's first line. */
  line: number;
  /** The command as written (continuations joined), with the shell assignments made earlier in its block. */
  prelude: string[];
  text: string;
}

/** The commands of a Markdown page's shell code blocks, in order. */
function readmeCommands(markdown: string): ReadmeCommand[] {
  const lines = markdown.split("\n");
  const blocks: { start: number; lines: string[]; end: number }[] = [];
  let fence: string | undefined;
  let cur: { start: number; lines: string[]; end: number } | undefined;
  lines.forEach((l, n) => {
    const m = /^```(\w*)/.exec(l);
    if (m) {
      if (fence === undefined) {
        fence = m[1];
        cur = { start: n + 2, lines: [], end: n };
        if (fence === "sh" || fence === "bash") blocks.push(cur);
      } else fence = undefined;
      return;
    }
    if (fence !== undefined) return void cur!.lines.push(l);
    if (!l.startsWith("    ")) return;
    if (cur && cur.end === n - 1 && blocks.includes(cur)) cur.lines.push(l.slice(4)), (cur.end = n);
    else if (n === 0 || lines[n - 1].trim() === "") blocks.push((cur = { start: n + 1, lines: [l.slice(4)], end: n }));
  });
  const out: ReadmeCommand[] = [];
  for (const b of blocks) {
    if (!b.lines.some((l) => /^(varmap|npm|exec) /.test(l))) continue; // output listings, not commands
    const prelude: string[] = [];
    for (let i = 0; i < b.lines.length; i++) {
      const start = i;
      let text = b.lines[i];
      while (text.endsWith("\\") && i + 1 < b.lines.length) text = text.slice(0, -1) + " " + b.lines[++i].trim();
      if (!text.trim() || text.startsWith("#")) continue;
      if (/^[A-Z_]+=\S+$/.test(text.trim()) || /^set -\w+$/.test(text.trim())) prelude.push(text.trim());
      else out.push({ line: b.start + start, prelude: [...prelude], text });
    }
  }
  return out;
}

/** Why a command is not run here, or undefined to run it. */
function skipReason(c: ReadmeCommand, shared: boolean): string | undefined {
  const t = [...c.prelude, c.text].join("\n");
  if (/^npm /.test(c.text)) return "installs, builds, tests or benchmarks varmap itself (CI runs these)";
  if (/\$SLURM|slurm submit/.test(t) || /^exec node \/shared\/me\//.test(c.text))
    return "a Slurm job or batch script (test/cluster/slurm.sh runs the Slurm path)";
  if (/\[--/.test(c.text)) return "a synopsis of the flags, not a command";
  if (/(^|\s)(--help|-h)(\s|$)/.test(c.text)) return "prints help only";
  if (/varmap-demo\//.test(t)) return "reads the output of `npm run demo` (about a minute: run the demo first)";
  if (/synth --design (moana|mixture)\b/.test(c.text) && !/--maps/.test(c.text)) return "writes the full-scale synthetic dataset (millions of rows)";
  // Measured on 2 cores: each takes 20 s to several minutes on the full real data; their verbs' tests cover them.
  for (const [re, what] of SLOW) if (re.test(t)) return `slow on the full real data (${what}); run it by hand`;
  if (/\.\.\/shared/.test(t) && !shared) return `needs ../shared (${sharedSkipReason})`;
  return undefined;
}

/** The files a command writes (`--out f`, `> f`), so that what reads them can be skipped when it is. */
function outputsOf(c: ReadmeCommand): string[] {
  return [...c.text.matchAll(/(?:--out\s+|(?:^|\s)>\s*)([^\s;|&]+)/g)].map((m) => m[1].replace(/(.)\/+$/, "$1")); // a directory without its slash
}

/** Why a command cannot run because it reads a file that a skipped example would have written (file → its line). */
function dependsOnSkipped(c: ReadmeCommand, unwritten: Map<string, number>): string | undefined {
  const own = new Set(outputsOf(c));
  const args = c.text.replace(/^varmap\s+\S+/, ""); // the verb is not a file (`--out cv` then `varmap cv …`)
  for (const [file, line] of unwritten) {
    if (own.has(file)) continue;
    const escaped = file.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
    if (new RegExp(`(^|[\\s=,'"])${escaped}($|[\\s,;'"/])`).test(args)) return `reads ${file}, which a skipped example writes (line ${line})`;
  }
  return undefined;
}

const SLOW: [RegExp, string][] = [
  [/cv \.\.\/shared\/data\/moana-cfq-noop-fread\.csv .*--methods lr,lsp,delaunay,mars,rbf/, "> 5 min: rbf's O(n³) solve on 180 splits"],
  [/cv \.\.\/shared\/data\/moana-cfq-noop-fread\.csv .*--target distribution/, "minutes: 180 splits × 4 distribution methods"],
  [/--methods lr,lsp,mars,delaunay --predictions pred4\.csv/, "about 20 s: 4 methods × 180 splits with every prediction's trust columns"],
  [/mixture \.\.\/shared\/data\/iozone-2018\.csv/, "24 s and more: 274 configurations × 6 families × k = 1..5"],
  [/samplesize \.\.\/shared\/data\/iozone-2018\.csv/, "about 50 s"],
  [/convergence \.\.\/shared\/data\/moana-cfq-noop-fread\.csv/, "about 25 s"],
  [/whatif \.\.\/shared\/data\/moana-cfq-noop-fread\.csv --preset moana --holdout/, "about 20 s"],
  [/F=\.\.\/shared\/data\/moana-cfq-noop-fread\.csv/, "the what-if walk-through: two fits, a cv and a grid search on the real map"],
];

const dir = mkdtempSync(join(tmpdir(), "varmap-readme-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Small stand-ins for the files the README assumes the reader has: MOANA-style runs of one map. */
async function standIns(work: string): Promise<void> {
  const cols = ["host_sched", "vm_sched", "mode", "freq_khz", "threads", "fsize_kb", "rsize_kb", "run", "throughput_kbps"];
  const rows: (string | number)[][] = [];
  let k = 0;
  for (const freq of [1200000, 2000000, 2800000])
    for (const threads of [1, 8, 64])
      for (const fsize of [64, 1024])
        for (const rsize of [32, 128])
          for (let run = 1; run <= 8; run++) {
            const base = 1e5 * (1 + freq / 3e6) * (1 + Math.log2(threads) / 6) * (1 + rsize / 512);
            const noise = Math.sin(12.9898 * ++k) * 43758.5453;
            rows.push(["CFQ", "NOOP", "fread", freq, threads, fsize, rsize, run, base * (1 + 0.1 * (noise - Math.floor(noise) - 0.5))]);
          }
  const csv = [cols.join(","), ...rows.map((r) => r.join(","))].join("\n") + "\n";
  writeFileSync(join(work, "runs.csv"), csv);
  writeFileSync(join(work, "data.csv"), csv);
  await writeTable(
    join(work, "data.parquet"),
    cols.map((name, j) => (j < 3 ? { name, values: rows.map((r) => String(r[j])), type: "string" as const } : { name, values: rows.map((r) => Number(r[j])) })),
  );
  writeFileSync(
    join(work, "configs.csv"),
    "host_sched,vm_sched,mode,freq_khz,threads,fsize_kb,rsize_kb\nCFQ,NOOP,fread,2000000,8,64,32\nCFQ,NOOP,fread,2400000,16,512,64\n",
  );
}

/** README.md and every page of docs/guide/, as paths relative to the package root. */
function documentationPages(): string[] {
  const guide = join(root, "docs", "guide");
  const pages = existsSync(guide)
    ? readdirSync(guide)
        .filter((f) => f.endsWith(".md"))
        .sort()
    : [];
  return ["README.md", ...pages.map((f) => `docs/guide/${f}`)];
}

/** What ran and what was skipped on one page. */
interface PageRun {
  ran: string[];
  skipped: Map<string, number[]>;
  work: string;
}

/** Runs a page's commands in a fresh directory `<tmp>/<page>/clone`, with ../shared beside it when present. */
async function runPage(page: string, commands: ReadmeCommand[]): Promise<PageRun> {
  const base = join(dir, page.replace(/[/.]/g, "_"));
  const work = join(base, "clone");
  mkdirSync(work, { recursive: true });
  if (hasShared) symlinkSync(sharedDir, join(base, "shared"), "dir");
  // Pages whose examples read the repository's own fixtures (docs/guide/import.md) run from a clone's root.
  symlinkSync(join(root, "test"), join(work, "test"), "dir");
  await standIns(work);
  const ran: string[] = [];
  const skipped = new Map<string, number[]>();
  const unwritten = new Map<string, number>(); // files a skipped example would have written → its line
  for (const c of commands) {
    const why = skipReason(c, hasShared) ?? dependsOnSkipped(c, unwritten);
    if (why) {
      skipped.set(why, [...(skipped.get(why) ?? []), c.line]);
      for (const f of outputsOf(c)) unwritten.set(f, c.line);
      continue;
    }
    for (const f of outputsOf(c)) unwritten.delete(f);
    const script = [`varmap() { "${process.execPath}" "${cli}" "$@"; }`, "set -e", ...c.prelude, c.text].join("\n");
    const t0 = Date.now();
    const r = spawnSync("bash", ["-c", script], { cwd: work, encoding: "utf8", env: { ...process.env, VARMAP_QUIET: "1" }, maxBuffer: 1 << 26 });
    expect(r.status, `${page} line ${c.line}: ${c.text}\n${r.stderr}`).toBe(0);
    ran.push(`line ${c.line} (${((Date.now() - t0) / 1000).toFixed(1)} s): ${c.text.slice(0, 80)}`);
  }
  process.stderr.write(
    `${page}: ran ${ran.length} example(s):\n  ${ran.join("\n  ")}\nskipped ${[...skipped.values()].flat().length}:\n${[...skipped]
      .map(([why, ls]) => `  lines ${ls.join(", ")}: ${why}`)
      .join("\n")}\n`,
  );
  return { ran, skipped, work };
}

const pages = documentationPages();
const why = built ? "" : " — dist/ts/cli/main.js missing: run npm run build";

describe("README.md stays a five-minute read (issue 40)", () => {
  const readme = readFileSync(join(root, "README.md"), "utf8");
  it("is at most 12 KB, with at most 10 percent signs and no machine or load notes", () => {
    expect(Buffer.byteLength(readme)).toBeLessThanOrEqual(12 * 1024);
    expect(readme.split("%").length - 1).toBeLessThanOrEqual(10);
    expect(readme).not.toMatch(/EPYC|Xeon|load average|loaded machine|dist\/bench\//i);
  });
  it("starts with the install and demo commands, then the test command", () => {
    const first = readmeCommands(readme).map((c) => c.text.replace(/\s+#.*$/, ""));
    expect(first.slice(0, 3)).toEqual(["npm ci", "npm run demo", "npm test"]);
  });
});

describe.skipIf(secondBackendRun || !built)(`README examples${why}`, () => {
  const commands = readmeCommands(readFileSync(join(root, "README.md"), "utf8"));

  it("finds the README's commands: the tour from synth to report", () => {
    expect(commands.length).toBeGreaterThanOrEqual(8);
    for (const verb of ["synth", "summarize", "fit", "predict", "cv", "mixture", "report"])
      expect(
        commands.some((c) => c.text.startsWith(`varmap ${verb} `)),
        verb,
      ).toBe(true);
    expect(commands.some((c) => /^varmap predict .*--interval/.test(c.text))).toBe(true);
  });

  it("runs every example that can run here, as written, and each exits 0", async () => {
    const { ran, work } = await runPage("README.md", commands);
    expect(ran.length).toBeGreaterThanOrEqual(8);
    // What the tour promises: a prediction of an unmeasured configuration with its interval and trust columns.
    expect(readFileSync(join(work, "predictions.csv"), "utf8").split("\n")[0]).toMatch(/,prediction,lo,hi,novel,extrapolated,distance,clamped$/);
  }, 300_000);
});

for (const page of pages.filter((p) => p !== "README.md")) {
  describe.skipIf(secondBackendRun || !built)(`${page} examples${why}`, () => {
    const commands = readmeCommands(readFileSync(join(root, page), "utf8"));
    const index = page.endsWith("/README.md");
    it.skipIf(index)(
      "has runnable examples, and every one that can run here exits 0",
      async () => {
        expect(commands.length, `${page}: a guide page shows what to type (sh blocks with varmap commands)`).toBeGreaterThan(0);
        const { ran } = await runPage(page, commands);
        expect(ran.length, `${page}: at least one example runs here`).toBeGreaterThan(0);
      },
      300_000,
    );
  });
}

describe.runIf(secondBackendRun)(`this file${onceReason}`, () => {
  it.skip("skipped on the wasm run", () => {});
});
