// Runs a job's tasks: on a Piscina pool (default one worker per CPU granted, ts/pool/cpus.ts) or in-process (--workers 0), skipping
// those the store already holds, appending each finished batch to the store, reporting progress.
import { Piscina } from "piscina";
import { VarmapError, type ErrorCode, type ErrorLocation } from "../errors.js";
import { defaultWorkers } from "./cpus.js";
import type { JobDefinition, JobContext, JobPlan, JobTask } from "./job.js";
import type { Progress } from "./progress.js";
import type { TaskRecord } from "./store.js";
import { workerFile } from "./threads.js";
import { backendInfo } from "../backend/index.js";

export function parseWorkers(s: string | number | undefined): number {
  if (s === undefined || s === "") return defaultWorkers();
  const n = Number(s);
  if (!Number.isInteger(n) || n < 0)
    throw new VarmapError("E_USAGE", `--workers '${s}' is not a non-negative integer`, {
      remedy: "give a worker count such as --workers 2 (0 = run in this thread)",
    });
  return n;
}

export interface RunOptions {
  workers: number;
  /** Tasks per dispatch: several small tasks per message amortize the round trip. */
  batch?: number;
  progress: Progress;
}

/** Where finished tasks go: a job's ResultStore (journal on disk), or a map in memory. */
export interface TaskSink {
  readonly done: ReadonlyMap<string, unknown>;
  append(records: readonly TaskRecord[]): void;
}

/** A VarmapError thrown in a worker, as the worker sends it back (see worker.ts). */
interface WorkerError {
  varmapError: { code: ErrorCode; message: string; location: ErrorLocation; remedy: string };
}

function isWorkerError(r: unknown): r is WorkerError {
  return typeof r === "object" && r !== null && !Array.isArray(r) && "varmapError" in r;
}

export async function runTasks<P extends JobPlan, T extends JobTask, C extends JobContext<P>>(
  def: JobDefinition<P, T, C>,
  ctx: C,
  tasks: readonly T[],
  store: TaskSink,
  opts: RunOptions,
): Promise<void> {
  const todo = tasks.filter((t) => !store.done.has(t.id));
  opts.progress.start(tasks.length, tasks.length - todo.length);
  try {
    if (!todo.length) return;
    const batch = Math.max(1, opts.batch ?? 1);
    const batches: T[][] = [];
    for (let i = 0; i < todo.length; i += batch) batches.push(todo.slice(i, i + batch));
    if (opts.workers === 0) {
      for (const b of batches) {
        store.append(b.map((t) => ({ id: t.id, result: def.run(ctx, t) })));
        opts.progress.tick(b.length);
      }
      return;
    }
    // The workers choose their backend as this thread does: resolving it here first reports a fallback to wasm (and a
    // bad VARMAP_BACKEND) once, from this thread, rather than once per worker.
    backendInfo();
    const { filename, execArgv } = workerFile(import.meta.url, "worker");
    const threads = Math.min(opts.workers, batches.length);
    const pool = new Piscina({ filename, execArgv, workerData: { module: def.module, ctx }, minThreads: threads, maxThreads: threads, idleTimeout: 60_000 });
    try {
      // A bounded window of batches in flight keeps memory flat on huge jobs while every worker stays busy.
      const window = threads * 4;
      let next = 0;
      let failure: unknown;
      await new Promise<void>((resolve) => {
        let active = 0;
        const launch = (): void => {
          while (!failure && active < window && next < batches.length) {
            const b = batches[next++];
            active++;
            (pool.run(b) as Promise<unknown[] | WorkerError>)
              .then(
                (results) => {
                  if (isWorkerError(results)) {
                    const w = results.varmapError;
                    failure ??= new VarmapError(w.code, w.message, { location: w.location, remedy: w.remedy });
                    return;
                  }
                  // A journal write can fail (a full disk: E_DISK_FULL naming the journal). Thrown here it would
                  // reject a promise nothing awaits (a raw dump, exit 1); recorded, it stops the launches and is
                  // rethrown below once the batches in flight are done.
                  try {
                    store.append(b.map((t, i) => ({ id: t.id, result: results[i] })));
                  } catch (e) {
                    failure ??= e;
                    return;
                  }
                  opts.progress.tick(b.length);
                },
                (e) => {
                  failure ??= e;
                },
              )
              .finally(() => {
                active--;
                if (active === 0 && (failure || next >= batches.length)) resolve();
                else launch();
              });
          }
        };
        launch();
      });
      if (failure) throw failure;
    } finally {
      await pool.destroy();
    }
  } finally {
    opts.progress.stop();
  }
}
