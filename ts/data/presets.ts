// Column roles of the two real datasets in ../shared/data (and of `varmap synth`'s output).
import { VarmapError } from "../errors.js";
import { TOOL_PRESETS } from "../import/registry.js";
import type { ColumnRoles } from "./types.js";

const INPUTS = ["freq_khz", "threads", "fsize_kb", "rsize_kb"];

export interface Preset {
  roles: ColumnRoles;
  /**
   * iozone-2018.csv restarts its run index in 15 configurations (two sessions of 50 runs, indices 0..49 twice):
   * those are distinct runs, so the preset accepts repeated indices (ordered by index, then file row) instead of
   * rejecting them as duplicates.
   */
  allowDuplicateRuns: boolean;
  /**
   * A benchmark tool's table (`varmap import <tool>`, issue 42): the roles depend on which settings varied, so they
   * are read from the file's columns (ts/import rolesFromColumns); `roles` is empty.
   */
  tool?: string;
}

export const PRESETS: Record<string, Preset> = {
  // Tables `varmap import <tool>` writes (issue 42); the papers' presets below keep their names.
  ...Object.fromEntries(
    Object.entries(TOOL_PRESETS).map(([name, tool]) => [name, { roles: { factors: [], inputs: [], response: "" }, allowDuplicateRuns: false, tool }]),
  ),
  moana: { roles: { factors: ["host_sched", "vm_sched", "mode"], inputs: INPUTS, run: "run", response: "throughput_kbps" }, allowDuplicateRuns: false },
  iozone: { roles: { factors: ["dataset", "host", "test"], inputs: INPUTS, run: "run", response: "throughput_kbps" }, allowDuplicateRuns: true },
};

export function presetOf(name: string): Preset {
  const p = PRESETS[name];
  if (!p) {
    throw new VarmapError("E_USAGE", `unknown preset '${name}'`, { remedy: `use one of: ${Object.keys(PRESETS).join(", ")}` });
  }
  return { roles: { ...p.roles, factors: [...p.roles.factors], inputs: [...p.roles.inputs] }, allowDuplicateRuns: p.allowDuplicateRuns, tool: p.tool };
}
