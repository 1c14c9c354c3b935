// --log-inputs auto / --log-response auto: the documented rules on a small table and on the real fread runs.
import { describe, expect, it } from "vitest";
import { autoLogInputs, autoLogResponse, AUTO_LOG_INPUT_SPAN } from "../../ts/data/auto-transforms.js";
import { loadDataset, optionsFromCli } from "../../ts/data/load.js";
import type { ConfigTable } from "../../ts/data/types.js";
import { expectCode } from "../predict/conformance.js";
import { dataPath, hasShared, sharedSkipReason } from "../helpers/shared.js";

function table(columns: Record<string, number[]>): ConfigTable {
  const names = Object.keys(columns);
  const count = columns[names[0]].length;
  const inputs = new Float64Array(count * names.length);
  names.forEach((c, j) => columns[c].forEach((v, i) => (inputs[i * names.length + j] = v)));
  return {
    source: "t.csv",
    roles: { factors: [], inputs: names, response: "y" },
    count,
    factorValues: [],
    inputs,
    runs: new Float64Array(count),
    offsets: Int32Array.from({ length: count + 1 }, (_, i) => i),
  };
}

describe("automatic transforms", () => {
  it("logs powers of two (3+ levels) and spans above 2×; keeps other, non-positive and two-level columns linear", () => {
    const t = table({
      threads: [1, 2, 4, 8, 16],
      twoLevels: [2, 4, 2, 4, 2],
      freq: [1.2e6, 1.6e6, 2.0e6, 2.4e6, 3.0e6],
      narrow: [1, 1.5, 1.9, 1.2, 2],
      temperature: [300, 310, 320, 330, 340],
      withZero: [0, 1, 64, 256, 1024],
    });
    const picked = autoLogInputs(t);
    expect(picked.map((p) => p.name)).toEqual(["threads", "freq"]);
    expect(picked[1].reason).toMatch(new RegExp(`> ${AUTO_LOG_INPUT_SPAN}`));
    expect(autoLogResponse([Float64Array.from([1, 2]), Float64Array.from([0.5])])).toBe(true);
    expect(autoLogResponse([Float64Array.from([1, 0])])).toBe(false);
  });

  it("--log-response takes no value or auto", () => {
    expect(optionsFromCli({ logResponse: "auto" }).logResponse).toBe("auto");
    expect(optionsFromCli({ logResponse: true }).logResponse).toBe(true);
    expectCode(() => optionsFromCli({ logResponse: "data.csv" }), "E_USAGE");
  });

  it.skipIf(!hasShared)(
    `fread runs: auto picks freq_khz, threads, fsize_kb, rsize_kb and a log response${hasShared ? "" : " — " + sharedSkipReason}`,
    async () => {
      const ds = await loadDataset(dataPath("moana-cfq-noop-fread.csv"), { preset: "moana", logInputs: ["auto"], logResponse: "auto" });
      expect(ds.resolved).toEqual({ logInputs: ["freq_khz", "threads", "fsize_kb", "rsize_kb"], logResponse: true });
      const explicit = await loadDataset(dataPath("moana-cfq-noop-fread.csv"), {
        preset: "moana",
        logInputs: ["freq_khz", "threads", "fsize_kb", "rsize_kb"],
        logResponse: true,
      });
      expect(ds.maps[0].normalization).toEqual(explicit.maps[0].normalization);
    },
  );
});
