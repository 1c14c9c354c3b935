// Issue 14: runs read in bounded memory whatever their order in the file; --where confined to the input file;
// control bytes escaped in messages; mixture --kmax above the runs noted.
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../ts/cli/program.js";
import { loadDataset, type LoadOptions } from "../../ts/data/load.js";
import { VarmapError, escapeBinary } from "../../ts/errors.js";

const dir = mkdtempSync(join(tmpdir(), "varmap-robust-"));
const ROLES: LoadOptions = { factors: ["g"], inputs: ["x"], run: "run", response: "y" };

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

describe("runs in any file order", () => {
  it("shuffled rows (run indices decreasing down the file) give the table of the ordered file", async () => {
    const rows: string[] = [];
    for (const g of ["a", "b"])
      for (let x = 1; x <= 3; x++) for (let run = 1; run <= 5; run++) rows.push(`${g},${x},${run},${(x * 10 + run) * (g === "a" ? 1 : 2)}`);
    const ordered = join(dir, "ordered.csv");
    writeFileSync(ordered, ["g,x,run,y", ...rows].join("\n"));
    // A fixed permutation: reversed, then every third row moved to the front.
    const reversed = [...rows].reverse();
    const shuffled = [...reversed.filter((_, i) => i % 3 === 0), ...reversed.filter((_, i) => i % 3 !== 0)];
    const other = join(dir, "shuffled.csv");
    writeFileSync(other, ["g,x,run,y", ...shuffled].join("\n"));
    const a = (await loadDataset(ordered, ROLES)).table;
    const b = (await loadDataset(other, ROLES)).table;
    expect(Array.from(b.runs)).toEqual(Array.from(a.runs));
    expect(Array.from(b.offsets)).toEqual(Array.from(a.offsets));
    expect(Array.from(b.inputs)).toEqual(Array.from(a.inputs));
    // Without a run column the order is the file's.
    const noRun = (await loadDataset(other, { ...ROLES, run: undefined })).table;
    const first = shuffled.filter((r) => r.startsWith("a,1,")).map((r) => Number(r.split(",")[3]));
    expect(Array.from(noRun.runs.subarray(noRun.offsets[0], noRun.offsets[1]))).toEqual(first);
  });

  it("repeated run indices, allowed: kept in (run index, file row) order, with a note", async () => {
    const file = join(dir, "repeat.csv");
    writeFileSync(file, ["g,x,run,y", "a,1,2,20", "a,1,1,10", "a,1,2,21", "a,1,1,11", "b,1,1,5", "b,1,2,6"].join("\n"));
    const notes: string[] = [];
    const t = (await loadDataset(file, { ...ROLES, allowDuplicateRuns: true, note: (m) => notes.push(m) } as LoadOptions)).table;
    expect(Array.from(t.runs.subarray(0, 4))).toEqual([10, 11, 20, 21]);
    expect(notes.join("\n")).toMatch(/1 configuration\(s\) repeat run indices/);
  });
});

describe("--where is confined to the input file", () => {
  it("cannot write files or read others; the table is not written either", async () => {
    const file = join(dir, "in.csv");
    writeFileSync(file, "g,x,run,y\na,1,1,1\na,1,2,2\n");
    const leak = join(dir, "leak.csv");
    for (const where of [
      `(SELECT count(*) FROM read_csv('${file.replace("in.csv", "ordered.csv")}')) > 0`,
      `true) AS k FROM range(1); COPY (SELECT 1) TO '${leak}'; SELECT (true`,
      `(SELECT count(*) FROM read_text('/etc/passwd')) > 0`,
    ]) {
      const out = join(dir, "out.csv");
      const r = await runMain(["summarize", file, "--factors", "g", "--inputs", "x", "--run", "run", "--response", "y", "--where", where, "--out", out]);
      expect(r.status, r.stderr).toBe(2);
      expect(r.stderr).toContain("[E_BAD_WHERE]");
      expect(existsSync(out)).toBe(false);
    }
    expect(existsSync(leak)).toBe(false);
  });
});

describe("messages", () => {
  it("control bytes and undecodable bytes quoted from a file are escaped", () => {
    expect(escapeBinary("a\u0001\u001b[31m\ufffd\tb\né")).toBe("a\\x01\\x1B[31m\\u{FFFD}\tb\né");
    const e = new VarmapError("E_BAD_RESPONSE", "response '\u0007\u0000' is not a number", { location: { file: "f\u001b.csv", row: 2 } });
    expect(e.message).toBe("f\\x1B.csv, row 2: response '\\x07\\x00' is not a number");
  });
  it("a response of binary bytes in a CSV: coded error, escaped in the message", async () => {
    const file = join(dir, "binary.csv");
    writeFileSync(file, Buffer.concat([Buffer.from("g,x,run,y\na,1,1,1\na,1,2,"), Buffer.from([1, 27, 91, 51, 49, 109, 0x7f]), Buffer.from("\n")]));
    const e = (await loadDataset(file, ROLES).catch((err: unknown) => err)) as VarmapError;
    expect(e.code).toBe("E_BAD_RESPONSE");
    expect(e.location.row).toBe(3);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: asserting their absence
    expect(e.message).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
  });
});

describe("mixture --kmax above the runs", () => {
  it("is capped at the most runs of any configuration, with a note", async () => {
    const file = join(dir, "km.csv");
    writeFileSync(file, "f,x,y\na,1,1\na,1,2\na,1,3\nb,2,5\nb,2,6\n");
    const out = join(dir, "km-fits.csv");
    const r = await runMain([
      "mixture",
      file,
      "--factors",
      "f",
      "--inputs",
      "x",
      "--response",
      "y",
      "--kmax",
      "5",
      "--families",
      "normal",
      "--out",
      out,
      "--workers",
      "1",
    ]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/--kmax 5 exceeds the runs of every configuration \(at most 3\): k is capped at 3/);
  });
});
