// Progress output (issue 15, item 5): no \r off a terminal (synth's counter), and a resumed run's ETA is a time, never
// cli-progress's "NULL" cut to "LL".
import { describe, expect, it, vi } from "vitest";
import { countProgress, stderrProgress } from "../../ts/pool/progress.js";

function sink(isTTY: boolean) {
  const out: string[] = [];
  return { stream: { isTTY, write: (s: string) => out.push(s) }, out };
}

describe("countProgress", () => {
  it("off a terminal: plain lines, at most one per interval plus the last, no \\r", () => {
    const { stream, out } = sink(false);
    let t = 0;
    const c = countProgress("varmap synth", "configurations", stream, 10_000, () => t);
    for (let done = 1; done <= 100; done++) {
      t += 500; // 50 s in all: lines at 0.5 s, then every 10 s, and the last
      c.update(done, 100);
    }
    c.end();
    const text = out.join("");
    expect(text).not.toContain("\r");
    expect(out.every((l) => l.endsWith("\n"))).toBe(true);
    expect(out.length).toBeLessThanOrEqual(7);
    expect(out[out.length - 1]).toBe("varmap synth: 100/100 configurations\n");
  });

  it("off a terminal, stopped part-way: end() prints the last count once", () => {
    const { stream, out } = sink(false);
    const c = countProgress("x", "items", stream, 10_000, () => 0);
    c.update(1, 10);
    c.update(2, 10);
    c.end();
    expect(out).toEqual(["x: 1/10 items\n", "x: 2/10 items\n"]);
  });

  it("on a terminal: one line redrawn with \\r, finished by end()", () => {
    const { stream, out } = sink(true);
    const c = countProgress("x", "items", stream);
    c.update(1, 2);
    c.update(2, 2);
    c.end();
    expect(out).toEqual(["\rx: 1/2 items", "\rx: 2/2 items", "\n"]);
  });
});

describe("stderrProgress ETA on resumed runs", () => {
  for (const [total, done] of [
    [10, 10],
    [10, 9],
    [10, 4],
  ])
    it(`${done} of ${total} tasks already done: no NULL/LL ETA`, () => {
      const writes: string[] = [];
      const spy = vi.spyOn(process.stderr, "write").mockImplementation((s: string | Uint8Array) => (writes.push(String(s)), true));
      try {
        const p = stderrProgress("cv");
        p.start(total, done);
        for (let i = done; i < total; i++) p.tick(1);
        p.stop();
      } finally {
        spy.mockRestore();
      }
      const text = writes.join("");
      expect(text).not.toMatch(/ETA (NULL|LL|INF)|LLs/);
      if (done === total) expect(text).toBe("cv: all 10 tasks already done\n");
      else expect(text).toMatch(/ETA \d/);
    });
});
