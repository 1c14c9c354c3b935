// A fingerprint of the gp kernels' outputs: gp_nll (with and without its gradient), gp_predict and gp_local_predict
// on 288 fixed problems (n = 1 … 301 points, d = 1, 3, 4 inputs, the three kernels, 0, 1 or 3 mean columns, with and
// without measured noise), every output double hashed (SHA-256). A rewrite of the kernels that claims the same bits
// prints the same hash on both backends before and after (538aa1cc… before the row-update rewrite of gp_nll and after).
// Usage: node dist/bench/gp-hash.js [--backend native|wasm]
import { createHash } from "node:crypto";
import { getBackend } from "../ts/backend/index.js";
import { type GpKernelName, gpLocalPredict, gpNll, gpPredict } from "../ts/backend/kernels/gp.js";
import { flag } from "../ts/benchmarks/shared-dir.js";

const name = flag("--backend") ?? "native";
const backend = await getBackend(name as "native" | "wasm");
let seed = 7;
const rand = (): number => (seed = (seed * 16807) % 2147483647) / 2147483647;
const hash = createHash("sha256");
let count = 0;
const add = (a: ArrayLike<number>): void => {
  hash.update(Buffer.from(Float64Array.from(a).buffer));
  count += a.length;
};
const kernels: GpKernelName[] = ["sqexp", "matern32", "matern52"];
for (const n of [1, 2, 7, 33, 150, 301])
  for (const d of [1, 3, 4])
    for (const kernel of kernels)
      for (const p of [0, 1, 3])
        for (const withV of [false, true]) {
          if (p > n) continue;
          const X = Float64Array.from({ length: n * d }, rand);
          const y = Float64Array.from({ length: n }, (_, i) => Math.sin(3 * X[i * d]) + 0.1 * rand());
          const H = Float64Array.from({ length: n * p }, (_, k) => (k % p === 0 ? 1 : X[Math.floor(k / p) * d] ** (k % p)));
          const v = withV ? Float64Array.from({ length: n }, () => 0.01 * rand()) : undefined;
          const noise = Math.log(1e-3 + 0.01 * rand());
          const theta = Float64Array.from([...Array.from({ length: d }, () => -1 + rand()), noise, ...(withV ? [Math.log(0.5)] : [])]);
          for (const grad of [false, true]) {
            const r = gpNll(backend, X, y, H, n, d, p, kernel, theta, grad, v);
            if ("status" in r) {
              add([r.status]);
              continue;
            }
            add([r.nll, r.sigma2]);
            for (const a of [r.grad, r.L, r.alpha, r.beta]) add(a);
            if (!grad || withV) continue;
            const q = 5;
            const Xq = Float64Array.from({ length: q * d }, rand);
            const pr = gpPredict(backend, X, n, d, kernel, theta.subarray(0, d + 1), r.L, r.alpha, Xq, q);
            add(pr.mean);
            add(pr.variance);
            // Neighbour lists (a + 3b) mod n: distinct when 3 does not divide n or m is small enough.
            const m = Math.min(n, 5);
            const nb = Int32Array.from({ length: q * m }, (_, k) => (Math.floor(k / m) + 3 * (k % m)) % n);
            const distinct = Array.from({ length: q }, (_, a) => new Set(nb.subarray(a * m, (a + 1) * m)).size === m).every(Boolean);
            if (!distinct) continue;
            const lp = gpLocalPredict(backend, X, n, d, kernel, theta.subarray(0, d + 1), y, nb, m, Xq, q);
            if ("status" in lp) add([lp.status]);
            else {
              add(lp.mean);
              add(lp.variance);
            }
          }
        }
console.log(`${name}: ${count} doubles, sha256 ${hash.digest("hex")}`);
