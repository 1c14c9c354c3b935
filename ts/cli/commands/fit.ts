// Placeholder until issue #4 lands.
import type { Command } from "commander";
import { VarmapError } from "../../errors.js";

export function register(program: Command): void {
  program
    .command("fit")
    .description("fit one predictor per map (not implemented yet)")
    .allowUnknownOption()
    .allowExcessArguments()
    .action(() => {
      throw new VarmapError("E_NOT_IMPLEMENTED", "`varmap fit` is not implemented yet (issue #4)");
    });
}
