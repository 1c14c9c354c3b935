// The small long-format runs table several end-to-end tests share: two maps (host a, b) of 4 × 3 × 3 settings
// (freq 1–4, threads 1, 2, 4, size 8, 16, 32) with 4 runs each, whose spread grows with freq.
import { writeFileSync } from "node:fs";

export interface TwoHostRunsOptions {
  /** Add a small deterministic ripple to every run (so no two configurations share a spread). */
  ripple?: boolean;
  /** Give configuration (a, 1, 1, 8) four equal runs: its sd is 0. */
  flat?: boolean;
}

/** The column flags that read it. */
export const TWO_HOST_COLUMNS = ["--factors", "host", "--inputs", "freq,threads,size", "--response", "tput", "--run", "run"];

/** Writes the table to `path` as CSV: host,freq,threads,size,run,tput. */
export function writeTwoHostRuns(path: string, opts: TwoHostRunsOptions = {}): void {
  const lines = ["host,freq,threads,size,run,tput"];
  for (const host of ["a", "b"])
    for (const f of [1, 2, 3, 4])
      for (const t of [1, 2, 4])
        for (const s of [8, 16, 32])
          for (let r = 0; r < 4; r++) {
            const mu = 100 + 10 * f * (host === "a" ? 1 : 2) + t * s;
            const same = opts.flat && host === "a" && f === 1 && t === 1 && s === 8;
            const ripple = opts.ripple ? 0.01 * Math.sin(7 * f * t + s) : 0;
            lines.push(`${host},${f},${t},${s},${r},${same ? mu : mu * (1 + 0.02 * f * (r - 1.5) + ripple)}`);
          }
  writeFileSync(path, `${lines.join("\n")}\n`);
}

/** The column flags of the tests' own small runs tables with columns g (factor), x (input), run and y (response). */
export const G_X_ROLES = ["--factors", "g", "--inputs", "x", "--run", "run", "--response", "y"];

/** The column flags of the tests' small host × freq × threads runs tables (columns host, freq, threads, run, tput). */
export const HOST_FREQ_THREADS_ROLES = ["--factors", "host", "--inputs", "freq,threads", "--response", "tput", "--run", "run"];
