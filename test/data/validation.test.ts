// Each bad input of issue #3: a VarmapError with code, file, row (header = 1) and column, exit code 2 through
// the CLI, and no output file left behind.
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadDataset, type LoadOptions } from "../../ts/data/load.js";
import { VarmapError } from "../../ts/errors.js";
import { writeTable } from "../../ts/data/write.js";
import { packageRoot } from "../../ts/package-root.js";
import { main } from "../../ts/cli/program.js";

const cli = join(packageRoot(), "dist", "ts", "cli", "main.js");
const hasCli = existsSync(cli);
const dir = mkdtempSync(join(tmpdir(), "varmap-bad-"));
const ROLES: LoadOptions = { factors: ["g"], inputs: ["x", "z"], run: "run", response: "y" };
const FLAGS = ["--factors", "g", "--inputs", "x,z", "--run", "run", "--response", "y"];
const good = ["g,x,z,run,y", "a,1,5,1,10", "a,1,5,2,11", "a,2,6,1,12", "a,2,6,2,14", "b,1,5,1,3", "b,1,5,2,4"];
const edit = (row: number, line: string) => good.map((l, i) => (i + 1 === row ? line : l)).join("\n") + "\n";

interface Case {
  name: string;
  text: string;
  opts?: LoadOptions;
  flags?: string[];
  code: string;
  row?: number;
  column?: string;
}

const cases: Case[] = [
  { name: "missing column", text: good.map((l) => l.split(",").slice(0, 4).join(",")).join("\n"), code: "E_MISSING_COLUMN", row: 1, column: "y" },
  { name: "non-numeric input", text: edit(4, "a,two,6,1,12"), code: "E_NON_NUMERIC", row: 4, column: "x" },
  { name: "empty input", text: edit(5, "a,2,,2,14"), code: "E_NON_NUMERIC", row: 5, column: "z" },
  { name: "non-numeric run index", text: edit(3, "a,1,5,second,11"), code: "E_NON_NUMERIC", row: 3, column: "run" },
  { name: "empty response", text: edit(3, "a,1,5,2,"), code: "E_BAD_RESPONSE", row: 3, column: "y" },
  { name: "NaN response", text: edit(6, "b,1,5,1,NaN"), code: "E_BAD_RESPONSE", row: 6, column: "y" },
  { name: "infinite response", text: edit(7, "b,1,5,2,inf"), code: "E_BAD_RESPONSE", row: 7, column: "y" },
  { name: "non-numeric response", text: edit(2, "a,1,5,1,fast"), code: "E_BAD_RESPONSE", row: 2, column: "y" },
  {
    name: "non-positive response under --log-response",
    text: edit(6, "b,1,5,1,0"),
    opts: { logResponse: true },
    flags: ["--log-response"],
    code: "E_NONPOSITIVE_RESPONSE",
    row: 6,
    column: "y",
  },
  {
    name: "non-positive input under --log-inputs",
    text: edit(2, "a,1,0,1,10").replace("a,1,5,2,11", "a,1,0,2,11"),
    opts: { logInputs: ["z"] },
    flags: ["--log-inputs", "z"],
    code: "E_NONPOSITIVE_INPUT",
    row: 2,
    column: "z",
  },
  { name: "duplicate run index", text: edit(5, "a,2,6,1,14"), code: "E_DUPLICATE_RUN", row: 5, column: "run" },
  { name: "every configuration has one run", text: ["g,x,z,run,y", "a,1,5,1,10", "a,2,6,1,12"].join("\n"), code: "E_TOO_FEW_RUNS", row: 2 },
  { name: "empty file", text: "", code: "E_EMPTY_FILE", row: 1 },
  { name: "header only", text: "g,x,z,run,y\n", code: "E_EMPTY_FILE", row: 2 },
  { name: "empty selection", text: good.join("\n"), opts: { where: "x > 100" }, flags: ["--where", "x > 100"], code: "E_EMPTY_SELECTION" },
  { name: "invalid --where", text: good.join("\n"), opts: { where: "nosuchcol > 1" }, flags: ["--where", "nosuchcol > 1"], code: "E_BAD_WHERE" },
  { name: "ragged CSV row", text: edit(4, "a,2,6,1,12,99,100"), code: "E_BAD_CSV", row: 4 },
  // Issue 14: empty factor values, file lines after blank lines, DuckDB's located-nowhere parser failures, --where.
  { name: "empty factor value", text: edit(3, ",1,5,2,11"), code: "E_EMPTY_FACTOR", row: 3, column: "g" },
  {
    name: "bad value after blank lines",
    text: [...good.slice(0, 3), "", "", ...good.slice(3, 5), "a,2,6,3,slow", ...good.slice(5)].join("\n"),
    code: "E_BAD_RESPONSE",
    row: 8,
    column: "y",
  },
  {
    name: "infinite value after blank lines",
    text: [...good.slice(0, 3), "", ...good.slice(3), "", "b,1,5,3,inf"].join("\n") + "\n",
    code: "E_BAD_RESPONSE",
    row: 10,
    column: "y",
  },
  {
    name: "duplicate run after a blank line",
    text: [...good.slice(0, 4), "", "a,2,6,1,14", ...good.slice(5)].join("\n"),
    code: "E_DUPLICATE_RUN",
    row: 6,
    column: "run",
  },
  {
    name: "duplicate run, runs out of file order",
    text: [good[0], "a,1,5,2,10", "a,1,5,1,11", "a,1,5,2,12", ...good.slice(3)].join("\n"),
    code: "E_DUPLICATE_RUN",
    row: 4,
    column: "run",
  },
  { name: "too few runs after blank lines", text: "g,x,z,run,y\n\n\na,1,5,1,10\na,2,6,1,12\n", code: "E_TOO_FEW_RUNS", row: 4 },
  { name: "mixed line endings, bad last row", text: good.join("\r\n") + "\r\nb,1,5,3,abc\n", code: "E_BAD_CSV", row: 8 },
  {
    name: "--where reading another file",
    text: good.join("\n"),
    opts: { where: "(SELECT count(*) FROM read_text('/etc/hostname')) > 0" },
    flags: ["--where", "(SELECT count(*) FROM read_text('/etc/hostname')) > 0"],
    code: "E_BAD_WHERE",
  },
];

describe("bad input (library)", () => {
  it.each(cases)("$name → $code", async (c) => {
    const file = join(dir, `lib-${c.name.replaceAll(/\W+/g, "_")}.csv`);
    writeFileSync(file, c.text);
    const err = await loadDataset(file, { ...ROLES, ...c.opts }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(VarmapError);
    const e = err as VarmapError;
    expect(e.code).toBe(c.code);
    expect(e.location.file).toBe(file);
    if (c.row !== undefined) {
      expect(e.location.row).toBe(c.row);
      expect(e.message).toContain(`row ${c.row}`);
    }
    if (c.column !== undefined) {
      expect(e.location.column).toBe(c.column);
      expect(e.message).toContain(`column '${c.column}'`);
    }
    expect(e.remedy.length).toBeGreaterThan(0);
  });

  it("a Parquet input with a non-numeric input names its row and column", async () => {
    const file = join(dir, "bad.parquet");
    await writeTable(file, [
      { name: "g", values: ["a", "a", "a"] },
      { name: "x", values: ["1", "2", "x3"], type: "string" },
      { name: "z", values: [1, 1, 1] },
      { name: "run", values: [1, 2, 3] },
      { name: "y", values: [1, 2, 3] },
    ]);
    const e = (await loadDataset(file, ROLES).catch((err: unknown) => err)) as VarmapError;
    expect(e.code).toBe("E_NON_NUMERIC");
    expect(e.location).toMatchObject({ row: 4, column: "x" });
    expect(e.message).toContain("'x3'");
  });

  it("configurations with too few runs are dropped and counted, not fatal", async () => {
    const file = join(dir, "few.csv");
    writeFileSync(file, [...good, "c,9,9,1,5"].join("\n"));
    const notes: string[] = [];
    const d = await loadDataset(file, { ...ROLES, note: (m) => notes.push(m) });
    expect(d.dropped).toBe(1);
    expect(d.table.count).toBe(3);
    expect(notes.join("\n")).toMatch(/1 configuration\(s\) with fewer than 2 runs dropped/);
    const all = await loadDataset(file, { ...ROLES, stat: "mean" });
    expect(all.table.count).toBe(4);
  });

  it("a map table with two rows for one configuration is rejected", async () => {
    const file = join(dir, "map.csv");
    writeFileSync(file, "id,x,sd\n0,1,2\n1,2,3\n2,1,4\n");
    const e = (await loadDataset(file, { map: true, inputs: ["x"], id: "id" }).catch((err: unknown) => err)) as VarmapError;
    expect(e.code).toBe("E_DUPLICATE_CONFIGURATION");
    expect(e.location.row).toBe(2);
  });
});

/** Runs the `varmap` entry point in this process (the binary is `main()` plus process.exitCode = its result). */
async function runMain(args: string[]): Promise<{ status: number; stderr: string }> {
  const write = process.stderr.write.bind(process.stderr);
  let stderr = "";
  process.stderr.write = ((chunk: string | Uint8Array) => {
    stderr += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
    return true;
  }) as typeof process.stderr.write;
  try {
    return { status: await main(args), stderr };
  } finally {
    process.stderr.write = write;
  }
}

describe("bad input (CLI entry point)", () => {
  it.each(cases)("$name: exit code 2, message names row and column, no output file", async (c) => {
    const sub = mkdtempSync(join(dir, "cli-"));
    const file = join(sub, "in.csv");
    writeFileSync(file, c.text);
    const out = join(sub, "out.csv");
    const r = await runMain(["summarize", file, ...FLAGS, ...(c.flags ?? []), "--out", out]);
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toContain(`[${c.code}]`);
    if (c.row !== undefined) expect(r.stderr).toContain(`row ${c.row}`);
    if (c.column !== undefined) expect(r.stderr).toContain(`column '${c.column}'`);
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(sub)).toEqual(["in.csv"]); // no temporary left behind either
  });
});

describe.skipIf(!hasCli)(`the varmap binary (${hasCli ? "dist built" : "run npm run build first"})`, () => {
  it("bad input exits with code 2 and leaves no output; a good file exits 0 and writes the table", () => {
    const sub = mkdtempSync(join(dir, "bin-"));
    const bad = join(sub, "bad.csv");
    writeFileSync(bad, edit(4, "a,two,6,1,12"));
    const out = join(sub, "out.csv");
    const r = spawnSync(process.execPath, [cli, "summarize", bad, ...FLAGS, "--out", out], { encoding: "utf8" });
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toContain("row 4, column 'x'");
    expect(existsSync(out)).toBe(false);
    const file = join(sub, "in.csv");
    writeFileSync(file, good.join("\n"));
    const r2 = spawnSync(process.execPath, [cli, "summarize", file, ...FLAGS, "--out", out], { encoding: "utf8" });
    expect(r2.status, r2.stderr).toBe(0);
    expect(readdirSync(sub).sort()).toEqual(["bad.csv", "in.csv", "out.csv"]);
  });
});

describe("statistics of extreme values", () => {
  it("gives the right mean and sd for runs near 1e307 and near 1e-310 (scaled sums), Infinity only for the unrepresentable variance", async () => {
    const { configStats } = await import("../../ts/data/stats.js");
    for (const scale of [1e307, 1e-300, 1]) {
      const runs = Float64Array.from([1, 2, 3, 4], (v) => v * scale);
      const st = configStats({ count: 1, runs, offsets: Int32Array.from([0, 4]) });
      expect(Math.abs(st.mean[0] / (2.5 * scale) - 1)).toBeLessThan(1e-15);
      expect(Math.abs(st.sd[0] / (Math.sqrt(5 / 3) * scale) - 1)).toBeLessThan(1e-15);
      if (scale === 1) expect(st.var[0]).toBe(5 / 3);
    }
    const tiny = configStats({ count: 1, runs: Float64Array.from([1e-310, 2e-310, 3e-310]), offsets: Int32Array.from([0, 3]) });
    expect(tiny.sd[0]).toBeGreaterThan(0);
    expect(Math.abs(tiny.sd[0] / 1e-310 - 1)).toBeLessThan(1e-3); // subnormal inputs carry only ~13 bits here
  });
});
