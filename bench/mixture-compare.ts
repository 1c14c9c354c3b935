// Compares the mixtures of two `varmap refit` outputs of the same data (e.g. mixture-workload.js --out A, then
// again with a changed kernel --out B): for every (configuration, model), the loss of log L of B against A.
//   node dist/bench/mixture-compare.js A B
// refit stores every model's BIC = −2 log L + p log n; both outputs fit the same models to the same runs (same p
// and n), so log L(A) − log L(B) = (BIC(B) − BIC(A)) / 2. Reports the fraction within 1e-6·n (the golden
// tolerance), the worst loss, and in how many configurations the BIC-selected model changed.
// Compare outputs of the same input file: the random starts are keyed by each configuration's index in it, so a
// slice against the whole design compares different k-means++ starts, not the change.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { FAMILY_NAMES } from "../ts/mixture/families.js";

interface ConfigFits {
  n: number;
  bic: number[];
}

function load(dir: string): Map<string, ConfigFits> {
  const out = new Map<string, ConfigFits>();
  for (const line of readFileSync(join(dir, "results.jsonl"), "utf8").split(/\r?\n/)) {
    if (!line) continue;
    const rec = JSON.parse(line) as { id: string; result?: { configs?: { key: string[]; n: number; bic: number[] }[] } };
    if (!rec.id.startsWith("mix/")) continue;
    for (const c of rec.result?.configs ?? []) out.set(c.key.join(","), { n: c.n, bic: c.bic });
  }
  return out;
}

const argmin = (v: number[]) => v.reduce((b, x, i) => (x < v[b] ? i : b), 0);

const [dirA, dirB] = process.argv.slice(2);
if (!dirA || !dirB) throw new Error("usage: mixture-compare.js <refit output A> <refit output B>");
const a = load(dirA),
  b = load(dirB);
let models = 0,
  within = 0,
  better = 0,
  missing = 0,
  sameChoice = 0,
  worst = 0,
  worstAt = "";
let bestA = 0,
  bestB = 0; // sums over configurations of the BIC-selected model's BIC
const lostPer = new Map<number, number[]>(); // model index -> losses beyond the tolerance
for (const [key, fa] of a) {
  const fb = b.get(key);
  if (!fb) {
    missing++;
    continue;
  }
  const tol = 1e-6 * fa.n;
  fa.bic.forEach((bicA, m) => {
    const loss = ((fb.bic[m] ?? NaN) - (bicA ?? NaN)) / 2; // log L(A) − log L(B); a failed fit (null) counts as a loss
    models++;
    if (loss <= tol) within++;
    else lostPer.set(m, [...(lostPer.get(m) ?? []), loss]);
    if (loss < -tol) better++;
    if (!(loss <= worst)) {
      worst = Number.isNaN(loss) ? Infinity : loss;
      worstAt = `${key} model ${m}`;
    }
  });
  if (argmin(fa.bic) === argmin(fb.bic)) sameChoice++;
  bestA += fa.bic[argmin(fa.bic)];
  bestB += fb.bic[argmin(fb.bic)];
}
console.log(
  `${models} (configuration, model) pairs: ${within} (${((100 * within) / models).toFixed(2)}%) with log L(B) >= log L(A) - 1e-6 n, ${better} better by more`,
);
console.log(
  `worst loss ${worst.toPrecision(4)}${worstAt ? ` (${worstAt})` : ""}; BIC-selected model unchanged in ${sameChoice} of ${a.size - missing} configurations${missing ? `; ${missing} missing from B` : ""}`,
);
console.log(`sum of the selected models' BIC: A ${bestA.toFixed(1)}, B ${bestB.toFixed(1)} (B − A = ${(bestB - bestA).toFixed(1)})`);
const kmax = Math.max(0, ...[...a.values()].map((f) => f.bic.length)) / FAMILY_NAMES.length;
for (const [m, losses] of [...lostPer].sort((x, y) => x[0] - y[0])) {
  const sorted = losses.sort((x, y) => x - y);
  console.log(
    `  ${FAMILY_NAMES[Math.floor(m / kmax)] ?? m} k=${(m % kmax) + 1}: ${losses.length} lost beyond 1e-6 n, median ${sorted[Math.floor(sorted.length / 2)].toPrecision(3)}, worst ${sorted[sorted.length - 1].toPrecision(3)}`,
  );
}
