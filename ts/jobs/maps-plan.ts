// What the map verbs' plans (cv, refit) share: the data fingerprint, the maps, the methods and the response scale.
import { fingerprint, type SharedMaps } from "../data/shared-maps.js";
import type { JobPlan } from "../pool/job.js";

export interface PlanMap {
  /** Values of the plan's factors, in the plan's factor order. */
  values: string[];
  rows: number;
  inputs: string[];
}

export interface MapsPlan extends JobPlan {
  factors: string[];
  maps: PlanMap[];
  methods: string[];
  /** Hyperparameters per method (e.g. mars degree); absent = the method's defaults. */
  methodOptions?: Record<string, Record<string, unknown>>;
  response: "linear" | "log";
  /** The map statistic (sd, var, …) when known: negative predictions of a nonnegative one are counted and clamped (ts/predict/trust.ts). */
  stat?: string;
}

export function mapsPlanBase(
  maps: SharedMaps,
  o: { methods: string[]; methodOptions?: Record<string, Record<string, unknown>>; response: "linear" | "log"; stat?: string },
): Omit<MapsPlan, "verb"> {
  const factors = Object.keys(maps.meta[0]?.key ?? {});
  return {
    format: "varmap-job",
    version: 1,
    fingerprint: fingerprint(maps),
    factors,
    maps: maps.meta.map((m) => ({ values: factors.map((f) => m.key[f]), rows: m.rows, inputs: m.inputNames })),
    methods: o.methods,
    ...(o.methodOptions && Object.keys(o.methodOptions).length ? { methodOptions: o.methodOptions } : {}),
    response: o.response,
    ...(o.stat ? { stat: o.stat } : {}),
  };
}
