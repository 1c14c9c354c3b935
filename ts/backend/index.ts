export type { ArgSpec, KernelArg, KernelBackend, KernelSpec } from "./kernel.js";
export { arg } from "./kernel.js";
export { Status, checkStatus } from "./status.js";
export { backendInfo, createSelector, getBackend, requestedBackend, resolveBackend, type BackendChoice, type BackendInfo } from "./select.js";
