// The whatif evaluation the tests share: maximize the mean throughput (sd spread), runs needed for ±5 % at 95 %,
// one second per run, the mean–cv Pareto fronts; `over` replaces any field.
import { parseObjective, parsePareto, type EvaluateOptions } from "../../ts/whatif/objective.js";

export function throughputEvaluation(over: Partial<EvaluateOptions> = {}): EvaluateOptions {
  const objective = parseObjective("max-mean", "sd");
  return {
    spreadKind: "sd",
    precision: 0.05,
    level: 0.95,
    responseKind: "throughput",
    secondsPerRun: 1,
    objective,
    pareto: parsePareto("mean,cv", objective, "throughput", "sd"),
    ...over,
  };
}
