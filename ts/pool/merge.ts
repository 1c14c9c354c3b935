// `varmap merge`: the output directories of the N shards of one job → what one unsharded run writes.
// Checks that every directory holds the same job (identical manifests but for the shard), that the shards are
// exactly 1..N, each complete, then writes results.jsonl in task order and the verb's outputs.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { VarmapError } from "../errors.js";
import { writeFileAtomic } from "../data/atomic.js";
import { checkMergeOut, MERGED_NOTE, writeDirAtomic } from "./fresh-dir.js";
import type { AnyJob, JobPlan } from "./job.js";
import { parseShard, shardTasks } from "./plan.js";
import { JOURNAL, MANIFEST, readManifest, readRecords, recordLine, RESULTS, RUN_LOG, stableJson } from "./store.js";

/** `loadJob` finds the job definition of a plan's verb (ts/jobs/index.ts). */
export async function mergeShards(
  dirs: readonly string[],
  out: string,
  loadJob: (verb: string) => Promise<AnyJob>,
): Promise<{ tasks: number; shards: number; files: string[]; summary: Record<string, unknown> }> {
  if (!dirs.length) throw new VarmapError("E_USAGE", "merge needs the shard output directories", { remedy: "varmap merge out-1 out-2 … --out merged" });
  checkMergeOut(out, dirs);
  let plan: JobPlan | undefined;
  let def: AnyJob | undefined;
  let planText = "";
  let count = 0;
  const seen = new Map<number, string>();
  const results = new Map<string, unknown>();
  for (const dir of dirs) {
    const m = readManifest(dir);
    if (!m)
      throw new VarmapError("E_MERGE", `${dir} has no readable ${MANIFEST}: not a varmap output directory`, {
        remedy: "pass the --out directories of the shard runs",
      });
    const shard = parseShard(typeof m.shard === "string" ? m.shard : "1/1")!;
    const { shard: _s, ...rest } = m;
    const text = stableJson(rest);
    if (plan === undefined) {
      plan = rest as unknown as JobPlan;
      def = await loadJob(plan.verb);
      planText = text;
      count = shard.count;
    } else if (text !== planText)
      throw new VarmapError("E_MERGE", `${dir} holds a different job from ${dirs[0]} (other data, options or seed)`, {
        remedy: "merge only the shards of one job, run with identical options",
      });
    if (shard.count !== count)
      throw new VarmapError("E_MERGE", `${dir} is shard ${shard.index}/${shard.count} but ${dirs[0]} is one of ${count}`, {
        remedy: "merge the shards of one --shard i/N layout",
      });
    if (seen.has(shard.index))
      throw new VarmapError("E_MERGE", `shard ${shard.index}/${count} is given twice (${seen.get(shard.index)} and ${dir})`, {
        remedy: "pass each shard's directory once",
      });
    seen.set(shard.index, dir);
    if (existsSync(join(dir, JOURNAL)) || !existsSync(join(dir, RESULTS)))
      throw new VarmapError("E_MERGE", `shard ${shard.index}/${count} in ${dir} did not finish`, {
        remedy: `rerun that shard with the same command (it resumes), then merge`,
      });
    const expected = new Set(shardTasks(def!.tasks(plan), shard).map((t: { id: string }) => t.id));
    for (const rec of readRecords(join(dir, RESULTS))) if (expected.has(rec.id)) results.set(rec.id, rec.result);
  }
  const missing = [...Array(count).keys()].map((i) => i + 1).filter((i) => !seen.has(i));
  if (missing.length)
    throw new VarmapError("E_MERGE", `shard(s) ${missing.map((i) => `${i}/${count}`).join(", ")} missing`, {
      remedy: "pass the output directories of all N shards",
    });
  const tasks: { id: string }[] = def!.tasks(plan!);
  const lost = tasks.filter((t) => !results.has(t.id));
  if (lost.length)
    throw new VarmapError("E_MERGE", `${lost.length} task result(s) missing, e.g. ${lost[0].id}`, {
      remedy: "rerun the shard that owns them (it resumes), then merge",
    });

  const writer = def!;
  // Built in a fresh temporary directory renamed into place: --out ends up holding exactly these files.
  const summary = writeDirAtomic(out, (dir) => {
    writeFileAtomic(join(dir, MANIFEST), stableJson({ ...plan!, shard: null }));
    writeFileAtomic(join(dir, RESULTS), tasks.map((t) => recordLine({ id: t.id, result: results.get(t.id) })).join("\n") + (tasks.length ? "\n" : ""));
    const summary = writer.write(plan!, results, dir);
    writeFileAtomic(join(dir, RUN_LOG), JSON.stringify({ note: MERGED_NOTE, finished: new Date().toISOString(), shards: dirs }, null, 2) + "\n");
    return summary;
  });
  return { tasks: tasks.length, shards: count, files: [MANIFEST, RESULTS, ...writer.files(plan!)], summary };
}
