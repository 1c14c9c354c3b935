// The job engine: any verb that runs over a whole dataset describes itself once as a JobDefinition (its plan's
// tasks, how one task runs, which files it writes) and gets workers, progress, a resumable journal, shards and
// merge from here. A job end to end: open the output directory's store (resume), run the shard's tasks on the
// pool, write the results in task order and — for a whole job, not a shard — the verb's output files. `merge`
// uses the same writer on the union of the shards' results, so N shards merged write exactly what one unsharded
// run writes.
import { rmSync } from "node:fs";
import { join } from "node:path";
import { backendInfo } from "../backend/index.js";
import { writeFileAtomic } from "../data/atomic.js";
import { shardTasks, type Shard } from "./plan.js";
import { planBuilt } from "./probe.js";
import { runTasks } from "./pool.js";
import { silentProgress, stderrProgress } from "./progress.js";
import { RESULTS, ResultStore, RUN_LOG } from "./store.js";

/** What every plan holds; a verb's plan adds everything else that determines its results (options, seed, …). */
export interface JobPlan {
  format: "varmap-job";
  version: 1;
  verb: string;
  /** The input data's fingerprint. */
  fingerprint: string;
}

export interface JobTask {
  /** Stable id: the key of the task's record in the journal and results.jsonl. */
  id: string;
}

/** The context every task of a job runs in; sent once to each worker (structured clone: share big arrays). */
export interface JobContext<P extends JobPlan = JobPlan> {
  plan: P;
}

export interface JobDefinition<P extends JobPlan = JobPlan, T extends JobTask = JobTask, C extends JobContext<P> = JobContext<P>> {
  /** The verb, as recorded in its plans. */
  verb: string;
  /** import.meta.url of the module that exports this definition as `job`: worker threads import it from there. */
  module: string;
  /** The task list: a pure function of the plan, in a fixed order, with stable ids. */
  tasks(plan: P): T[];
  /** One task, in a worker thread or in this one: a pure function of (context, task), JSON-serializable. */
  run(ctx: C, task: T): unknown;
  /** Files (in the output directory) this verb writes for a whole job; removed when a job starts over. */
  files(plan: P): string[];
  /** Writes them from the results of every task; returns a summary for --json and the notes. */
  write(plan: P, results: ReadonlyMap<string, unknown>, dir: string): Record<string, unknown>;
}

/** A definition of any verb, as the engine and merge handle it. */
// biome-ignore lint/suspicious/noExplicitAny: the engine treats every verb's plan, task and context alike
export type AnyJob = JobDefinition<any, any, any>;

export interface JobOptions {
  out: string;
  shard?: Shard;
  workers: number;
  resume: boolean;
  quiet: boolean;
  label: string;
  /** Tasks per dispatch to a worker. */
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

export function manifestOf(plan: JobPlan, shard: Shard | undefined): Record<string, unknown> {
  return { ...plan, shard: shard && shard.count > 1 ? `${shard.index}/${shard.count}` : null };
}

export async function runJob<P extends JobPlan, T extends JobTask, C extends JobContext<P>>(
  def: JobDefinition<P, T, C>,
  ctx: C,
  opts: JobOptions,
): Promise<JobSummary> {
  const t0 = Date.now();
  const plan = ctx.plan;
  const all = def.tasks(plan);
  const mine = shardTasks(all, opts.shard);
  const manifest = manifestOf(plan, opts.shard);
  planBuilt({ tasks: all.length, shardTasks: mine.length, manifest }); // stops here under probePlan (slurm submit)
  const store = new ResultStore(opts.out, manifest, { resume: opts.resume, outputs: def.files(plan) });
  const resumed = mine.filter((t) => store.done.has(t.id)).length;
  if (resumed && !opts.quiet) process.stderr.write(`varmap: resuming: ${resumed} of ${mine.length} tasks already done in ${opts.out}\n`);
  try {
    await runTasks(def, ctx, mine, store, {
      workers: opts.workers,
      batch: opts.batch,
      progress: opts.quiet ? silentProgress : stderrProgress(opts.label),
    });
  } catch (e) {
    store.abandon();
    throw e;
  } finally {
    store.close();
  }
  store.finalize(mine.map((t) => t.id));
  const whole = manifest.shard === null;
  let summary: Record<string, unknown> | undefined;
  const files = [RESULTS];
  if (whole) {
    const results = new Map(mine.map((t) => [t.id, store.done.get(t.id)]));
    try {
      summary = def.write(plan, results, opts.out);
    } catch (e) {
      // No first tables beside a failure (issue 44 item 19b): the outputs come all or none; the results stay, so
      // the same command (resume) writes them again.
      for (const f of def.files(plan)) rmSync(join(opts.out, f), { force: true });
      throw e;
    }
    files.push(...def.files(plan));
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
