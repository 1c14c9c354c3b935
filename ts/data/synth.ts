// Full-scale synthetic datasets (`varmap synth`): the MOANA design of seed 000 (117 maps × 810 configurations ×
// 40 runs) and the mixture design of seed 001 (22,734 configurations × 150 runs), streamed to CSV or Parquet.
//
// Every configuration draws its runs from its own counter-based stream counterRng(seed, design, configId), so
// the output is a pure function of the seed: it does not depend on chunking, on --maps, or on which
// configurations are generated together (generateRuns(plan, seed, id) alone gives configuration id's runs).
//
// Model of one configuration: a mixture of k = 1..5 components of one of the six families of seed 001, whose
// overall mean μ and coefficient of variation cv are smooth functions of the configuration (so the maps are
// learnable), while the shape (k, family, weights, mode positions, share ρ of the variance between modes) is drawn
// per configuration (so distributions are multimodal and skewed, as the papers report). By construction the
// mixture has mean μ and standard deviation cv·μ exactly: components sit at μ(1 + √ρ·cv·z_j) with z standardized
// under the weights, each with standard deviation √(1−ρ)·cv·μ.
//
// Calibration against ../shared/data (medians over configurations, computed with DuckDB from
// golden/moana-map.csv and golden/mixture-config-stats.csv, then compared with `varmap summarize` of the output):
//  - MOANA fread map: mean throughput grows about linearly with threads (1.2e6 kB/s at 1 thread to 3.9e8 at 256),
//    by ≈ 40% from 1.2 to 3.0 GHz, and with file size (64 KB ≈ 0.3–0.4, 256 KB ≈ 0.7 of 1024 KB); cv falls with
//    threads (0.65 → 0.38) and with file and record size (0.73 at 64/32 KB → 0.36 at 1024/32 and 0.17 at
//    1024/512), the size effect growing with the thread count; run skewness mostly within ±0.6. MOANA_MODES'
//    fread row and the exponents below reproduce these (synthetic fread: mean 1.18e6 → 3.9e8, cv 0.70 → 0.26 by
//    threads, 0.74 → 0.26 by size); the other 12 modes are scaled around it (writers slower and steadier,
//    re-reads faster), and the schedulers change levels by a few percent ("few differences across scheduling
//    combinations", seed 000 footnote 3).
//  - iozone-2018 (mixture design): per-test median mean 2.2e6–3.7e6 kB/s and cv 0.07 (initial writers) to 0.55
//    (readers); cv falls steeply with file size (0.97 at 4 KB → 0.07 at 64 MB); means peak near 16–48 threads.
//    Synthetic per-test medians: mean 2.1e6–3.6e6, cv 0.06–0.43.
// Runs are rounded to 0.01 kB/s like the real files, and floored at 0.1% of μ so they stay positive (the log
// families of seed 001 need positive data).
import { closeSync, openSync, readSync, rmSync } from "node:fs";
import { writeAll } from "./io.js";
import { VarmapError } from "../errors.js";
import { familyLaw, familySampler, type Family } from "./families.js";
import { counterRng, type CounterRng } from "./random.js";
import { csvToParquet, tempPathFor, writeAtomic, writeTable, tableFormat } from "./write.js";

// The design's families, frozen: the seeded datasets draw a family by its index in this list, so a family added to
// the samplers (families.ts) or to the mixture fits must not change every synthetic dataset. Never edit it.
const SYNTHETIC_FAMILIES: readonly Family[] = ["normal", "gamma", "weibull", "lognormal", "loglogistic", "frechet"];

export type DesignName = "moana" | "mixture";

/** What a design generates: maps (factor values) × settings (freq_khz, threads, fsize_kb, rsize_kb), runs each. */
export interface SynthPlan {
  design: DesignName;
  factorNames: string[];
  maps: string[][];
  settings: [number, number, number, number][];
  runs: number;
  /** Per map: mean level and cv level multipliers, from the mode/scheduler tables. */
  mapLevel: { mean: number; cv: number; mode: string }[];
}

export const INPUT_NAMES = ["freq_khz", "threads", "fsize_kb", "rsize_kb"] as const;

// Mode → [mean throughput level (kB/s), cv level]; fread calibrated on the real map, the others scaled around it.
const MOANA_MODES: [string, number, number][] = [
  ["initial-writers", 0.9e6, 0.35],
  ["rewriters", 1.2e6, 0.45],
  ["readers", 1.8e6, 0.9],
  ["re-readers", 2.0e6, 0.85],
  ["random-readers", 1.5e6, 0.7],
  ["random-writers", 0.8e6, 0.5],
  ["backward-readers", 1.4e6, 0.8],
  ["record-rewriters", 1.3e6, 0.5],
  ["stride-readers", 1.5e6, 0.75],
  ["fwrite", 0.85e6, 0.4],
  ["re-fwrite", 1.1e6, 0.45],
  ["fread", 1.6e6, 1.0],
  ["re-fread", 1.9e6, 0.95],
];
const SCHEDULERS: [string, number, number][] = [
  ["CFQ", 1.0, 1.0],
  ["DEADLINE", 1.05, 0.95],
  ["NOOP", 0.97, 1.04],
];
// iozone-2018 per-test medians: mean level at 16 threads and 16 MB files, cv level at 4 MB files.
const MIXTURE_MODES: [string, number, number][] = [
  ["initial-writers", 3.7e6, 0.07],
  ["random-readers", 3.7e6, 0.15],
  ["random-writers", 2.2e6, 0.18],
  ["re-readers", 2.6e6, 0.47],
  ["readers", 3.0e6, 0.55],
  ["rewriters", 3.4e6, 0.21],
];
export const MIXTURE_CONFIGS = 22_734;

export function synthPlan(design: DesignName, seed: number | string, maxMaps?: number): SynthPlan {
  let plan: SynthPlan;
  if (design === "moana") {
    const freqs = [1.2, 1.4, 1.5, 1.6, 1.8, 1.9, 2.0, 2.1, 2.3, 2.4, 2.5, 2.7, 2.8, 2.9, 3.0].map((g) => Math.round(g * 1e6));
    const threads = [1, 2, 4, 8, 16, 32, 64, 128, 256];
    const sizes: [number, number][] = [
      [64, 32],
      [256, 32],
      [256, 128],
      [1024, 32],
      [1024, 128],
      [1024, 512],
    ];
    const settings: SynthPlan["settings"] = [];
    for (const f of freqs) for (const t of threads) for (const [fs, rs] of sizes) settings.push([f, t, fs, rs]);
    const maps: string[][] = [];
    const mapLevel: SynthPlan["mapLevel"] = [];
    for (const [h, hm, hc] of SCHEDULERS)
      for (const [v, vm, vc] of SCHEDULERS)
        for (const [mode, mm, mc] of MOANA_MODES) {
          maps.push([h, v, mode]);
          mapLevel.push({ mean: mm * hm * vm, cv: mc * hc * vc, mode });
        }
    plan = { design, factorNames: ["host_sched", "vm_sched", "mode"], maps, settings, runs: 40, mapLevel };
  } else if (design === "mixture") {
    // Seed 001 Table 1 levels; file size a multiple of record size. 3,789 of the 5,481 valid settings, the same
    // for each of the 6 modes (3,789 × 6 = 22,734), chosen by the seed: the settings with the smallest draws.
    const freqs = [1.2, 1.6, 2.0, 2.3, 2.8, 3.2, 3.5].map((g) => Math.round(g * 1e6));
    const threads = [1, 8, 16, 24, 32, 40, 48, 56, 64];
    const fsizes = [4, 16, 64, 256, 1024, 4096, 8192, 16384, 32768, 65536];
    const rsizes = [4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384];
    const all: SynthPlan["settings"] = [];
    for (const f of freqs) for (const t of threads) for (const fs of fsizes) for (const rs of rsizes) if (fs % rs === 0) all.push([f, t, fs, rs]);
    const per = MIXTURE_CONFIGS / MIXTURE_MODES.length;
    const draws = all.map((_, i) => counterRng(seed, "mixture-settings", i).next());
    const chosen = all
      .map((_, i) => i)
      .sort((a, b) => draws[a] - draws[b] || a - b)
      .slice(0, per)
      .sort((a, b) => a - b);
    const settings = chosen.map((i) => all[i]);
    const maps = MIXTURE_MODES.map(([mode]) => ["synthetic", "s01", mode]);
    const mapLevel = MIXTURE_MODES.map(([mode, m, c]) => ({ mean: m, cv: c, mode }));
    plan = { design, factorNames: ["dataset", "host", "test"], maps, settings, runs: 150, mapLevel };
  } else {
    throw new VarmapError("E_USAGE", `unknown design '${design as string}'`, { remedy: "use --design moana or --design mixture" });
  }
  if (maxMaps !== undefined) {
    if (!(Number.isInteger(maxMaps) && maxMaps >= 1))
      throw new VarmapError("E_USAGE", `--maps must be a positive integer (got ${maxMaps})`, { remedy: "e.g. --maps 2" });
    plan.maps = plan.maps.slice(0, maxMaps);
    plan.mapLevel = plan.mapLevel.slice(0, maxMaps);
  }
  return plan;
}

/** Target mean and cv of a configuration: smooth in its (normalized, log2 where power-of-two) inputs. */
export function targetLevels(plan: SynthPlan, seed: number | string, mapIndex: number, s: [number, number, number, number]): { mean: number; cv: number } {
  const [fk, t, fs, rs] = s;
  const g = fk / 1e6;
  const lv = plan.mapLevel[mapIndex];
  // Map-specific smooth modulation (phase and amplitude from the map's own stream) so maps differ in shape.
  const mr = counterRng(seed, plan.design, "map", mapIndex);
  const ph1 = mr.next();
  const ph2 = mr.next();
  const a1 = 0.1 + 0.1 * mr.next();
  const a2 = 0.15 + 0.15 * mr.next();
  let mean: number;
  let cv: number;
  if (plan.design === "moana") {
    const uf = (g - 1.2) / 1.8;
    const ut = Math.log2(t) / 8;
    mean = lv.mean * Math.pow(t, 0.99) * Math.pow(fs / 1024, 0.33) * Math.pow(rs / 32, -0.07) * (1 + 0.23 * (g - 1.2));
    mean *= 1 + a1 * Math.sin(2 * Math.PI * (ph1 + 0.5 * ut + 0.3 * uf));
    // Size matters little at 1 thread and much at 256 (the real map's cv is ≈ 0.65 at 1 thread whatever the
    // size, but 0.17–0.36 at 1024 KB overall): the size exponents grow with log2(threads).
    const sizeWeight = 0.3 + 0.9 * ut;
    cv = lv.cv * Math.pow(t, -0.07) * Math.pow(fs / 64, -0.3 * sizeWeight) * Math.pow(rs / 32, -0.2 * sizeWeight);
    cv *= 1 + a2 * Math.sin(2 * Math.PI * (ph2 + 0.7 * uf + 0.4 * ut));
  } else {
    const uf = (g - 1.2) / 2.3;
    const ut = (t - 1) / 63;
    mean = lv.mean * Math.pow(t / 16, 0.5) * Math.exp(-Math.pow((t - 24) / 70, 2)) * Math.pow(1 + 16384 / fs, -0.6) * Math.pow(2, 0.6);
    mean *= (1 + 0.15 * (g - 1.2)) * (1 + a1 * Math.sin(2 * Math.PI * (ph1 + 0.6 * ut + 0.4 * uf)));
    cv = lv.cv * Math.pow(fs / 4096, -0.2) * Math.pow(rs / 64, -0.05);
    cv *= 1 + a2 * Math.sin(2 * Math.PI * (ph2 + 0.5 * uf + 0.5 * ut));
  }
  return { mean, cv: Math.min(1.3, Math.max(0.02, cv)) };
}

const K_PROBS = [0.15, 0.35, 0.25, 0.15, 0.1]; // components 1..5: mostly multimodal (seed 001 Fig. 1)

/** One component of a configuration's law: weight, family and the sampler's mean and standard deviation. */
export interface LawComponent {
  weight: number;
  family: Family;
  mean: number;
  sd: number;
}

/**
 * The law configuration (mapIndex, settingIndex) draws its runs from: max(floor, X) with X a finite mixture of
 * `components` (runs are then rounded to 0.01). `rng` is the configuration's stream positioned after the shape
 * draws, where the run draws begin.
 */
interface DrawnLaw {
  components: LawComponent[];
  floor: number;
  rng: CounterRng;
}

function drawLaw(plan: SynthPlan, seed: number | string, mapIndex: number, settingIndex: number): DrawnLaw {
  const id = mapIndex * plan.settings.length + settingIndex;
  const { mean, cv } = targetLevels(plan, seed, mapIndex, plan.settings[settingIndex]);
  const r = counterRng(seed, plan.design, id);
  let k = 1;
  for (let u = r.next(), acc = K_PROBS[0]; u >= acc && k < 5; acc += K_PROBS[k], k++);
  const family = SYNTHETIC_FAMILIES[r.int(SYNTHETIC_FAMILIES.length)];
  const w: number[] = [];
  const pos: number[] = [];
  for (let j = 0; j < k; j++) {
    w.push(0.3 + r.next());
    pos.push(j + 0.6 * (r.next() - 0.5));
  }
  const wsum = w.reduce((a, b) => a + b, 0);
  for (let j = 0; j < k; j++) w[j] /= wsum;
  let pbar = 0;
  for (let j = 0; j < k; j++) pbar += w[j] * pos[j];
  let pvar = 0;
  for (let j = 0; j < k; j++) pvar += w[j] * (pos[j] - pbar) ** 2;
  const z = pos.map((p) => (k > 1 ? (p - pbar) / Math.sqrt(pvar) : 0));
  let rho = k > 1 ? 0.3 + 0.6 * r.next() : 0;
  // Keep every component's mean ≥ 0.2 μ.
  const zmin = Math.min(...z);
  if (zmin < 0) rho = Math.min(rho, (0.8 / (cv * -zmin)) ** 2);
  const within = Math.sqrt(1 - rho) * cv * mean;
  const components = z.map((zj, j): LawComponent => {
    const m = mean * (1 + Math.sqrt(rho) * cv * zj);
    // A normal component too wide for positive data becomes a gamma one.
    return { weight: w[j], family: family === "normal" && within / m > 0.3 ? "gamma" : family, mean: m, sd: within };
  });
  return { components, floor: 1e-3 * mean, rng: r };
}

/**
 * The true law of configuration (mapIndex, settingIndex) (spec E.5: a noise-free reference for predicted
 * distributions): its mixture components and the floor its draws are raised to. It consumes the same stream as
 * generateRuns, so it is the law of exactly the generated runs (up to their rounding to 0.01).
 */
export function configurationLaw(
  plan: SynthPlan,
  seed: number | string,
  mapIndex: number,
  settingIndex: number,
): { components: LawComponent[]; floor: number } {
  const { components, floor } = drawLaw(plan, seed, mapIndex, settingIndex);
  return { components, floor };
}

/** Fills out[0..plan.runs) with the runs of configuration id = mapIndex · settings + settingIndex. */
export function generateRuns(plan: SynthPlan, seed: number | string, mapIndex: number, settingIndex: number, out: Float64Array): void {
  const { components, floor, rng: r } = drawLaw(plan, seed, mapIndex, settingIndex);
  const k = components.length;
  const samplers = components.map((c) => familySampler(c.family, c.mean, c.sd));
  const cum: number[] = [];
  components.reduce((a, c, j) => (cum[j] = a + c.weight), 0);
  for (let i = 0; i < plan.runs; i++) {
    const u = r.next();
    let j = 0;
    while (j < k - 1 && u >= cum[j]) j++;
    const x = Math.max(floor, samplers[j](r as CounterRng));
    out[i] = Math.round(x * 100) / 100;
  }
}

export interface SynthOptions {
  design: DesignName;
  seed: number | string;
  maps?: number;
  /**
   * Worker threads (default 1): maps are split into contiguous ranges, each written by one worker to its own
   * part file, then concatenated. The bytes are the same for any worker count.
   */
  workers?: number;
  /** Progress callback: configurations written so far, total. */
  progress?: (done: number, total: number) => void;
  /**
   * Writes the part files on workers (the verb passes the job engine's: ts/jobs/synth.ts); without it the parts
   * are written one after the other in this thread. Called with every part; `done(k, configurations)` reports one.
   */
  writeParts?: (parts: SynthPart[], done: (configurations: number) => void) => Promise<void>;
}

/** One part of a synthetic CSV: maps [from, to) of the plan, with the header line when `header`. */
export interface SynthPart {
  path: string;
  design: DesignName;
  seed: number | string;
  maps: number;
  from: number;
  to: number;
  header: boolean;
  sep: "," | "\t";
}

/** Writes one part file; returns the configurations written. */
export function writeSynthPartOf(p: SynthPart): number {
  const plan = synthPlan(p.design, p.seed, p.maps);
  writeSynthPart(p.path, plan, p.seed, p.from, p.to, p.header, undefined, p.sep);
  return (p.to - p.from) * plan.settings.length;
}

/** Writes the dataset to `out` (.csv, .tsv or .parquet), streamed; returns rows and configurations written. */
export async function writeSynth(out: string, opts: SynthOptions): Promise<{ rows: number; configurations: number; maps: number }> {
  const plan = synthPlan(opts.design, opts.seed, opts.maps);
  const parquet = /\.parquet$/i.test(out);
  const tsv = /\.(tsv|tab)$/i.test(out);
  if (!parquet && !tsv && !/\.csv$/i.test(out)) {
    throw new VarmapError("E_USAGE", `cannot tell the output format of '${out}'`, { remedy: "end --out in .csv, .tsv or .parquet" });
  }
  const total = plan.maps.length * plan.settings.length;
  const writeCsv = (path: string) => writeSynthCsv(out, path, plan, opts, tsv ? "\t" : ",");
  await writeAtomic(out, async (tmp) => {
    if (!parquet) return writeCsv(tmp);
    const csv = tempPathFor(out, ".csv");
    try {
      await writeCsv(csv);
      await csvToParquet(csv, tmp, [
        ...plan.factorNames.map((name) => ({ name, type: "string" as const })),
        ...INPUT_NAMES.map((name) => ({ name, type: "int" as const })),
        { name: "run", type: "int" as const },
        { name: "throughput_kbps", type: "double" as const },
      ]);
    } finally {
      rmSync(csv, { force: true });
    }
  });
  return { rows: total * plan.runs, configurations: total, maps: plan.maps.length };
}

/** The whole CSV at `path`: in this thread, or as part files over ranges of maps (written by opts.writeParts), concatenated. */
async function writeSynthCsv(out: string, path: string, plan: SynthPlan, opts: SynthOptions, sep: "," | "\t"): Promise<void> {
  const total = plan.maps.length * plan.settings.length;
  const workers = Math.max(1, Math.min(opts.workers ?? 1, plan.maps.length));
  if (workers === 1 || !opts.writeParts) {
    writeSynthPart(path, plan, opts.seed, 0, plan.maps.length, true, (done) => opts.progress?.(done, total), sep);
    return;
  }
  // More parts than workers, so that progress moves and the workers stay busy; the bytes do not depend on it.
  const count = Math.min(plan.maps.length, workers * 4);
  const bounds = Array.from({ length: count + 1 }, (_, k) => Math.round((k * plan.maps.length) / count));
  const parts: SynthPart[] = bounds.slice(0, -1).map((from, k) => ({
    path: tempPathFor(out, `.part${k}.csv`),
    design: plan.design,
    seed: opts.seed,
    maps: plan.maps.length,
    from,
    to: bounds[k + 1],
    header: k === 0,
    sep,
  }));
  let done = 0;
  try {
    await opts.writeParts(parts, (n) => opts.progress?.((done += n), total));
    concatenate(
      parts.map((p) => p.path),
      path,
    );
  } finally {
    for (const p of parts) rmSync(p.path, { force: true });
  }
}

function concatenate(parts: string[], dest: string): void {
  const fd = openSync(dest, "w");
  const buf = Buffer.allocUnsafe(8 << 20);
  try {
    for (const p of parts) {
      const src = openSync(p, "r");
      try {
        for (let n: number; (n = readSync(src, buf, 0, buf.length, null)) > 0; ) writeAll(fd, buf, dest, 0, n);
      } finally {
        closeSync(src);
      }
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes maps [fromMap, toMap) of the plan as CSV lines (with the header line when `header`). Lines are assembled
 * as bytes in one reusable buffer (string concatenation of 3.8 M lines keeps the garbage collector busy for a
 * fifth of the run): per configuration its prefix, per run "<index>,<value>\n".
 */
export function writeSynthPart(
  path: string,
  plan: SynthPlan,
  seed: number | string,
  fromMap: number,
  toMap: number,
  header: boolean,
  progress?: (done: number) => void,
  sep: "," | "\t" = ",",
): void {
  const fd = openSync(path, "w");
  try {
    const out = Buffer.allocUnsafe(1 << 22);
    let pos = 0;
    const flush = () => {
      writeAll(fd, out, path, 0, pos);
      pos = 0;
    };
    if (header) pos += out.write([...plan.factorNames, ...INPUT_NAMES, "run", "throughput_kbps"].join(sep) + "\n", pos, "latin1");
    const runLabels = Array.from({ length: plan.runs }, (_, i) => Buffer.from(`${i + 1}${sep}`, "latin1"));
    const runs = new Float64Array(plan.runs);
    let done = 0;
    for (let m = fromMap; m < toMap; m++) {
      for (let s = 0; s < plan.settings.length; s++) {
        generateRuns(plan, seed, m, s, runs);
        const prefix = Buffer.from(plan.maps[m].join(sep) + sep + plan.settings[s].join(sep) + sep, "latin1");
        for (let i = 0; i < plan.runs; i++) {
          if (pos > out.length - 512) flush();
          for (let b = 0; b < prefix.length; b++) out[pos++] = prefix[b];
          const label = runLabels[i];
          for (let b = 0; b < label.length; b++) out[pos++] = label[b];
          pos = writeCents(out, pos, Math.round(runs[i] * 100));
          out[pos++] = 10; // "\n"
        }
        if (++done % 5000 === 0) progress?.(done);
      }
    }
    flush();
    progress?.(done);
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes cents/100 in decimal, as String(x) writes x = Math.round(v · 100) / 100 (the shortest representation
 * that reads back as x): integer digits, then ".d" or ".dd" without trailing zeros. Runs are ≥ 0.
 */
function writeCents(out: Buffer, pos: number, cents: number): number {
  let whole = Math.floor(cents / 100);
  const frac = cents - whole * 100;
  const start = pos;
  do {
    out[pos++] = 48 + (whole % 10);
    whole = Math.floor(whole / 10);
  } while (whole > 0);
  for (let a = start, b = pos - 1; a < b; a++, b--) {
    const t = out[a];
    out[a] = out[b];
    out[b] = t;
  }
  if (frac !== 0) {
    out[pos++] = 46; // "."
    out[pos++] = 48 + Math.floor(frac / 10);
    if (frac % 10 !== 0) out[pos++] = 48 + (frac % 10);
  }
  return pos;
}

/** The columns of a truth file (`varmap synth --truth`): one row per mixture component of each configuration. */
export const TRUTH_COLUMNS = ["component", "weight", "family", "a", "b", "floor"] as const;

/**
 * Writes every generated configuration's true law (configurationLaw) as a table: the design's factor and input
 * columns, then `component` (1 … k), `weight`, `family`, `a`, `b` (ts/mixture/families.ts's parameterization:
 * normal mean and sd, gamma shape and scale, log families μ and σ of log x) and `floor` (runs are max(floor, X)).
 * `cv --target distribution --truth FILE` reads it to score predictions against the true CDF (ks_true).
 */
export async function writeSynthTruth(out: string, opts: Pick<SynthOptions, "design" | "seed" | "maps">): Promise<{ rows: number }> {
  tableFormat(out); // E_USAGE for an unknown extension, before any work
  const plan = synthPlan(opts.design, opts.seed, opts.maps);
  const factors: string[][] = plan.factorNames.map(() => []);
  const inputs: number[][] = INPUT_NAMES.map(() => []);
  const component: number[] = [],
    weight: number[] = [],
    family: string[] = [],
    a: number[] = [],
    b: number[] = [],
    floor: number[] = [];
  for (let m = 0; m < plan.maps.length; m++)
    for (let s = 0; s < plan.settings.length; s++) {
      const law = configurationLaw(plan, opts.seed, m, s);
      law.components.forEach((c, j) => {
        plan.maps[m].forEach((v, f) => factors[f].push(v));
        plan.settings[s].forEach((v, i) => inputs[i].push(v));
        const l = familyLaw(c.family, c.mean, c.sd);
        component.push(j + 1);
        weight.push(c.weight);
        family.push(l.family);
        a.push(l.a);
        b.push(l.b);
        floor.push(law.floor);
      });
    }
  await writeTable(out, [
    ...plan.factorNames.map((name, f) => ({ name, values: factors[f], type: "string" as const })),
    ...INPUT_NAMES.map((name, i) => ({ name, values: inputs[i], type: "int" as const })),
    { name: "component", values: component, type: "int" as const },
    { name: "weight", values: weight },
    { name: "family", values: family, type: "string" as const },
    { name: "a", values: a },
    { name: "b", values: b },
    { name: "floor", values: floor },
  ]);
  return { rows: component.length };
}
