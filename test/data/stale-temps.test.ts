// Issue 44 item 19a: temporaries a killed (kill -9) process left are removed by the next run that writes there.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ownedTempDir, writeAtomic, writeFileAtomic } from "../../ts/data/atomic.js";

const root = mkdtempSync(join(tmpdir(), "varmap-stale-test-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
/** The id of a process that has exited. */
const deadPid = spawnSync(process.execPath, ["-e", ""]).pid!;

describe("stale temporaries", () => {
  it("writeFileAtomic and writeAtomic remove their target's temporaries whose writer is gone, and keep live ones", async () => {
    const out = join(root, "table.csv");
    const stale = join(root, `.table.csv.tmp-${deadPid}-ab12cd`);
    const staleExt = join(root, `.table.csv.tmp-${deadPid}-ef34gh.parquet`);
    const live = join(root, `.table.csv.tmp-${process.pid}-zz99yy`);
    const other = join(root, `.other.csv.tmp-${deadPid}-ab12cd`);
    for (const f of [stale, staleExt, live, other]) writeFileSync(f, "partial");
    writeFileAtomic(out, "a\n1\n");
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(staleExt)).toBe(false);
    expect(existsSync(live)).toBe(true);
    expect(existsSync(other)).toBe(true);
    writeFileSync(stale, "partial");
    await writeAtomic(out, (tmp) => writeFileSync(tmp, "a\n2\n"));
    expect(existsSync(stale)).toBe(false);
  });

  it("ownedTempDir names its directory by the process and removes a dead process's", () => {
    const old = join(tmpdir(), `varmap-stalekind-${deadPid}-Ab12Cd`);
    mkdirSync(join(old, "spill"), { recursive: true });
    const mine = ownedTempDir("stalekind");
    try {
      expect(mine).toContain(`varmap-stalekind-${process.pid}-`);
      expect(existsSync(old)).toBe(false);
      expect(readdirSync(mine)).toEqual([]);
    } finally {
      rmSync(mine, { recursive: true, force: true });
    }
  });
});

// Issue 44 item 19e: a full disk met by a write that has no path of its own (writeSync on a descriptor, fsync,
// DuckDB's COPY) is E_DISK_FULL naming the file being written.
describe("E_DISK_FULL names the path", () => {
  it.each([
    ["Node's writeSync", Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC", syscall: "write" })],
    ["DuckDB's COPY", new Error('IO Error: Could not write file "/tmp/x": No space left on device')],
  ])("%s", async (_what, cause) => {
    const out = join(root, "full.csv");
    const err = await writeAtomic(out, () => {
      throw cause;
    }).catch((e) => e);
    expect(err.code).toBe("E_DISK_FULL");
    expect(err.message).toContain(out);
    expect(readdirSync(root).filter((n) => n.startsWith(".full.csv"))).toEqual([]);
  });

  it("other errors pass unchanged", async () => {
    const cause = new Error("boom");
    await expect(writeAtomic(join(root, "x.csv"), () => Promise.reject(cause))).rejects.toBe(cause);
  });
});
