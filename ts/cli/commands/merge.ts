// Placeholder until issue #8 lands.
import type { Command } from "commander";
import { VarmapError } from "../../errors.js";

export function register(program: Command): void {
  program
    .command("merge")
    .description("combine the output directories of --shard runs (not implemented yet)")
    .allowUnknownOption()
    .allowExcessArguments()
    .action(() => {
      throw new VarmapError("E_NOT_IMPLEMENTED", "`varmap merge` is not implemented yet (issue #8)");
    });
}
