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
