// The convention every bench/*-workload script follows so `npm run bench:docs` (bench/benchmarks-doc.ts) can
// collect its figures: with `--save FILE.json` the script writes one WorkloadRecord there, and on stdout it prints
// each figure with its ratio to the goal (printFigure). A ratio is "times better than the goal": goal / figure
// for a ceiling (seconds), figure / goal for a floor (a speed-up), so a ratio >= 1 means the goal is met.
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { dirname } from "node:path";

export interface Goal {
  /** "<=": the figure must not exceed value (a time); ">=": it must reach it (a speed-up). */
  op: "<=" | ">=";
  value: number;
  unit: string;
  /** The goal as the issue states it. */
  text: string;
}

export interface Figure {
  name: string;
  figure: number;
  unit: string;
  goal?: Goal;
  /** Times better than the goal (>= 1: met). */
  ratio?: number;
  met?: boolean;
  /** The reference code's figure on the same work, when there is one. */
  reference?: { name: string; figure: number; unit: string };
  note?: string;
}

export interface Machine {
  cpu: string;
  cores: number;
  /** Load average (1, 5, 15 min) when the figures were taken: the machine may be shared. */
  loadavg: number[];
  node: string;
  platform: string;
  backend: string;
}

export interface WorkloadRecord {
  workload: string;
  /** The command that produced the figures (from the package root). */
  command: string;
  when: string;
  machine: Machine;
  figures: Figure[];
}

export function machine(backend = process.env.VARMAP_BACKEND ?? "auto"): Machine {
  const c = cpus();
  return {
    cpu: c[0]?.model.trim() ?? "unknown",
    cores: c.length,
    loadavg: loadavg().map((x) => Math.round(x * 100) / 100),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    backend,
  };
}

/** A figure with its ratio to the goal filled in. */
export function figure(name: string, value: number, unit: string, goal?: Goal, extra: Partial<Figure> = {}): Figure {
  const f: Figure = { name, figure: value, unit, ...extra };
  if (goal) {
    f.goal = goal;
    f.ratio = goal.op === "<=" ? goal.value / value : value / goal.value;
    f.met = f.ratio >= 1;
  }
  return f;
}

export function formatFigure(f: Figure): string {
  const v = f.figure >= 100 ? f.figure.toFixed(0) : f.figure >= 1 ? f.figure.toFixed(2) : f.figure.toPrecision(3);
  let s = `${f.name}: ${v} ${f.unit}`;
  if (f.goal && f.ratio !== undefined) s += ` — goal ${f.goal.text}: ratio ${f.ratio.toFixed(2)} (${f.met ? "met" : "NOT met"})`;
  if (f.reference) s += `; ${f.reference.name} ${f.reference.figure.toPrecision(3)} ${f.reference.unit}`;
  return s;
}

export function printFigures(figs: readonly Figure[]): void {
  for (const f of figs) process.stdout.write(formatFigure(f) + "\n");
}

/** The command line as typed from the package root (node dist/bench/x.js …), quoting arguments with spaces. */
export function commandLine(): string {
  const script = process.argv[1].replace(/^.*\/dist\//, "dist/");
  const args = process.argv.slice(2).map((a) => (/[\s'"]/.test(a) ? `'${a.replace(/'/g, "'\\''")}'` : a));
  return ["node", script, ...args].join(" ");
}

/** Writes the record where --save asked (if it did). */
export function saveRecord(path: string | undefined, rec: Omit<WorkloadRecord, "when" | "command" | "machine"> & Partial<WorkloadRecord>): void {
  if (!path) return;
  const full: WorkloadRecord = { command: commandLine(), when: new Date().toISOString(), machine: machine(), ...rec } as WorkloadRecord;
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(full, null, 2) + "\n");
}

/** Runs fn once: its value, wall seconds and process CPU seconds (all threads). */
export function timed<T>(fn: () => T): { value: T; wall: number; cpu: number } {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const value = fn();
  const c = process.cpuUsage(c0);
  return { value, wall: (performance.now() - t0) / 1000, cpu: (c.user + c.system) / 1e6 };
}
