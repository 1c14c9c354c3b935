// Issue 44 item 14: a null in a models file (an edit, or JSON's NaN) is refused, not read as 0 (which changed every
// prediction of the map silently).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readModelSets } from "../../ts/predict/models-file.js";
import { cliBuilt, cliIn } from "../helpers/cli.js";
import { isVarmapError } from "../../ts/errors.js";

const dir = mkdtempSync(join(tmpdir(), "varmap-models-null-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const varmap = cliIn(dir, { VARMAP_QUIET: "1" });

describe.skipIf(!cliBuilt)("a null in a models file", () => {
  it("E_MODEL_FORMAT naming where; the unedited file predicts", () => {
    const lines = ["g,x,z,run,y"];
    for (let x = 0; x < 5; x++) for (let z = 0; z < 5; z++) for (let run = 0; run < 3; run++) lines.push(`a,${x},${z},${run},${10 + x + 2 * z + run * 0.1}`);
    writeFileSync(join(dir, "runs.csv"), lines.join("\n") + "\n");
    const f = varmap("fit", "runs.csv", "--factors", "g", "--inputs", "x,z", "--run", "run", "--response", "y", "--method", "lr", "--out", "m.json");
    expect(f.code, f.err).toBe(0);
    expect(readModelSets(join(dir, "m.json"))).toHaveLength(1);
    const json = JSON.parse(readFileSync(join(dir, "m.json"), "utf8"));
    // The first numeric array of the model gets a null in place of its first number.
    const edit = (o: Record<string, unknown>): boolean => {
      for (const v of Object.values(o)) {
        if (Array.isArray(v) && typeof v[0] === "number") return ((v[0] = null), true);
        if (v && typeof v === "object" && !Array.isArray(v) && edit(v as Record<string, unknown>)) return true;
      }
      return false;
    };
    expect(edit(json.maps[0].model)).toBe(true);
    writeFileSync(join(dir, "edited.json"), JSON.stringify(json));
    let err: unknown;
    try {
      readModelSets(join(dir, "edited.json"));
    } catch (e) {
      err = e;
    }
    expect(isVarmapError(err) && err.code).toBe("E_MODEL_FORMAT");
    expect((err as Error).message).toMatch(/null at \$\.maps\[0\]\.model\..*\[0\]/);
    writeFileSync(join(dir, "at.csv"), "g,x,z\na,1,1\n");
    const p = varmap("predict", "edited.json", "--at", "at.csv", "--out", "p.csv");
    expect(p.code).toBe(2);
    expect(p.err).toMatch(/E_MODEL_FORMAT/);
  });
});
