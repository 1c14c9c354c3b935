// The kernel contract. A kernel takes flat buffers (typed arrays) and scalars, writes its results into
// caller-provided buffers and returns a status code. A KernelSpec describes the argument list once; both
// backends run any spec: native passes the typed arrays straight to C++, wasm copies them through linear memory.

export type ArrayKind = "f64" | "i32" | "u8";
export type ArgSpec = { kind: ArrayKind; dir: "in" | "out" | "inout" } | { kind: "int" | "num" };

export interface KernelSpec {
  /** Exported function name, the same in the native addon and in the wasm module. */
  name: string;
  /** Source file stem: native/src/<module>.cc and wasm/<module>.ts. */
  module: string;
  args: readonly ArgSpec[];
  /**
   * True when every array is long enough for the sizes among the scalars. The WebAssembly backend checks it
   * before copying (a wasm kernel sees raw pointers, not lengths); the native bindings check the same themselves.
   */
  lengths?(args: readonly KernelArg[]): boolean;
}

export type KernelArg = Float64Array | Int32Array | Uint8Array | number;

export interface KernelBackend {
  readonly name: "native" | "wasm";
  /** Runs one batched kernel call; returns its status code (0 = ok). Never throws for bad data. */
  run(spec: KernelSpec, args: readonly KernelArg[]): number;
}

// Shorthands for writing specs.
export const arg = {
  f64in: { kind: "f64", dir: "in" },
  f64out: { kind: "f64", dir: "out" },
  f64inout: { kind: "f64", dir: "inout" },
  i32in: { kind: "i32", dir: "in" },
  i32out: { kind: "i32", dir: "out" },
  i32inout: { kind: "i32", dir: "inout" },
  u8in: { kind: "u8", dir: "in" },
  u8out: { kind: "u8", dir: "out" },
  int: { kind: "int" },
  num: { kind: "num" },
} as const satisfies Record<string, ArgSpec>;
