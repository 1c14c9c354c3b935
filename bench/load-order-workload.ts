// Peak RSS of a verb that loads runs (cv by default; refit too) on one synthetic MOANA design in three row orders:
// grouped by configuration, the design appended to itself three times, and shuffled (docs/studies/load-memory.md,
// issue 44 item 18). Temporary files go under --dir and are removed at the end.
//   node dist/bench/load-order-workload.js --maps 30 --verb cv --dir /tmp/load-order
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { packageRoot } from "../ts/package-root.js";

const arg = (name: string, def: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : def;
};
const maps = arg("maps", "4");
const verb = arg("verb", "cv");
const dir = arg("dir", "/tmp/varmap-load-order");
const cli = join(packageRoot(), "dist", "ts", "cli", "main.js");
const KEYS = "host_sched, vm_sched, mode, freq_khz, threads, fsize_kb, rsize_kb";

mkdirSync(dir, { recursive: true });
try {
  const base = join(dir, "design.parquet");
  const s = spawnSync(process.execPath, [cli, "synth", "--design", "moana", "--maps", maps, "--out", base, "--workers", "1", "--quiet"], { stdio: "inherit" });
  if (s.status !== 0) throw new Error("synth failed");
  const db = await DuckDBInstance.create(":memory:");
  const con = await db.connect();
  const x3 = join(dir, "appended.parquet");
  await con.run(`COPY (SELECT * FROM '${base}' UNION ALL SELECT * FROM '${base}' UNION ALL SELECT * FROM '${base}') TO '${x3}'`);
  await con.run(`COPY (SELECT * FROM '${x3}' ORDER BY ${KEYS}, run) TO '${join(dir, "grouped.parquet")}'`);
  await con.run(`COPY (SELECT * EXCLUDE (i) FROM (SELECT *, row_number() OVER () AS i FROM '${x3}') ORDER BY hash(i)) TO '${join(dir, "shuffled.parquet")}'`);
  con.closeSync();
  db.closeSync();
  const rows: Record<string, string | number>[] = [];
  for (const order of ["grouped", "appended", "shuffled"]) {
    const out = join(dir, `out-${order}`);
    const extra = verb === "cv" ? ["--folds", "2"] : [];
    const r = spawnSync(
      "/usr/bin/time",
      [
        "-v",
        process.execPath,
        cli,
        verb,
        join(dir, `${order}.parquet`),
        "--preset",
        "moana",
        "--allow-duplicate-runs",
        "--methods",
        "lr",
        "--workers",
        "1",
        "--quiet",
        ...extra,
        "--out",
        out,
      ],
      { encoding: "utf8" },
    );
    rmSync(out, { recursive: true, force: true });
    if (r.status !== 0) throw new Error(`${verb} ${order} failed: ${r.stderr.slice(-400)}`);
    const num = (re: RegExp) => Number(re.exec(r.stderr)?.[1]);
    rows.push({
      order,
      rssMiB: Math.round(num(/Maximum resident set size \(kbytes\): (\d+)/) / 1024),
      cpuS: num(/User time \(seconds\): ([\d.]+)/) + num(/System time \(seconds\): ([\d.]+)/),
    });
  }
  const grouped = Number(rows[0].rssMiB);
  for (const r of rows) r.ratio = (Number(r.rssMiB) / grouped).toFixed(2);
  console.log(JSON.stringify({ verb, maps: Number(maps), rows }, null, 1));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
