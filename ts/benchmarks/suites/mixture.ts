// Mixture EM (all six families) on the real IOzone configurations: one batched call per family, k = 1..5.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { FAMILY_CODES, mixtureFit } from "../../backend/kernels/mixture.js";
import type { BenchCase, BenchSuite } from "../runner.js";
import { sharedDir } from "../shared-dir.js";

/** The first `count` configurations of iozone-2018.csv (runs grouped by the key columns), or a synthetic stand-in. */
function configurations(count: number): { runs: Float64Array; offsets: Int32Array } {
  const file = join(sharedDir(), "data", "iozone-2018.csv");
  const groups = new Map<string, number[]>();
  if (existsSync(file)) {
    for (const l of readFileSync(file, "utf8").trim().split(/\r?\n/).slice(1)) {
      const c = l.split(",");
      const key = c.slice(0, 7).join(",");
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key)!.push(Number(c[8]));
    }
  }
  const lists = [...groups.values()].slice(0, count);
  while (lists.length < count) lists.push(Array.from({ length: 150 }, (_, i) => 100 + ((i * 7919) % 97) + (i % 3) * 40));
  const offsets = new Int32Array(count + 1);
  const all: number[] = [];
  lists.forEach((l, i) => {
    all.push(...l);
    offsets[i + 1] = all.length;
  });
  return { runs: Float64Array.from(all), offsets };
}

function familyCase(family: keyof typeof FAMILY_CODES, count: number): BenchCase {
  const { runs, offsets } = configurations(count);
  const models = [1, 2, 3, 4, 5].map((k) => [FAMILY_CODES[family], k] as const);
  return {
    name: `${family} k=1..5, ${count} IOzone configurations`,
    items: count * 5,
    itemName: "fits",
    kernel: (backend) => () => mixtureFit(backend, { runs, offsets, models }),
  };
}

const suite: BenchSuite = {
  kernel: "mixtureFit",
  description: "EM mixtures (spike/core/greedy starts, tie floor) of every configuration's runs, one family per call",
  cases: (["normal", "gamma", "weibull", "lognormal", "loglogistic", "frechet"] as const).map((f) => familyCase(f, 8)),
};
export default suite;
