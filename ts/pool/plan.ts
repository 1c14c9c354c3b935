// Jobs and their tasks. A plan is everything that determines a job's results (data fingerprint, maps, methods,
// fractions, repetitions, seed, given splits); it is the identity recorded in the output's manifest. The task list
// is a pure function of the plan, in a fixed order, with stable ids; a shard i/N takes every N-th task starting
// at the i-th, so shards are balanced across maps and methods and their union is exactly the task list.
import { VarmapError } from "../errors.js";
import type { MixtureStarts } from "../backend/kernels/mixture.js";

export interface PlanMap {
  /** Values of the plan's factors, in the plan's factor order. */
  values: string[];
  rows: number;
  inputs: string[];
}

interface PlanBase {
  format: "varmap-job";
  version: 1;
  fingerprint: string;
  factors: string[];
  maps: PlanMap[];
  methods: string[];
  /** Hyperparameters per method (e.g. mars degree); absent = the method's defaults. */
  methodOptions?: Record<string, Record<string, unknown>>;
  response: "linear" | "log";
}

export interface CvPlan extends PlanBase {
  verb: "cv";
  /** Generated divisions: for each p, reps random divisions keyed by (seed, map, p, rep). */
  generated?: { ps: number[]; reps: number; seed: string; repChunk: number };
  /** Given divisions (--splits): their (p, rep) labels; the training indices travel to the workers separately. */
  given?: { source: string; hash: string; labels: { p: number; rep: number }[]; chunk: number; predictions: boolean };
}

export interface RefitPlan extends PlanBase {
  verb: "refit";
  /** Mixture models of every configuration's runs (seed 001), in chunks of configurations. */
  mixtures?: MixtureOptions & { chunk: number };
}

/** What refit fits to every configuration's runs. */
export interface MixtureOptions {
  families: string[];
  kmax: number;
  seed: number;
  /** Start strategy (absent in plans written before it existed: full). */
  starts?: MixtureStarts;
  /** Configurations in the dataset, and the names of the columns that identify one (factors, then inputs). */
  configs: number;
  columns: string[];
}

export type Plan = CvPlan | RefitPlan;

export type Task =
  | { id: string; kind: "cv-gen"; map: number; method: string; pIndex: number; r0: number; r1: number }
  | { id: string; kind: "cv-given"; map: number; method: string; s0: number; s1: number }
  | { id: string; kind: "fit"; map: number; method: string }
  | { id: string; kind: "mix"; map: -1; c0: number; c1: number };

export function planTasks(plan: Plan): Task[] {
  const tasks: Task[] = [];
  plan.maps.forEach((_, map) => {
    for (const method of plan.methods) {
      if (plan.verb === "refit") {
        tasks.push({ id: `fit/${map}/${method}`, kind: "fit", map, method });
      } else if (plan.generated) {
        const { ps, reps, repChunk } = plan.generated;
        ps.forEach((_p, pIndex) => {
          for (let r0 = 0; r0 < reps; r0 += repChunk)
            tasks.push({ id: `cv/${map}/${method}/${pIndex}/${r0}`, kind: "cv-gen", map, method, pIndex, r0, r1: Math.min(reps, r0 + repChunk) });
        });
      } else if (plan.given) {
        const n = plan.given.labels.length;
        for (let s0 = 0; s0 < n; s0 += plan.given.chunk)
          tasks.push({ id: `cvs/${map}/${method}/${s0}`, kind: "cv-given", map, method, s0, s1: Math.min(n, s0 + plan.given.chunk) });
      }
    }
  });
  if (plan.verb === "refit" && plan.mixtures) {
    const { configs, chunk } = plan.mixtures;
    for (let c0 = 0; c0 < configs; c0 += chunk) tasks.push({ id: `mix/${c0}`, kind: "mix", map: -1, c0, c1: Math.min(configs, c0 + chunk) });
  }
  return tasks;
}

export interface Shard {
  index: number; // 1-based
  count: number;
}

export function parseShard(s: string | undefined): Shard | undefined {
  if (s === undefined) return undefined;
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(s);
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!m || count < 1 || index < 1 || index > count)
    throw new VarmapError("E_USAGE", `--shard '${s}' is not of the form i/N with 1 ≤ i ≤ N`, {
      remedy: "e.g. --shard 2/8, or under Slurm --shard $SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT with --array=1-N",
    });
  return { index, count };
}

export function shardTasks(tasks: readonly Task[], shard: Shard | undefined): Task[] {
  if (!shard || shard.count === 1) return [...tasks];
  return tasks.filter((_, i) => i % shard.count === shard.index - 1);
}

/** Parses "a:b:step" (inclusive) or "a,b,c" into fractions in (0, 1), rounded to 1e-9 so 0.1·3 prints as 0.3. */
export function parseFractions(s: string): number[] {
  const bad = (): never => {
    throw new VarmapError("E_USAGE", `--p '${s}' is not a list of training fractions`, { remedy: "use start:stop:step such as 0.1:0.9:0.1, or a list such as 0.5,0.9" });
  };
  const clean = (x: number): number => Math.round(x * 1e9) / 1e9;
  let ps: number[];
  if (s.includes(":")) {
    const parts = s.split(":").map(Number);
    if (parts.length !== 3 || parts.some((x) => !Number.isFinite(x)) || parts[2] <= 0 || parts[1] < parts[0]) bad();
    const [a, b, st] = parts;
    const n = Math.floor((b - a) / st + 1e-9);
    ps = Array.from({ length: n + 1 }, (_, i) => clean(a + i * st));
  } else ps = s.split(",").map((x) => clean(Number(x.trim())));
  if (!ps.length || ps.some((p) => !(p > 0 && p < 1))) bad();
  return ps;
}
