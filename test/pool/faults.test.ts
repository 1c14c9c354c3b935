// Nothing lost: the result store keeps non-finite values, drops damaged or edited lines (checksums), refuses a
// damaged manifest, clears dead writers' temporaries; a full disk (injected with VARMAP_TEST_FAULTS) exits 2
// with no output, short writes change nothing, and a job cut off by a full disk resumes to the same outputs.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { environmentError } from "../../ts/cli/program.js";
import { packageRoot } from "../../ts/package-root.js";
import { parseRecordLine, readRecords, recordLine, ResultStore } from "../../ts/pool/store.js";
import { isVarmapError } from "../../ts/errors.js";
import { G_X_ROLES } from "../helpers/runs.js";

const tmp = (): string => mkdtempSync(join(tmpdir(), "varmap-faults-"));
const cli = join(packageRoot(), "dist", "ts", "cli", "main.js");
const varmap = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, [cli, ...args], { encoding: "utf8", env: { ...process.env, ...env } });

function outputs(dir: string): Record<string, string> {
  const o: Record<string, string> = {};
  for (const f of readdirSync(dir).sort()) if (f !== "run-log.json") o[f] = readFileSync(join(dir, f), "utf8");
  return o;
}

describe("result store records", () => {
  it("keeps NaN and ±Infinity through the journal and results.jsonl (JSON alone would make them null)", () => {
    const dir = tmp();
    const manifest = { verb: "test" };
    const s = new ResultStore(dir, manifest, { resume: true, outputs: [] });
    s.append([{ id: "a", result: { are: [NaN, Infinity, -Infinity, 0.5, null] } }]);
    s.close();
    const again = new ResultStore(dir, manifest, { resume: true, outputs: [] });
    expect(again.done.get("a")).toEqual({ are: [NaN, Infinity, -Infinity, 0.5, null] });
    again.finalize(["a"]);
    expect(readRecords(join(dir, "results.jsonl"))[0].result).toEqual({ are: [NaN, Infinity, -Infinity, 0.5, null] });
  });

  it("drops a line whose checksum does not match, even when it is valid JSON", () => {
    const line = recordLine({ id: "cv/0/lr/0/0", result: { are: [0.25, 0.5] } });
    expect(parseRecordLine(line)).toEqual({ id: "cv/0/lr/0/0", result: { are: [0.25, 0.5] } });
    expect(parseRecordLine(line.replace("0.25", "0.26"))).toBeUndefined();
    expect(parseRecordLine(JSON.stringify({ id: "x", result: 1 }))).toBeUndefined(); // no checksum: not trusted
    expect(parseRecordLine(line.slice(0, -5))).toBeUndefined();
  });

  it("refuses to resume into a directory whose manifest is damaged; --no-resume starts over", () => {
    const dir = tmp();
    new ResultStore(dir, { verb: "x" }, { resume: true, outputs: [] }).close();
    writeFileSync(join(dir, "manifest.json"), "{ damaged");
    let code = "";
    try {
      new ResultStore(dir, { verb: "x" }, { resume: true, outputs: [] });
    } catch (e) {
      code = isVarmapError(e) ? e.code : String(e);
    }
    expect(code).toBe("E_OUT_DAMAGED");
    expect(() => new ResultStore(dir, { verb: "x" }, { resume: false, outputs: [] }).close()).not.toThrow();
  });

  it("removes the temporaries of writers that are no longer running, and only those", () => {
    const dir = tmp();
    const dead = join(dir, ".are.csv.2147483646.tmp");
    const mine = join(dir, `.table2.md.${process.pid}.tmp`);
    const deadTable = join(dir, ".fits.csv.tmp-2147483646-abc123.csv");
    for (const f of [dead, mine, deadTable]) writeFileSync(f, "partial");
    new ResultStore(dir, { verb: "x" }, { resume: true, outputs: [] }).close();
    expect([existsSync(dead), existsSync(mine), existsSync(deadTable)]).toEqual([false, true, false]);
  });
});

describe("file-system errors are the user's, not bugs", () => {
  it("maps EACCES, ENOSPC and ENOENT to coded errors with a remedy", () => {
    const mk = (code: string) => Object.assign(new Error(code), { code, syscall: "open", path: "/x/y.csv" });
    expect(environmentError(mk("EACCES"))?.code).toBe("E_PERMISSION");
    expect(environmentError(mk("ENOSPC"))?.code).toBe("E_DISK_FULL");
    expect(environmentError(mk("ENOENT"))?.message).toMatch(/\/x\/y\.csv.*How to fix/);
    expect(environmentError(new Error("plain"))).toBeUndefined();
  });
});

describe.skipIf(!existsSync(cli))("a full disk through the CLI (VARMAP_TEST_FAULTS)", () => {
  const data = (dir: string): string => {
    const lines = ["g,x,run,y"];
    for (let c = 0; c < 60; c++) for (let i = 0; i < 12; i++) lines.push(`${c % 3},${c},${i},${(10 + c + ((i * 7919) % 13) / 10).toFixed(2)}`);
    const f = join(dir, "runs.csv");
    writeFileSync(f, lines.join("\n") + "\n");
    return f;
  };

  it("summarize: ENOSPC exits 2 with no output file; short writes give the same bytes", () => {
    const dir = tmp();
    const file = data(dir);
    const args = (out: string) => ["summarize", file, "--factors", "g", "--inputs", "x", "--run", "run", "--response", "y", "--out", out, "--quiet"];
    const full = varmap(args(join(dir, "full.csv")), { VARMAP_TEST_FAULTS: "enospc-after=2000" });
    expect(full.status).toBe(2);
    expect(full.stderr).toMatch(/E_DISK_FULL/);
    expect(full.stderr).not.toMatch(/internal error|at .*\.js:\d+/);
    expect(readdirSync(dir).filter((f) => f.includes("full"))).toEqual([]);
    const plain = varmap(args(join(dir, "plain.csv")));
    const short = varmap(args(join(dir, "short.csv")), { VARMAP_TEST_FAULTS: "short" });
    expect([plain.status, short.status]).toEqual([0, 0]);
    expect(readFileSync(join(dir, "short.csv"), "utf8")).toBe(readFileSync(join(dir, "plain.csv"), "utf8"));
  });

  it("cv: a run stopped by a full disk keeps its journal and resumes to the outputs of an uninterrupted run", () => {
    const dir = tmp();
    const file = data(dir);
    const args = (out: string) => [
      "cv",
      file,
      ...G_X_ROLES,
      "--methods",
      "lr,mean",
      "--p",
      "0.3,0.6",
      "--reps",
      "60",
      "--out",
      out,
      "--workers",
      "0",
      "--quiet",
    ];
    const clean = join(dir, "clean");
    expect(varmap(args(clean)).status).toBe(0);
    const cut = join(dir, "cut");
    const full = varmap(args(cut), { VARMAP_TEST_FAULTS: "enospc-after=3000" });
    expect(full.status).toBe(2);
    expect(full.stderr).toMatch(/E_DISK_FULL/);
    expect(existsSync(join(cut, "are.csv"))).toBe(false);
    expect(readRecords(join(cut, "journal.jsonl")).length).toBeGreaterThan(0);
    const resumed = varmap(args(cut));
    expect(resumed.status, resumed.stderr).toBe(0);
    expect(outputs(cut)).toEqual(outputs(clean));
  });

  it("cv: a fresh run that fails before its first task finished leaves no --out behind (issue 44 item 19b)", () => {
    const dir = tmp();
    const file = data(dir);
    const args = (out: string) => ["cv", file, ...G_X_ROLES, "--methods", "lr", "--p", "0.5", "--reps", "4", "--out", out, "--workers", "0", "--quiet"];
    const clean = join(dir, "clean");
    expect(varmap(args(clean)).status).toBe(0);
    // Room for the manifest and nothing more: the first journal append meets the full disk.
    const room = statSync(join(clean, "manifest.json")).size + 5;
    const cut = join(dir, "cut");
    const full = varmap(args(cut), { VARMAP_TEST_FAULTS: `enospc-after=${room}` });
    expect(full.status).toBe(2);
    expect(full.stderr).toMatch(/E_DISK_FULL/);
    expect(existsSync(cut)).toBe(false);
  });
});
