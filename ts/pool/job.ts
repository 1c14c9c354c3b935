// A job end to end: open the output directory's store (resume), run the shard's tasks on the pool, write the
// results in task order and — for a whole job, not a shard — the verb's output files. `merge` uses the same
// writer on the union of the shards' results, so N shards merged write exactly what one unsharded run writes.
import { join } from "node:path";
import { backendInfo } from "../backend/index.js";
import { writeFileAtomic } from "./files.js";
import { planTasks, shardTasks, type Plan, type Shard, type Task } from "./plan.js";
import { runTasks } from "./pool.js";
import { silentProgress, stderrProgress } from "./progress.js";
import { RESULTS, ResultStore, RUN_LOG } from "./store.js";
import type { WorkContext } from "./work.js";

export interface OutputWriter {
  /** Files (in the output directory) this verb writes for a whole job; removed when a job starts over. */
  files(plan: Plan): string[];
  /** Writes them from the results of every task; returns a summary for --json and the notes. */
  write(plan: Plan, results: ReadonlyMap<string, unknown>, dir: string): Record<string, unknown>;
}

export interface JobOptions {
  out: string;
  shard?: Shard;
  workers: number;
  resume: boolean;
  quiet: boolean;
  label: string;
  batch?: number;
}

export interface JobSummary {
  out: string;
  tasks: number;
  resumed: number;
  ran: number;
  seconds: number;
  shard: string | null;
  files: string[];
  summary?: Record<string, unknown>;
}

export function manifestOf(plan: Plan, shard: Shard | undefined): Record<string, unknown> {
  return { ...plan, shard: shard && shard.count > 1 ? `${shard.index}/${shard.count}` : null };
}

export async function runJob(ctx: WorkContext, writer: OutputWriter, opts: JobOptions): Promise<JobSummary> {
  const t0 = Date.now();
  const plan = ctx.plan;
  const all = planTasks(plan);
  const mine: Task[] = shardTasks(all, opts.shard);
  const manifest = manifestOf(plan, opts.shard);
  const store = new ResultStore(opts.out, manifest, { resume: opts.resume, outputs: writer.files(plan) });
  const resumed = mine.filter((t) => store.done.has(t.id)).length;
  if (resumed && !opts.quiet) process.stderr.write(`varmap: resuming: ${resumed} of ${mine.length} tasks already done in ${opts.out}\n`);
  try {
    await runTasks(ctx, mine, store, {
      workers: opts.workers,
      batch: opts.batch,
      progress: opts.quiet ? silentProgress : stderrProgress(opts.label),
    });
  } finally {
    store.close();
  }
  store.finalize(mine.map((t) => t.id));
  const whole = manifest.shard === null;
  let summary: Record<string, unknown> | undefined;
  const files = [RESULTS];
  if (whole) {
    const results = new Map(mine.map((t) => [t.id, store.done.get(t.id)]));
    summary = writer.write(plan, results, opts.out);
    files.push(...writer.files(plan));
  } else if (!opts.quiet) {
    process.stderr.write(`varmap: shard ${manifest.shard} done; combine the shards with \`varmap merge <dirs…> --out <dir>\`\n`);
  }
  const seconds = (Date.now() - t0) / 1000;
  writeFileAtomic(
    join(opts.out, RUN_LOG),
    JSON.stringify(
      {
        note: "timings and environment of the last run; the only file that differs between equivalent runs",
        finished: new Date().toISOString(),
        seconds,
        workers: opts.workers,
        backend: backendInfo().backend.name,
        node: process.version,
        tasks: mine.length,
        resumed,
        ran: mine.length - resumed,
        shard: manifest.shard,
      },
      null,
      2,
    ) + "\n",
  );
  store.release(); // on an error the lock goes at process exit (ts/pool/lock.ts)
  return { out: opts.out, tasks: mine.length, resumed, ran: mine.length - resumed, seconds, shard: manifest.shard as string | null, files, summary };
}
