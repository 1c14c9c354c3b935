// Placeholder until issue #4 lands.
import type { Command } from "commander";
import { VarmapError } from "../../errors.js";

export function register(program: Command): void {
  program
    .command("predict")
    .description("predict the map statistic at new configurations (not implemented yet)")
    .allowUnknownOption()
    .allowExcessArguments()
    .action(() => {
      throw new VarmapError("E_NOT_IMPLEMENTED", "`varmap predict` is not implemented yet (issue #4)");
    });
}
