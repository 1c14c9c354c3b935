// Progress on stderr: tasks done/total, rate, ETA. cli-progress redraws in place on a terminal; in a batch log
// (not a TTY: Slurm, CI, a pipe) it prints one line every `notTTYSchedule` ms (10 s) so logs stay readable.
import cliProgress from "cli-progress";

export interface Progress {
  start(total: number, done: number): void;
  tick(n: number): void;
  stop(): void;
}

export const silentProgress: Progress = { start() {}, tick() {}, stop() {} };

export function stderrProgress(label: string): Progress {
  const bar = new cliProgress.SingleBar(
    {
      format: `${label} {bar} {value}/{total} tasks | {rate} tasks/s | elapsed {duration_formatted} | ETA {eta_formatted}`,
      stream: process.stderr,
      noTTYOutput: true,
      notTTYSchedule: 10_000,
      fps: 5,
      etaBuffer: 50,
      hideCursor: false,
      barsize: 24,
    },
    cliProgress.Presets.shades_classic,
  );
  let t0 = 0;
  let base = 0;
  let value = 0;
  let idle = false; // nothing left to run: no bar (its ETA would be 0 tasks / 0 s, printed "NULL" cut to "LL")
  const rate = (): string => {
    const s = (Date.now() - t0) / 1000;
    return s > 0 ? ((value - base) / s).toFixed(1) : "0.0";
  };
  return {
    start(total, done) {
      idle = done >= total;
      if (idle) {
        process.stderr.write(`${label}: all ${total} tasks already done\n`);
        return;
      }
      t0 = Date.now();
      base = value = done;
      bar.start(total, done, { rate: "0.0" });
    },
    tick(n) {
      if (idle) return;
      value += n;
      bar.update(value, { rate: rate() });
    },
    stop() {
      if (idle) return;
      bar.update(value, { rate: rate() });
      bar.stop();
    },
  };
}

/** Where countProgress writes: process.stderr, or a stand-in in tests. */
export interface ProgressStream {
  isTTY?: boolean;
  write(s: string): unknown;
}

/**
 * A "done/total <unit>" counter for work that reports its own progress (e.g. `varmap synth`). On a terminal it
 * redraws one line with \r; off a terminal (a batch log, a pipe) it writes plain lines, at most one per
 * `intervalMs` (10 s) plus the last, so logs carry no \r. `end()` finishes the line (terminal) or prints the final count.
 */
export function countProgress(
  label: string,
  unit: string,
  stream: ProgressStream = process.stderr,
  intervalMs = 10_000,
  now: () => number = Date.now,
): { update(done: number, total: number): void; end(): void } {
  let last = -Infinity;
  let pending: string | undefined;
  let drawn = false;
  return {
    update(done, total) {
      const text = `${label}: ${done}/${total} ${unit}`;
      if (stream.isTTY) {
        stream.write(`\r${text}`);
        drawn = true;
        return;
      }
      const t = now();
      if (t - last >= intervalMs || done >= total) {
        stream.write(`${text}\n`);
        last = t;
        pending = undefined;
      } else pending = text;
    },
    end() {
      if (stream.isTTY) {
        if (drawn) stream.write("\n");
      } else if (pending) stream.write(`${pending}\n`);
      pending = undefined;
      drawn = false;
    },
  };
}
