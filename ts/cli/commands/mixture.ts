// Placeholder until issue #7 lands.
import type { Command } from "commander";
import { VarmapError } from "../../errors.js";

export function register(program: Command): void {
  program
    .command("mixture")
    .description("mixture models of every configuration's runs, BIC selection (not implemented yet)")
    .allowUnknownOption()
    .allowExcessArguments()
    .action(() => {
      throw new VarmapError("E_NOT_IMPLEMENTED", "`varmap mixture` is not implemented yet (issue #7)");
    });
}
