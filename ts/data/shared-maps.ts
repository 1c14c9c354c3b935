// Variability maps packed into SharedArrayBuffers, so every worker reads the same memory without a copy:
// all maps' raw inputs in one Float64Array, all responses in another, with per-map offsets. Handed to the
// workers once (Piscina workerData), never per task.
import { createHash } from "node:crypto";
import type { VariabilityMap } from "./types.js";

export interface MapMeta {
  /** Factor name → value. */
  key: Record<string, string>;
  inputNames: string[];
  rows: number;
  normalization: { log2: boolean[]; lo: number[]; hi: number[] };
}

export interface SharedMaps {
  meta: MapMeta[];
  /** Start of map m's inputs in X (in doubles); X rows are row-major with meta[m].inputNames.length columns. */
  xStart: number[];
  /** Start of map m's responses in y. */
  yStart: number[];
  X: Float64Array;
  y: Float64Array;
  /** The responses' sampling variances at the same offsets as y, when every map has them (VariabilityMap.yVar). */
  yVar?: Float64Array;
}

function sharedF64(n: number): Float64Array {
  return new Float64Array(new SharedArrayBuffer(Math.max(1, n) * 8), 0, n);
}

export function packMaps(maps: readonly VariabilityMap[]): SharedMaps {
  const xStart: number[] = [];
  const yStart: number[] = [];
  let nx = 0;
  let ny = 0;
  for (const m of maps) {
    xStart.push(nx);
    yStart.push(ny);
    nx += m.X.length;
    ny += m.y.length;
  }
  const X = sharedF64(nx);
  const y = sharedF64(ny);
  const yVar = maps.length > 0 && maps.every((m) => m.yVar) ? sharedF64(ny) : undefined;
  maps.forEach((m, i) => {
    X.set(m.X, xStart[i]);
    y.set(m.y, yStart[i]);
    if (yVar) yVar.set(m.yVar!, yStart[i]);
  });
  const meta = maps.map((m) => ({
    key: { ...m.key },
    inputNames: [...m.inputNames],
    rows: m.rows,
    normalization: { log2: [...m.normalization.log2], lo: [...m.normalization.lo], hi: [...m.normalization.hi] },
  }));
  return { meta, xStart, yStart, X, y, ...(yVar ? { yVar } : {}) };
}

/** One map as a task sees it: views into the shared buffers, and its metadata. */
export interface MapData {
  X: Float64Array;
  y: Float64Array;
  rows: number;
  cols: number;
  meta: MapMeta;
  /** The responses' sampling variances (SharedMaps.yVar), when known. */
  yVar?: Float64Array;
}

/** Map m's inputs and responses as views into the shared buffers. */
export function mapView(s: SharedMaps, m: number): MapData {
  const meta = s.meta[m];
  const cols = meta.inputNames.length;
  return {
    X: s.X.subarray(s.xStart[m], s.xStart[m] + meta.rows * cols),
    y: s.y.subarray(s.yStart[m], s.yStart[m] + meta.rows),
    rows: meta.rows,
    cols,
    meta,
    ...(s.yVar ? { yVar: s.yVar.subarray(s.yStart[m], s.yStart[m] + meta.rows) } : {}),
  };
}

/** A short label naming a map: its factor values, or "all" when the table has no factors. */
export function mapLabel(key: Record<string, string>): string {
  const parts = Object.entries(key).map(([k, v]) => `${k}=${v}`);
  return parts.length ? parts.join(";") : "all";
}

/** A fingerprint of the data the job computes on: a rerun resumes only into an output of the same data. */
export function fingerprint(s: SharedMaps): string {
  const h = createHash("sha256");
  h.update(JSON.stringify(s.meta));
  h.update(new Uint8Array(s.X.buffer, s.X.byteOffset, s.X.byteLength));
  h.update(new Uint8Array(s.y.buffer, s.y.byteOffset, s.y.byteLength));
  // The variances come from the runs behind y: the same y from other runs is other data for a noise-aware method.
  if (s.yVar) h.update(new Uint8Array(s.yVar.buffer, s.yVar.byteOffset, s.yVar.byteLength));
  return h.digest("hex").slice(0, 32);
}
