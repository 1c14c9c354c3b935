// Tab-separated output: every table an --out path names (writeTable: summarize, predict, fit, mixture, cv
// --predictions, samplesize, gev, ...; the synthetic designs) is written tab-separated when the path ends in .tsv or
// .tab, and reads back cell for cell through the same readers as any input table.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readFileRows } from "../../ts/data/duckdb.js";
import { loadDataset } from "../../ts/data/load.js";
import { writeSynth } from "../../ts/data/synth.js";
import { tableFormat, tsvCell, writeTable } from "../../ts/data/write.js";
import { cliBuilt, cliIn } from "../helpers/cli.js";

const dir = mkdtempSync(join(tmpdir(), "varmap-tsv-out-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("tab-separated output", () => {
  it("the format follows the extension; an unknown one is refused naming .tsv among the choices", () => {
    expect(tableFormat("a.tsv")).toBe("tsv");
    expect(tableFormat("A.TAB")).toBe("tsv");
    expect(tableFormat("a.csv")).toBe("csv");
    expect(() => tableFormat("a.txt", "--out")).toThrow(/end --out in \.csv, \.tsv, \.json or \.parquet/);
  });

  it("cells with tabs, quotes, commas and line breaks read back as written (and as from the .csv); numbers exactly", async () => {
    const names = ["plain", "has,comma", "has\ttab", 'has "quote"', "two\nlines", "last"];
    const values = [0.1 + 0.2, -1.5e-300, 123456789.123, Number.NaN, 7, 1 / 3];
    const columns = [
      { name: "name", values: names },
      { name: "value", values },
      { name: "maybe", values: ["x", null, "y", null, "", "z"] },
    ];
    await writeTable(join(dir, "cells.tsv"), columns);
    await writeTable(join(dir, "cells.csv"), columns);
    const text = readFileSync(join(dir, "cells.tsv"), "utf8");
    expect(text.split("\n")[0]).toBe("name\tvalue\tmaybe");
    expect(text).toContain("has,comma\t"); // a comma needs no quotes in a tab-separated file
    const rows = await readFileRows(join(dir, "cells.tsv"), "the table");
    expect(rows.map((r) => r.name)).toEqual(names);
    expect(rows.map((r) => Number(r.value))).toEqual(values);
    expect(rows).toEqual(await readFileRows(join(dir, "cells.csv"), "the table"));
  });

  it("tsvCell quotes only what a tab-separated reader would split or misread", () => {
    expect(tsvCell("a,b")).toBe("a,b");
    expect(tsvCell("a\tb")).toBe('"a\tb"');
    expect(tsvCell('say "hi"')).toBe('"say ""hi"""');
    expect(tsvCell("")).toBe('""');
    expect(tsvCell(null)).toBe("");
    expect(tsvCell(2.5)).toBe("2.5");
  });

  it("a synthetic design written as .tsv loads as the same dataset as its .csv", async () => {
    const opts = { design: "moana" as const, seed: 3, maps: 1 };
    await writeSynth(join(dir, "s.csv"), opts);
    await writeSynth(join(dir, "s.tsv"), { ...opts, workers: 2 });
    expect(readFileSync(join(dir, "s.tsv"), "utf8").split("\n", 1)[0].split("\t")).toContain("throughput_kbps");
    const a = (await loadDataset(join(dir, "s.csv"), { preset: "moana" })).table;
    const b = (await loadDataset(join(dir, "s.tsv"), { preset: "moana" })).table;
    expect(b.count).toBe(a.count);
    expect(Array.from(b.runs)).toEqual(Array.from(a.runs));
  });
});

describe.skipIf(!cliBuilt)(`--out x.tsv through the CLI${cliBuilt ? "" : " — dist/ts/cli/main.js missing: run npm run build"}`, () => {
  const varmap = cliIn(dir, { VARMAP_QUIET: "1" });
  it("summarize, fit and predict write tab-separated tables that the next verb reads", async () => {
    const runs = join(dir, "runs.tsv");
    const lines = ["host\tfreq\tthreads\trun\ttput"];
    for (const host of ["a", "b"])
      for (const f of [1, 2, 3])
        for (const t of [1, 2, 4, 8]) for (let r = 0; r < 3; r++) lines.push(`${host}\t${f}\t${t}\t${r}\t${100 + 7 * f * t + (r * r * t) / 3}`);
    const { writeFileSync } = await import("node:fs");
    writeFileSync(runs, lines.join("\n") + "\n");
    const cols = ["--factors", "host", "--inputs", "freq,threads", "--response", "tput", "--run", "run"];
    const sum = varmap("summarize", runs, ...cols, "--out", "configs.tsv");
    expect(sum.code, sum.err).toBe(0);
    const configs = await readFileRows(join(dir, "configs.tsv"), "configurations");
    expect(configs).toHaveLength(24);
    expect(Object.keys(configs[0]).slice(0, 4)).toEqual(["host", "freq", "threads", "n"]);
    const fit = varmap("fit", runs, ...cols, "--method", "lr", "--out", "models.json");
    expect(fit.code, fit.err).toBe(0);
    const pred = varmap("predict", "models.json", "--at", "configs.tsv", "--out", "pred.tab");
    expect(pred.code, pred.err).toBe(0);
    const out = await readFileRows(join(dir, "pred.tab"), "predictions");
    expect(out).toHaveLength(24);
    expect(out.every((r) => Number.isFinite(Number(r.prediction)))).toBe(true);
    const bad = varmap("summarize", runs, ...cols, "--out", "configs.txt");
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/\.csv, \.tsv, \.json or \.parquet/);
  });
});
