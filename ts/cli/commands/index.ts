// Every verb, in the order `varmap --help` lists them. Each file registers one verb.
import type { Command } from "commander";
import { register as doctor } from "./doctor.js";
import { register as summarize } from "./summarize.js";
import { register as synth } from "./synth.js";
import { register as fit } from "./fit.js";
import { register as predict } from "./predict.js";
import { register as cv } from "./cv.js";
import { register as mixture } from "./mixture.js";
import { register as refit } from "./refit.js";
import { register as demo } from "./demo.js";
import { register as merge } from "./merge.js";
import { register as summary } from "./summary.js";
import { register as bench } from "./bench.js";
import { register as whatif } from "./whatif.js";
import { register as gev } from "./gev.js";
import { register as slurm } from "./slurm.js";
import { register as interference } from "./interference.js";
import { register as samplesize } from "./samplesize.js";
import { register as convergence } from "./convergence.js";
import { register as plot } from "./plot.js";
import { register as report } from "./report.js";
import { register as importTool } from "./import.js";
import { register as screen } from "./screen.js";
import { register as effects } from "./effects.js";
import { register as plan } from "./plan.js";

export const commands: ((program: Command) => void)[] = [
  doctor,
  summarize,
  synth,
  fit,
  predict,
  cv,
  mixture,
  refit,
  demo,
  merge,
  summary,
  bench,
  whatif,
  gev,
  slurm,
  interference,
  samplesize,
  convergence,
  plot,
  report,
  importTool,
  screen,
  effects,
  plan,
];
