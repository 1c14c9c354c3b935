// `plan --exec --result <tool>:<selector>` reads a run's number through the benchmark tools' parsers (issues 42, 43).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ResultUnreadable, resultReader, resultReaderKinds } from "../../ts/plan/results.js";
import { TOOL_NAMES } from "../../ts/import/registry.js";
import { packageRoot } from "../../ts/package-root.js";

const fio = readFileSync(join(packageRoot(), "test", "fixtures", "import", "fio", "run1.json"), "utf8");
const out = (stdout: string) => ({ stdout, stderr: "", status: 0 });

describe("plan --result <tool>:<selector>", () => {
  it("offers every importer as a result reader", () => {
    const kinds = resultReaderKinds().map((k) => k.kind);
    for (const t of TOOL_NAMES) expect(kinds).toContain(t);
  });
  it("reads fio's JSON by path, the same number as a plain JSON path", () => {
    const want = JSON.parse(fio).jobs[0].read.bw_bytes as number;
    expect(want).toBeGreaterThan(0);
    expect(resultReader("fio:jobs[0].read.bw_bytes")(out(fio))).toBe(want);
    expect(resultReader("json:jobs.0.read.bw_bytes")(out(fio))).toBe(want);
  });
  it("a selector with no value, or output that is not the tool's, is an unreadable run (recorded as failed)", () => {
    expect(() => resultReader("fio:jobs[0].read.nothing")(out(fio))).toThrow(ResultUnreadable);
    expect(() => resultReader("fio:jobs[0].read.bw_bytes")(out("12.5\n"))).toThrow(ResultUnreadable);
  });
  it("a tool without a selector is a usage error before anything runs", () => {
    expect(() => resultReader("fio")).toThrow(/needs a selector/);
  });
});
