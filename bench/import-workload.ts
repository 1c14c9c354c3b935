// issue 42: `varmap import fio` over 10,000 fio JSON files. The files are made from the real fio 3.33 output in
// test/fixtures/import/fio/ (one job per file, as a run-per-file campaign writes them): each copy gets a block size
// and iodepth of a 4 x 5 grid in its job options and its bandwidth, IOPS and latencies scaled by a random factor
// (counterRng, seeded), a timestamp one second after the previous. Then the CLI imports them, timed by
// /usr/bin/time (wall, CPU, peak memory), as a user runs it:
//   node dist/bench/import-workload.js [--files 10000] [--plus] [--out-format parquet|csv] [--keep DIR]
// --plus adds fio's json+ latency bins (about 4x larger files).
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { counterRng } from "../ts/data/random.js";
import { packageRoot } from "../ts/package-root.js";
import { flag } from "../ts/benchmarks/shared-dir.js";

const files = Number(flag("--files") ?? 10000);
const plus = process.argv.includes("--plus");
const outFormat = flag("--out-format") ?? "parquet";
const keep = flag("--keep");
const root = packageRoot();

type Obj = Record<string, unknown>;
const fixtures = readdirSync(join(root, "test", "fixtures", "import", "fio"))
  .sort()
  .map((f) => JSON.parse(readFileSync(join(root, "test", "fixtures", "import", "fio", f), "utf8")) as Obj);
const jobs = fixtures.flatMap((d) => (d.jobs as Obj[]).map((j) => ({ doc: d, job: j })));

const BS = ["4k", "16k", "64k", "256k"];
const QD = [1, 2, 4, 8, 16];

function scaled(o: unknown, f: number): unknown {
  if (typeof o === "number") return Number.isInteger(o) ? Math.round(o * f) : o * f;
  if (Array.isArray(o)) return o.map((x) => scaled(x, f));
  if (o && typeof o === "object")
    return Object.fromEntries(Object.entries(o as Obj).map(([k, v]) => [k, k === "percentile" || /^(bw|iops|clat|lat)/.test(k) ? scaled(v, f) : v]));
  return o;
}

const dir = keep ?? mkdtempSync(join(tmpdir(), "varmap-import-workload-"));
mkdirSync(dir, { recursive: true });
const t0 = performance.now();
let bytes = 0;
const names: string[] = [];
for (let i = 0; i < files; i++) {
  const r = counterRng(42, "import-workload", i);
  const { doc, job } = jobs[i % jobs.length];
  const bs = BS[i % BS.length];
  const qd = QD[Math.floor(i / BS.length) % QD.length];
  const f = 0.7 + 0.6 * r.next();
  const read = scaled(job.read, f) as Obj;
  if (!plus && read.clat_ns) delete (read.clat_ns as Obj).bins;
  const out = {
    ...doc,
    timestamp: 1795886000 + i,
    timestamp_ms: (1795886000 + i) * 1000,
    jobs: [{ ...job, "job options": { ...(job["job options"] as Obj), bs, iodepth: String(qd) }, read }],
  };
  const text = JSON.stringify(out, null, 2);
  const name = join(dir, `run-${String(i).padStart(5, "0")}.json`);
  writeFileSync(name, text);
  bytes += text.length;
  names.push(name);
}
console.log(
  `generated ${files} fio JSON files (${(bytes / 1e6).toFixed(1)} MB${plus ? ", json+" : ""}) in ${((performance.now() - t0) / 1000).toFixed(1)} s: ${dir}`,
);

const out = join(dir, `runs.${outFormat}`);
const cli = join(root, "dist", "ts", "cli", "main.js");
const r = spawnSync("/usr/bin/time", ["-f", "%e %U %S %M", process.execPath, cli, "import", "fio", ...names, "--out", out, "--quiet"], { encoding: "utf8" });
if (r.status !== 0) throw new Error(`import failed: ${r.stderr}`);
const [wall, user, sys, rssKb] = r.stderr.trim().split("\n").pop()!.split(" ").map(Number);
console.log(r.stdout.trim().split("\n")[0]);
console.log(
  `import: ${wall.toFixed(2)} s wall, ${(user + sys).toFixed(2)} s CPU (${user.toFixed(2)} user + ${sys.toFixed(2)} sys), peak RSS ${(rssKb / 1024).toFixed(0)} MB; ${out} ${(statSync(out).size / 1e6).toFixed(2)} MB`,
);
console.log(`targets (issue 42): <= 10 s on 2 cores, <= 300 MB: ${wall <= 10 && rssKb / 1024 <= 300 ? "met" : "NOT met"}`);
if (!keep) rmSync(dir, { recursive: true, force: true });
