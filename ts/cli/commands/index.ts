// Every verb, in the order `varmap --help` lists them. Each file registers one verb and is imported on demand: a run
// of one verb loads only that verb's module graph (module loading was most of a short command's CPU time, issue 44).
import type { Command } from "commander";

/** One verb's command file: it adds its command, flags and action to the program. */
export interface CommandFile {
  register(program: Command): void;
}

export const COMMAND_FILES: Readonly<Record<string, () => Promise<CommandFile>>> = {
  doctor: () => import("./doctor.js"),
  summarize: () => import("./summarize.js"),
  synth: () => import("./synth.js"),
  fit: () => import("./fit.js"),
  predict: () => import("./predict.js"),
  cv: () => import("./cv.js"),
  mixture: () => import("./mixture.js"),
  refit: () => import("./refit.js"),
  demo: () => import("./demo.js"),
  merge: () => import("./merge.js"),
  summary: () => import("./summary.js"),
  bench: () => import("./bench.js"),
  whatif: () => import("./whatif.js"),
  gev: () => import("./gev.js"),
  slurm: () => import("./slurm.js"),
  interference: () => import("./interference.js"),
  samplesize: () => import("./samplesize.js"),
  convergence: () => import("./convergence.js"),
  plot: () => import("./plot.js"),
  report: () => import("./report.js"),
  import: () => import("./import.js"),
  screen: () => import("./screen.js"),
  effects: () => import("./effects.js"),
  plan: () => import("./plan.js"),
};

/** The registrations of `verb` alone when it names one, else of every verb (help, a typo's "did you mean"). */
export async function loadCommands(verb?: string): Promise<CommandFile["register"][]> {
  const names = verb !== undefined && Object.hasOwn(COMMAND_FILES, verb) ? [verb] : Object.keys(COMMAND_FILES);
  const files = await Promise.all(names.map((name) => COMMAND_FILES[name]()));
  return files.map((f) => f.register);
}
