// The part of the WebAssembly JS API varmap uses (Node has it; @types/node 20 does not declare it).
declare namespace WebAssembly {
  class Module {
    constructor(bytes: BufferSource);
    static exports(module: Module): { name: string; kind: string }[];
  }
  class Instance {
    constructor(module: Module, imports?: Record<string, Record<string, unknown>>);
    readonly exports: Record<string, unknown>;
  }
  class Memory {
    readonly buffer: ArrayBuffer;
  }
  class RuntimeError extends Error {}
}
type BufferSource = ArrayBufferView | ArrayBuffer;
