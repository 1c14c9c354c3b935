// Placeholder until issue #8 lands.
import type { Command } from "commander";
import { VarmapError } from "../../errors.js";

export function register(program: Command): void {
  program
    .command("refit")
    .description("the main job: every map and configuration, all chosen methods (not implemented yet)")
    .allowUnknownOption()
    .allowExcessArguments()
    .action(() => {
      throw new VarmapError("E_NOT_IMPLEMENTED", "`varmap refit` is not implemented yet (issue #8)");
    });
}
