// Time slices (C.2.5): 90% cut, noise filter, dent depth, serialization.
import { describe, expect, it } from "vitest";
import { analyzeInterference } from "../../ts/interference/analyze.js";
import type { SliceRecord } from "../../ts/interference/types.js";
import { options, records } from "./fixtures.js";

/** Slice rows for one instance: bytes[k] in slice k. */
function trace(experiment: string, app: string, bytes: number[], instance: string | null = null, server?: number[]): SliceRecord[] {
  return bytes.map((b, k) => ({ row: 0, experiment, app, instance, slice: k, bytes: b, serverBytes: server ? server[k] : null }));
}
const repeat = (v: number, n: number) => new Array(n).fill(v);

describe("90% cut", () => {
  // A writes 10 per slice for 10 slices, B 5 per slice for 20; alone A writes 20 × 5, B 10 × 10 (4 s slices).
  const runs = records([
    ["a", "A", null],
    ["b", "B", null],
    ["p", "A", null],
    ["p", "B", null],
  ]);
  const slices = [...trace("a", "A", repeat(20, 5)), ...trace("b", "B", repeat(10, 10)), ...trace("p", "A", repeat(10, 10)), ...trace("p", "B", repeat(5, 20))];
  const res = analyzeInterference(runs, options(), slices);
  const pa = res.pairs.find((p) => p.probe === "A")!;
  const pb = res.pairs.find((p) => p.probe === "B")!;
  it("t₉₀ is the first slice end where either instance reaches 90% of its volume; throughput up to it", () => {
    // pair: A reaches 90 after slice 8 → t₉₀ = 36 s; A 90/36 = 2.5, B 45/36 = 1.25
    expect(pa.bInt).toBe(2.5);
    expect(pb.bInt).toBe(1.25);
    // alone: A reaches 100 ≥ 90 after slice 4 → 100/20 = 5; B reaches 90 after slice 8 → 90/36 = 2.5
    expect(pa.bAlone).toBe(5);
    expect(pb.bAlone).toBe(2.5);
    expect(pa.degradation).toBe(50);
    expect(pb.degradation).toBe(50);
    expect(res.summary.slicedExperiments).toBe(3);
  });
  it("noise filter: server bytes over 1.1 × application bytes drop the execution (E_NO_DATA if none is left)", () => {
    const noisy = [
      ...slices.filter((s) => s.experiment !== "p"),
      ...trace("p", "A", repeat(10, 10), null, repeat(20, 10)),
      ...trace("p", "B", repeat(5, 20), null, repeat(8, 20)),
    ];
    // Σ server = max per slice over the instances: 10·20 + 10·8 = 280 > 1.1 × 200
    expect(() => analyzeInterference(runs, options(), noisy)).toThrow(expect.objectContaining({ code: "E_NO_DATA" }));
    const quiet = [
      ...slices.filter((s) => s.experiment !== "p"),
      ...trace("p", "A", repeat(10, 10), null, repeat(10, 10)),
      ...trace("p", "B", repeat(5, 20), null, repeat(10, 20)),
    ];
    expect(analyzeInterference(runs, options(), quiet).summary.droppedByNoise).toBe(0);
  });
  it("slices of an unknown experiment or instance are E_SLICES_UNMATCHED; half-sliced comparisons E_SLICES_MISSING", () => {
    expect(() => analyzeInterference(runs, options(), [...slices, ...trace("zz", "A", [1])])).toThrow(expect.objectContaining({ code: "E_SLICES_UNMATCHED" }));
    expect(() => analyzeInterference(runs, options(), [...slices, ...trace("p", "C", [1])])).toThrow(expect.objectContaining({ code: "E_SLICES_UNMATCHED" }));
    const valued = records([
      ["a", "A", 5],
      ["b", "B", null],
      ["p", "A", null],
      ["p", "B", null],
    ]);
    expect(() =>
      analyzeInterference(
        valued,
        options(),
        slices.filter((s) => s.experiment !== "a"),
      ),
    ).toThrow(expect.objectContaining({ code: "E_SLICES_MISSING" }));
  });
});

describe("dent depth against a periodic signal", () => {
  it("a square-wave signal (3 slices on, 3 off = the paper's 24 s period) gives the probe's dent exactly", () => {
    const on = (k: number) => k % 6 < 3;
    const signal = Array.from({ length: 24 }, (_, k) => (on(k) ? 50 : 2)); // 2 < 5% of 50: silent
    const probe = Array.from({ length: 24 }, (_, k) => (on(k) ? 30 : 100));
    const runs = records([
      ["a", "P", null],
      ["b", "S", null],
      ["p", "P", null],
      ["p", "S", null],
    ]);
    const slices = [...trace("a", "P", repeat(100, 24)), ...trace("b", "S", repeat(50, 12)), ...trace("p", "P", probe), ...trace("p", "S", signal)];
    const res = analyzeInterference(runs, options(), slices);
    const p = res.pairs.find((x) => x.probe === "P")!;
    expect(Math.abs(p.dent! - 70)).toBeLessThan(1e-12);
    // the signal's own "dent" against the probe: the probe is never silent, so there is none
    expect(res.pairs.find((x) => x.probe === "S")!.dent).toBeNull();
  });
});

describe("serialization", () => {
  it("one instance nearly stops while the other runs at its standalone rate in ≥ 50% of the slices", () => {
    const runs = records([
      ["a", "OWC", null, undefined, "1"],
      ["p", "OWC", null, undefined, "1"],
      ["p", "OWC", null, undefined, "2"],
    ]);
    const slices = [
      ...trace("a", "OWC", repeat(100, 5), "1"),
      ...trace("p", "OWC", [...repeat(100, 5), ...repeat(0, 5)], "1"),
      ...trace("p", "OWC", [...repeat(2, 5), ...repeat(100, 5)], "2"),
    ];
    const res = analyzeInterference(runs, options(), slices);
    expect(res.pairs.map((p) => [p.instance, p.relation, p.serializedShare])).toEqual([
      ["1", "serialized", 1],
      ["2", "serialized", 1],
    ]);
    // self-pairs with slices need --instance to tell the two traces apart
    const anonymous = records([
      ["a", "OWC", null],
      ["p", "OWC", null],
      ["p", "OWC", null],
    ]);
    expect(() =>
      analyzeInterference(
        anonymous,
        options(),
        slices.map((s) => ({ ...s, instance: null })),
      ),
    ).toThrow(expect.objectContaining({ code: "E_USAGE" }));
  });

  // Issue 44 item 3: a periodic signal's idle phases are not serialization.
  describe("against a periodic signal (3 slices on, 3 off, also on its own)", () => {
    const on = (k: number) => k % 6 < 3;
    const runs = records([
      ["a", "P", null],
      ["b", "S", null],
      ["p", "P", null],
      ["p", "S", null],
    ]);
    const alone = [
      ...trace("a", "P", repeat(100, 24)),
      ...trace(
        "b",
        "S",
        Array.from({ length: 24 }, (_, k) => (on(k) ? 50 : 0)),
      ),
    ];
    // P runs beside S (S writes 50 in its on slices, idles otherwise); P's rate while S writes is given, 100 otherwise.
    const paired = (probeWhileOn: number) => [
      ...alone,
      ...trace(
        "p",
        "P",
        Array.from({ length: 24 }, (_, k) => (on(k) ? probeWhileOn : 100)),
      ),
      ...trace(
        "p",
        "S",
        Array.from({ length: 24 }, (_, k) => (on(k) ? 50 : 0)),
      ),
    ];
    it("a probe dented while the signal writes and at full speed while it idles is not serialized", () => {
      const slices = paired(30);
      const res = analyzeInterference(runs, options(), slices);
      for (const p of res.pairs) {
        expect(p.serializedShare).toBe(0);
        expect(p.relation).not.toBe("serialized");
      }
    });
    it("a probe stopped whenever the signal writes is serialized behind it (its own stalls count)", () => {
      const slices = paired(0);
      const res = analyzeInterference(runs, options(), slices);
      // 12 of 24 overlapping slices: P quiet while S writes at its rate; S's 12 idle slices are its standalone share
      for (const p of res.pairs) {
        expect(p.serializedShare).toBe(0.5);
        expect(p.relation).toBe("serialized");
      }
    });
  });
});
