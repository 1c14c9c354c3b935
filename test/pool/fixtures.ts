// Small in-memory maps for the pool tests: a smooth function of 3 inputs on a grid, positive, with mild noise.
import type { VariabilityMap } from "../../ts/data/types.js";
import { rng } from "../helpers/backends.js";

export function gridMaps(count: number, side = 5, seed = 7): VariabilityMap[] {
  const r = rng(seed);
  const maps: VariabilityMap[] = [];
  for (let m = 0; m < count; m++) {
    const rows = side * side * side;
    const X = new Float64Array(rows * 3);
    const U = new Float64Array(rows * 3);
    const y = new Float64Array(rows);
    let i = 0;
    for (let a = 0; a < side; a++)
      for (let b = 0; b < side; b++)
        for (let c = 0; c < side; c++, i++) {
          const u = [a / (side - 1), b / (side - 1), c / (side - 1)];
          X.set([1000 + 250 * a, 2 ** b, 64 * (c + 1)], i * 3);
          U.set(u, i * 3);
          y[i] = (1 + m) * (2 + Math.sin(3 * u[0]) + u[1] * u[2] + 0.3 * u[2]) * (1 + 0.05 * (r() - 0.5));
        }
    maps.push({
      key: { sched: `s${m % 2}`, mode: `m${m}` },
      inputNames: ["freq", "threads", "fsize"],
      X,
      U,
      rows,
      normalization: { log2: [false, false, false], lo: [1000, 1, 64], hi: [1000 + 250 * (side - 1), 2 ** (side - 1), 64 * side] },
      stat: "sd",
      y,
      ids: Array.from({ length: rows }, (_, k) => k),
    });
  }
  return maps;
}
