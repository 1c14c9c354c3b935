// Placeholder until issue #8 lands.
import type { Command } from "commander";
import { VarmapError } from "../../errors.js";

export function register(program: Command): void {
  program
    .command("demo")
    .description("the main job on a generated dataset (not implemented yet)")
    .allowUnknownOption()
    .allowExcessArguments()
    .action(() => {
      throw new VarmapError("E_NOT_IMPLEMENTED", "`varmap demo` is not implemented yet (issue #8)");
    });
}
