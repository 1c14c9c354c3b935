// Placeholder until issue #3 lands.
import type { Command } from "commander";
import { VarmapError } from "../../errors.js";

export function register(program: Command): void {
  program
    .command("synth")
    .description("full-scale synthetic datasets (MOANA and mixture designs) (not implemented yet)")
    .allowUnknownOption()
    .allowExcessArguments()
    .action(() => {
      throw new VarmapError("E_NOT_IMPLEMENTED", "`varmap synth` is not implemented yet (issue #3)");
    });
}
