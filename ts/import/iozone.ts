// IOzone reports: the Excel tables of `iozone -a -R` ("Writer report", a header of record sizes, one row per file
// size, throughput in kB/s) or, without -R, the automatic mode's text table (kB, reclen, then one column per test).
// Each file is one run of every (test, file size, record size). Columns match the `iozone` preset of the papers'
// data (test, fsize_kb, rsize_kb, throughput_kbps). Built from IOzone's documentation and public parsers of its
// output; no IOzone output was made on this machine.
import { VarmapError } from "../errors.js";
import type { ToolParser, ToolRun } from "./types.js";

const PRODUCE = "iozone -a -R > FILE";

/** The automatic mode's columns after kB and reclen, in IOzone's order. */
const AUTO_TESTS = [
  "write",
  "rewrite",
  "read",
  "reread",
  "random read",
  "random write",
  "bkwd read",
  "record rewrite",
  "stride read",
  "fwrite",
  "frewrite",
  "fread",
  "freread",
];

/** "Re-writer report" → "re-writer". */
function testName(title: string): string {
  return title.replace(/\s*report\s*$/i, "").toLowerCase();
}

export const iozone: ToolParser = {
  name: "iozone",
  preset: "iozone-runs",
  description: "IOzone reports (-a with -R Excel tables, or the text table): one row per test, file size and record size",
  produce: PRODUCE,
  files: /\.(txt|out|log|xls|iozone)$/i,
  vocabulary: { response: "throughput_kbps", responses: /^throughput_kbps$/, meta: /^file$/, factors: /^(test|host|date)$/ },
  sniff: (text) => /iozone/i.test(text.slice(0, 4000)) || /"Writer report"/.test(text),
  parse(text, file) {
    const lines = text.split(/\r?\n/);
    const runs: ToolRun[] = [];
    const fail = (line: number, what: string): never => {
      throw new VarmapError("E_IMPORT_FORMAT", what, { location: { file, row: line + 1 }, remedy: `give IOzone output written with ${PRODUCE}` });
    };
    const push = (test: string, fsize: number, rsize: number, v: number) =>
      runs.push({ settings: { test, fsize_kb: fsize, rsize_kb: rsize }, metrics: { throughput_kbps: v } });
    const excel = lines.findIndex((l) => /^\s*"[^"]+ report"\s*$/i.test(l));
    if (excel >= 0) {
      let i = excel;
      while (i < lines.length) {
        const title = /^\s*"([^"]+ report)"\s*$/i.exec(lines[i]);
        if (!title) {
          i++;
          continue;
        }
        const test = testName(title[1]);
        i++;
        while (i < lines.length && !lines[i].trim()) i++;
        const header = [...(lines[i] ?? "").matchAll(/"([^"]*)"/g)].map((m) => Number(m[1]));
        if (!header.length || header.some((x) => !Number.isFinite(x))) fail(i, `the "${title[1]}" table has no header of record sizes`);
        i++;
        for (; i < lines.length; i++) {
          const row = /^\s*"(\d+)"\s+(.*)$/.exec(lines[i]);
          if (!row) break;
          const values = row[2].trim().split(/\s+/).map(Number);
          if (values.length > header.length || values.some((v) => !Number.isFinite(v))) fail(i, `a row of the "${title[1]}" table does not match its header`);
          values.forEach((v, k) => push(test, Number(row[1]), header[k], v));
        }
      }
    } else {
      const h = lines.findIndex((l) => /^\s*kB\s+reclen\s+write/.test(l));
      if (h < 0) fail(0, "neither -R Excel tables nor the automatic mode's table (a line 'kB reclen write ...') found");
      for (let i = h + 1; i < lines.length; i++) {
        const t = lines[i].trim();
        if (!t) continue;
        if (!/^\d/.test(t)) break;
        const v = t.split(/\s+/).map(Number);
        if (v.some((x) => !Number.isFinite(x)) || v.length < 3) fail(i, "a row of the automatic mode's table is not numbers");
        v.slice(2).forEach((x, k) => {
          if (k < AUTO_TESTS.length) push(AUTO_TESTS[k], v[0], v[1], x);
        });
      }
    }
    if (!runs.length) fail(0, "no IOzone results in the file");
    return runs;
  },
};
