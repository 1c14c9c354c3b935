// Placeholder until issue #3 lands.
import type { Command } from "commander";
import { VarmapError } from "../../errors.js";

export function register(program: Command): void {
  program
    .command("summarize")
    .description("configurations and maps with their statistics (not implemented yet)")
    .allowUnknownOption()
    .allowExcessArguments()
    .action(() => {
      throw new VarmapError("E_NOT_IMPLEMENTED", "`varmap summarize` is not implemented yet (issue #3)");
    });
}
