// How much of the Table-2 workload's Delaunay time a per-map cache of answers could save, if the tie-break of
// cospherical points were keyed by the configuration (its map row) instead of its position in the division's
// training set (issue 25: today's key makes every division's triangulation its own, so nothing carries over).
// With a key per configuration, a simplex S is the Delaunay simplex of a query q in any division whose training
// set T holds S's vertices and none of the map points inside S's circumsphere (its "conflicts"); q never moves,
// so a cache of (S, conflicts) per query, filled by the divisions already done, answers q in a later division by
// a subset test of bitmaps, with no walk. Measured here, without building it:
//   for each division (p = 0.1 … 0.9, --reps each, in cv's order) and test point inside the hull, is a cached S
//   valid? A miss stores the simplex today's kernel found, with its conflicts (points strictly inside the sphere;
//   "strict" also counts the points on it, which the key would decide: the conservative figure).
// Prints the hit rates per p, and the share of today's kernel CPU time that hits would have skipped (the misses'
// share, scaled by each division's measured kernel time).
//   node dist/bench/studies/delaunay-reuse-probe.js [--maps 2] [--reps 50] [--cap 64] [--data file]
import { getBackend } from "../../ts/backend/index.js";
import { delaunayLocate } from "../../ts/backend/kernels/delaunay.js";
import { lstsq } from "../../ts/backend/kernels/lstsq.js";
import { divisionStream, randomDivision } from "../../ts/cv/divisions.js";
import { mapInputScaling } from "../../ts/cv/split.js";
import { loadDataset } from "../../ts/data/load.js";
import { matrix, takeRows } from "../../ts/predict/matrix.js";
import { InputScaler } from "../../ts/predict/scaling.js";
import { flag } from "../../ts/benchmarks/shared-dir.js";
import { table2Dataset } from "../table2-data.js";

const backend = getBackend("native");
const K = Number(flag("--maps") ?? 2);
const reps = Number(flag("--reps") ?? 50);
const cap = Number(flag("--cap") ?? 64); // cached simplices kept per query (most recently useful first)
const ds = await loadDataset(flag("--data") ?? table2Dataset(), { preset: "moana", stat: "sd" });
const ps = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9];

interface Entry {
  vertices: Int32Array; // map rows
  strict: Uint32Array; // bitmap of map rows inside or on the circumsphere (conservative)
  inside: Uint32Array; // bitmap of map rows strictly inside (optimistic: the key puts every on-sphere point outside)
}

/**
 * Circumspheres of many simplices (each d + 1 map rows) in one batched least-squares call (the lstsq kernel):
 * centre c with 2(p_i − p_0)·(c − p_0) = |p_i − p_0|², i = 1 … d; undefined for a flat simplex (rank < d).
 */
function circumspheres(Z: Float64Array, d: number, simplices: Int32Array[]): ({ c: Float64Array; r2: number } | undefined)[] {
  const m = simplices.length;
  const A = new Float64Array(m * d * d);
  const b = new Float64Array(m * d);
  const offsets = Int32Array.from({ length: m + 1 }, (_, k) => k * d);
  simplices.forEach((rows, k) => {
    const p0 = rows[0] * d;
    for (let i = 0; i < d; i++) {
      const pi = rows[i + 1] * d;
      let s = 0;
      for (let j = 0; j < d; j++) {
        const u = Z[pi + j] - Z[p0 + j];
        A[(k * d + i) * d + j] = 2 * u;
        s += u * u;
      }
      b[k * d + i] = s;
    }
  });
  const { x, rank } = lstsq(backend, { A, b, offsets, n: d });
  return simplices.map((rows, k) => {
    if (rank[k] < d) return undefined;
    const c = new Float64Array(d);
    let r2 = 0;
    for (let j = 0; j < d; j++) {
      const v = x[k * d + j];
      r2 += v * v;
      c[j] = Z[rows[0] * d + j] + v;
    }
    return { c, r2 };
  });
}

let totalQueries = 0;
const hitsStrict = ps.map(() => 0),
  hitsInside = ps.map(() => 0),
  queriesP = ps.map(() => 0),
  insideP = ps.map(() => 0),
  timeP = ps.map(() => 0),
  savedStrictP = ps.map(() => 0),
  savedInsideP = ps.map(() => 0);
let checks = 0;

const step = Math.max(1, Math.floor(ds.maps.length / K));
const picked = ds.maps.filter((_, i) => i % step === 0).slice(0, K);
for (const m of picked) {
  const X = matrix(m.X, m.rows, m.inputNames.length);
  const d = X.cols;
  const Z = InputScaler.fit(X, mapInputScaling(m.normalization)).transform(X).data;
  const n = m.rows;
  const words = (n + 31) >>> 5;
  const cacheStrict: Entry[][] = Array.from({ length: n }, () => []);
  const cacheInside: Entry[][] = Array.from({ length: n }, () => []);
  for (let pi = 0; pi < ps.length; pi++) {
    for (let rep = 0; rep < reps; rep++) {
      const { train, test } = randomDivision(n, ps[pi], divisionStream("1", "probe", ps[pi], rep));
      const inT = new Uint32Array(words);
      for (const r of train) inT[r >>> 5] |= 1 << (r & 31);
      const has = (r: number) => (inT[r >>> 5] >>> (r & 31)) & 1;
      const valid = (e: Entry, conflicts: Uint32Array): boolean => {
        for (const v of e.vertices) if (!has(v)) return false;
        for (let w = 0; w < words; w++) if (conflicts[w] & inT[w]) return false;
        return true;
      };
      const lookup = (list: Entry[], which: "strict" | "inside"): boolean => {
        for (let i = 0; i < list.length; i++) {
          checks++;
          if (valid(list[i], list[i][which])) {
            const [e] = list.splice(i, 1);
            list.unshift(e); // move to front
            return true;
          }
        }
        return false;
      };
      const c0 = process.cpuUsage();
      const loc = delaunayLocate(backend, takeRows(matrix(Z, n, d), train).data, takeRows(matrix(Z, n, d), test).data, d);
      const c1 = process.cpuUsage(c0);
      const kernel = (c1.user + c1.system) / 1e6;
      timeP[pi] += kernel;
      let hs = 0,
        hi = 0,
        inside = 0;
      // Look every inside-hull query up; the misses' simplices enter the cache after one batched circumsphere call.
      const missed: { q: number; vertices: Int32Array; hitS: boolean; hitI: boolean }[] = [];
      for (let t = 0; t < test.length; t++) {
        const q = test[t];
        if (loc.status[t] !== 0) continue; // extrapolated: the hull projection is not cached (a miss)
        inside++;
        const hitS = lookup(cacheStrict[q], "strict");
        const hitI = lookup(cacheInside[q], "inside");
        hs += hitS ? 1 : 0;
        hi += hitI ? 1 : 0;
        if (!(hitS && hitI)) missed.push({ q, vertices: Int32Array.from(loc.simplices.subarray(t * (d + 1), (t + 1) * (d + 1)), (s) => train[s]), hitS, hitI });
      }
      const spheres = missed.length
        ? circumspheres(
            Z,
            d,
            missed.map((x) => x.vertices),
          )
        : [];
      missed.forEach(({ q, vertices, hitS, hitI }, k) => {
        const sphere = spheres[k];
        if (!sphere) return;
        const strict = new Uint32Array(words),
          insideSet = new Uint32Array(words);
        const isVertex = new Set(vertices);
        for (let j = 0; j < n; j++) {
          if (isVertex.has(j) || j === q) continue;
          let s = 0;
          for (let k = 0; k < d; k++) s += (Z[j * d + k] - sphere.c[k]) ** 2;
          if (s < sphere.r2 * (1 + 1e-9)) strict[j >>> 5] |= 1 << (j & 31);
          if (s < sphere.r2 * (1 - 1e-9)) insideSet[j >>> 5] |= 1 << (j & 31);
        }
        const e: Entry = { vertices, strict, inside: insideSet };
        if (!hitS) {
          cacheStrict[q].unshift(e);
          if (cacheStrict[q].length > cap) cacheStrict[q].pop();
        }
        if (!hitI) {
          cacheInside[q].unshift(e);
          if (cacheInside[q].length > cap) cacheInside[q].pop();
        }
      });
      totalQueries += test.length;
      queriesP[pi] += test.length;
      insideP[pi] += inside;
      hitsStrict[pi] += hs;
      hitsInside[pi] += hi;
      // A hit skips its query's walk: today's kernel time of the division, times the share of its queries hit.
      savedStrictP[pi] += (kernel * hs) / test.length;
      savedInsideP[pi] += (kernel * hi) / test.length;
    }
  }
}

const pct = (a: number, b: number) => (b ? ((100 * a) / b).toFixed(1) : "—");
console.log(`Delaunay answer reuse across divisions under a per-configuration tie-break key: ${K} map(s), ${reps} reps per p, cache ${cap} per query`);
console.log("p     queries  inside hull  hits (strict)  hits (on-sphere outside)  kernel CPU s  skippable (strict / optimistic)");
for (let pi = 0; pi < ps.length; pi++)
  console.log(
    `${ps[pi].toFixed(1)}  ${String(queriesP[pi]).padStart(9)}  ${pct(insideP[pi], queriesP[pi]).padStart(10)} %  ${pct(hitsStrict[pi], queriesP[pi]).padStart(11)} %  ${pct(hitsInside[pi], queriesP[pi]).padStart(22)} %  ${timeP[pi].toFixed(2).padStart(12)}  ${pct(savedStrictP[pi], timeP[pi]).padStart(6)} % / ${pct(savedInsideP[pi], timeP[pi])} %`,
  );
const T = timeP.reduce((a, b) => a + b, 0);
console.log(
  `all p: ${totalQueries} queries; kernel ${T.toFixed(2)} s CPU; skippable ${pct(
    savedStrictP.reduce((a, b) => a + b, 0),
    T,
  )} % (strict) / ${pct(
    savedInsideP.reduce((a, b) => a + b, 0),
    T,
  )} % (optimistic); ${(checks / totalQueries).toFixed(1)} cache checks per query`,
);
