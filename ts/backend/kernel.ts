// The kernel contract. A kernel takes flat buffers (typed arrays) and scalars, writes its results into
// caller-provided buffers and returns a status code. A KernelSpec describes the argument list once; both
// backends run any spec: native passes the typed arrays straight to C++, wasm copies them through linear memory.
//
// The buffer contract is stated once, here in TypeScript: each spec's `args` (the kind of every argument) and
// `lengths()` (how long each buffer must be for the sizes among the scalars). `checkKernelArgs` checks both, in
// O(number of arguments), before any kernel runs, on both backends, and a refused call is Status.BAD_ARGUMENT (a
// coded E_KERNEL_ARGUMENT once the wrapper calls checkStatus):
// - wasm (wasm.ts) calls it before copying into linear memory (a wasm kernel sees raw pointers, not lengths);
// - native (native.ts) hands it to the addon at load (`setArgumentCheck`), and every exported binding calls it
//   back before running (native/binding/registry.h), with the spec as `this`. The bindings themselves only read
//   their arguments (typed-array class and scalars, generically in registry.h) and call the kernel: they restate
//   no length. A direct call of the addon that is not through NativeBackend (no spec as `this`, or before a
//   check is installed) is refused with BAD_ARGUMENT, so a bad call still cannot reach a kernel and crash.
// Why this design rather than a length check in each binding: the same formulas written twice (C++ and
// TypeScript) drift (the signs of sqdist's and knn's sizes were checked in C++ only), and a generic C++ check
// cannot know how many values a kernel reads without them. The cost: one JavaScript call per native kernel call
// (about 0.4 µs of CPU, bench/kernel-call-overhead.ts; kernel calls are batched, so it vanishes in any real batch).
// The trust is the same on both backends: a wrong lengths() is a bug on both, which
// test/backend/short-buffers.test.ts catches by shortening every buffer of every registered kernel.

export type ArrayKind = "f64" | "i32" | "u8";
export type ArgSpec = { kind: ArrayKind; dir: "in" | "out" | "inout" } | { kind: "int" | "num" };

export interface KernelSpec {
  /** Exported function name, the same in the native addon and in the wasm module. */
  name: string;
  /** Source file stem: native/src/<module>.cc and wasm/<module>.ts. */
  module: string;
  args: readonly ArgSpec[];
  /**
   * True when every array is long enough for the sizes among the scalars (and offsets inside the buffers): the
   * only statement of the buffer contract, checked by checkKernelArgs for both backends. It is called only after
   * the argument kinds are checked (arrays are of their declared class, `int`s are int32 integers), and must be
   * O(number of arguments) apart from walking offset arrays the kernel walks anyway.
   */
  lengths?(args: readonly KernelArg[]): boolean;
}

export type KernelArg = Float64Array | Int32Array | Uint8Array | number;

export interface KernelBackend {
  readonly name: "native" | "wasm";
  /** Runs one batched kernel call; returns its status code (0 = ok). Never throws for bad data. */
  run(spec: KernelSpec, args: readonly KernelArg[]): number;
}

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

/** True when `a` is a typed array of the class `kind` names. */
export function isKind(kind: ArrayKind, a: unknown): boolean {
  return kind === "f64" ? a instanceof Float64Array : kind === "i32" ? a instanceof Int32Array : a instanceof Uint8Array;
}

/**
 * The buffer contract of `spec`, checked for one call: the arity, each argument's kind (typed-array class; `int`
 * an integer in int32 range, `num` any number) and spec.lengths(). False means the call must not run.
 */
export function checkKernelArgs(spec: KernelSpec, args: readonly unknown[]): boolean {
  const specs = spec.args;
  if (args.length !== specs.length) return false;
  for (let i = 0; i < specs.length; i++) {
    const s = specs[i];
    const a = args[i];
    if (s.kind === "int") {
      if (!(typeof a === "number" && Number.isInteger(a) && a >= INT32_MIN && a <= INT32_MAX)) return false;
    } else if (s.kind === "num") {
      if (typeof a !== "number") return false;
    } else if (!isKind(s.kind, a)) return false;
  }
  try {
    return spec.lengths ? spec.lengths(args as readonly KernelArg[]) === true : true;
  } catch {
    return false; // a lengths() that throws on odd input refuses it
  }
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
