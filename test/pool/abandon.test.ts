// Issue 44 item 19b: a job that fails before any task finished leaves its --out directory as it found it.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ResultStore } from "../../ts/pool/store.js";

const root = mkdtempSync(join(tmpdir(), "varmap-abandon-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("ResultStore.abandon", () => {
  it("removes the directory it created when nothing was computed", () => {
    const dir = join(root, "fresh");
    const s = new ResultStore(dir, { verb: "x" }, { resume: true, outputs: [] });
    expect(existsSync(join(dir, "manifest.json"))).toBe(true);
    s.abandon();
    expect(existsSync(dir)).toBe(false);
  });

  it("keeps a directory that existed, without the manifest it wrote", () => {
    const dir = join(root, "existing");
    mkdirSync(dir);
    writeFileSync(join(dir, "notes.txt"), "mine\n");
    const s = new ResultStore(dir, { verb: "x" }, { resume: true, outputs: [] });
    s.abandon();
    expect(readdirSync(dir)).toEqual(["notes.txt"]);
  });

  it("keeps the manifest and journal once a task finished (a resume continues)", () => {
    const dir = join(root, "partial");
    const s = new ResultStore(dir, { verb: "x" }, { resume: true, outputs: [] });
    s.append([{ id: "t1", result: 1 }]);
    s.abandon();
    s.release();
    expect(existsSync(join(dir, "manifest.json"))).toBe(true);
    expect(new ResultStore(dir, { verb: "x" }, { resume: true, outputs: [] }).done.get("t1")).toBe(1);
  });

  it("keeps a resumed job's manifest", () => {
    const dir = join(root, "resumed");
    new ResultStore(dir, { verb: "x" }, { resume: true, outputs: [] }).release();
    const s = new ResultStore(dir, { verb: "x" }, { resume: true, outputs: [] });
    s.abandon();
    expect(existsSync(join(dir, "manifest.json"))).toBe(true);
  });
});
