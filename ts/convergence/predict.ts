// Convergence curves of unmeasured configurations (seed 000 §6, Fig. 10 bottom; spec A.3): for each random division
// of a map (the cv division generator, keyed by (seed, map, p, rep)), fit a predictor on the training
// configurations' widths W_c(m) and predict Ŵ_c(m) for the test ones, per m (`per-m`) or from ŝ at N
// (`plug-in`: Ŵ(m) = factor(m)·ŝ). Delaunay interpolation is linear in the responses, so one location per division
// serves every m.
import type { VariabilityMap } from "../data/types.js";
import { VarmapError } from "../errors.js";
import { mapInputScaling } from "../cv/split.js";
import { Delaunay } from "../predict/delaunay.js";
import { matrix, takeRows } from "../predict/matrix.js";
import { createPredictor } from "../predict/registry.js";
import { divisionStream, randomDivision } from "../cv/divisions.js";
import { mapLabel } from "../data/shared-maps.js";

export type CurveMode = "per-m" | "plug-in";

export interface PredictedCurves {
  /** Per division: test rows (indices into the map) and their predicted widths, test row × m (row-major). */
  divisions: { test: Int32Array; w: Float64Array; extrapolated: boolean[] }[];
}

/**
 * W: map rows × M measured widths (row-major, m = m0..m0+M−1); factor: the CI width factor per m (for plug-in).
 * Predicts every division's test rows.
 */
export function predictCurves(
  map: VariabilityMap,
  W: Float64Array,
  M: number,
  factor: Float64Array,
  o: { method: string; p: number; reps: number; seed: number; mode: CurveMode },
): PredictedCurves {
  const label = mapLabel(map.key);
  if (map.inputNames.length === 0)
    throw new VarmapError("E_TOO_FEW_POINTS", `map ${label} has no input that varies (${map.rows} configuration(s)): nothing to predict from`, {
      location: { configuration: label },
      remedy: "select maps with several configurations using --where, or drop --predict",
    });
  const X = matrix(map.X, map.rows, map.inputNames.length);
  const options = { inputs: mapInputScaling(map.normalization) };
  const divisions: PredictedCurves["divisions"] = [];
  for (let rep = 0; rep < o.reps; rep++) {
    const { train, test } = randomDivision(map.rows, o.p, divisionStream(o.seed, label, o.p, rep));
    const Xtr = takeRows(X, train),
      Xte = takeRows(X, test);
    const w = new Float64Array(test.length * M);
    let extrapolated = new Array<boolean>(test.length).fill(false);
    const column = (rows: Int32Array, j: number) => Float64Array.from(rows, (r) => W[r * M + j]);
    if (o.method === "delaunay") {
      const d = new Delaunay(options).fit(Xtr, column(train, M - 1));
      const loc = d.locate(Xte);
      extrapolated = loc.extrapolated;
      const v = Xte.cols + 1;
      const js = o.mode === "plug-in" ? [M - 1] : Array.from({ length: M }, (_, j) => j);
      for (let i = 0; i < test.length; i++)
        for (const j of js) {
          let s = 0;
          for (let k = 0; k < v; k++) s += loc.weights[i * v + k] * W[train[loc.simplices[i * v + k]] * M + j];
          w[i * M + j] = loc.status[i] === 2 ? NaN : s;
        }
    } else {
      const js = o.mode === "plug-in" ? [M - 1] : Array.from({ length: M }, (_, j) => j);
      for (const j of js) {
        const pred = createPredictor(o.method, options).fit(Xtr, column(train, j)).predict(Xte);
        for (let i = 0; i < test.length; i++) w[i * M + j] = pred[i];
      }
    }
    if (o.mode === "plug-in")
      for (let i = 0; i < test.length; i++) {
        const sHat = w[i * M + M - 1] / factor[M - 1];
        for (let j = 0; j < M; j++) w[i * M + j] = factor[j] * sHat;
      }
    divisions.push({ test, w, extrapolated });
  }
  return { divisions };
}
