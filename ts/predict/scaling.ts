// Input normalization (unit cube, optionally log2 first for chosen columns) and response scale.
// The fitted transform is stored with the model so new configurations are transformed identically.
import { VarmapError, type ErrorLocation } from "../errors.js";
import type { Matrix } from "./matrix.js";

export interface InputScalingOptions {
  /** "unit": map each column to [0,1] over `lo`/`hi` (default: the training data's range); "none": use inputs as given. */
  kind?: "unit" | "none";
  /** Column indices transformed by log2 before the unit-cube mapping (power-of-two axes). */
  log2?: number[];
  /** Explicit bounds (after log2), e.g. those of the whole map rather than of one training split. */
  lo?: number[];
  hi?: number[];
}

export interface InputScalerJSON {
  kind: "unit" | "none";
  log2: number[];
  lo: number[];
  hi: number[];
}

export class InputScaler {
  private constructor(readonly state: InputScalerJSON) {}

  static fit(X: Matrix, opts: InputScalingOptions = {}): InputScaler {
    const kind = opts.kind ?? "unit";
    const log2 = [...(opts.log2 ?? [])];
    for (const c of log2)
      if (!Number.isInteger(c) || c < 0 || c >= X.cols)
        throw new VarmapError("E_OPTION", `log2 column ${c} is out of range for ${X.cols} inputs`, { remedy: "name columns by 0-based index" });
    const lo: number[] = [];
    const hi: number[] = [];
    if (kind === "unit") {
      for (let j = 0; j < X.cols; j++) {
        let mn = Infinity;
        let mx = -Infinity;
        for (let i = 0; i < X.rows; i++) {
          const v = transformValue(X.data[i * X.cols + j], log2.includes(j), j);
          if (v < mn) mn = v;
          if (v > mx) mx = v;
        }
        lo.push(opts.lo?.[j] ?? mn);
        hi.push(opts.hi?.[j] ?? mx);
      }
    }
    return new InputScaler({ kind, log2, lo, hi });
  }

  static fromJSON(s: InputScalerJSON): InputScaler {
    return new InputScaler({ kind: s.kind, log2: [...s.log2], lo: [...s.lo], hi: [...s.hi] });
  }

  toJSON(): InputScalerJSON {
    return { kind: this.state.kind, log2: [...this.state.log2], lo: [...this.state.lo], hi: [...this.state.hi] };
  }

  transform(X: Matrix): Matrix {
    const { kind, log2, lo, hi } = this.state;
    if (kind === "none" && log2.length === 0) return X;
    const out = new Float64Array(X.data.length);
    for (let i = 0; i < X.rows; i++)
      for (let j = 0; j < X.cols; j++) {
        let v = transformValue(X.data[i * X.cols + j], log2.includes(j), j);
        if (kind === "unit") {
          const w = hi[j] - lo[j];
          v = w > 0 ? (v - lo[j]) / w : 0;
        }
        out[i * X.cols + j] = v;
      }
    return { data: out, rows: X.rows, cols: X.cols };
  }
}

/**
 * The first non-positive value of a log2-scaled column among `rows` queries (raw inputs, rows × names.length): a
 * query outside the domain of a model fitted on a log scale, for messages that name the column and the row.
 */
export function firstNonPositiveLogInput(
  log2: readonly number[],
  names: readonly string[],
  X: Float64Array,
  rows: number,
): { row: number; column: string; value: number } | undefined {
  const d = names.length;
  for (let k = 0; k < rows; k++) for (const j of log2) if (!(X[k * d + j] > 0)) return { row: k, column: names[j], value: X[k * d + j] };
  return undefined;
}

/** The error for such a value (firstNonPositiveLogInput), at `location`. */
export function logInputError(bad: { column: string; value: number }, location: ErrorLocation): VarmapError {
  return new VarmapError("E_LOG_INPUT", `${bad.column} = ${bad.value}, but the model takes its log2 (it was fitted with ${bad.column} on a log scale)`, {
    location: { ...location, column: bad.column },
    remedy: `give a positive ${bad.column}, or refit without logging it (--log-inputs without ${bad.column})`,
  });
}

function transformValue(v: number, log: boolean, col: number): number {
  if (!log) return v;
  if (!(v > 0))
    throw new VarmapError("E_LOG_INPUT", `input column ${col} has the non-positive value ${v} but is log2-scaled`, {
      remedy: "log-scale only columns whose values are all positive",
    });
  return Math.log2(v);
}

export type ResponseScale = "linear" | "log";

export function toModelScale(y: Float64Array, scale: ResponseScale): Float64Array {
  if (scale === "linear") return y;
  const out = new Float64Array(y.length);
  for (let i = 0; i < y.length; i++) {
    if (!(y[i] > 0))
      throw new VarmapError("E_LOG_RESPONSE", `response value ${y[i]} at position ${i} is not positive, so it has no logarithm`, {
        remedy: "drop --log-response, or remove non-positive responses",
      });
    out[i] = Math.log(y[i]);
  }
  return out;
}

export function fromModelScale(y: Float64Array, scale: ResponseScale): Float64Array {
  if (scale === "linear") return y;
  for (let i = 0; i < y.length; i++) y[i] = Math.exp(y[i]);
  return y;
}
