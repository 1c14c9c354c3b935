// Issue 41: `whatif --holdout p --leave-out COLS` holds out whole combinations of COLS (round(p × groups) of them),
// not single configurations: every held-out configuration's combination is absent from training.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cliBuilt, cliIn } from "../helpers/cli.js";
import { rng } from "../helpers/backends.js";
import { secondBackendRun } from "../helpers/once.js";

const dir = mkdtempSync(join(tmpdir(), "varmap-whatif-leave-out-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const varmap = cliIn(dir);

describe.skipIf(secondBackendRun || !cliBuilt)("whatif --holdout --leave-out", () => {
  const r = rng(5);
  const lines = ["host,freq,size,threads,run,tput"];
  for (const f of [1, 2, 3])
    for (const s of [1, 2, 4, 8])
      for (const t of [1, 2, 4]) for (let k = 0; k < 4; k++) lines.push(`a,${f},${s},${t},${k},${100 * f + 10 * s + 20 * t + (3 + t) * (r() + r() - 1)}`);
  writeFileSync(join(dir, "runs.csv"), lines.join("\n") + "\n");
  mkdirSync(join(dir, "w"));
  const base = ["whatif", "runs.csv", "--factors", "host", "--inputs", "freq,size,threads", "--response", "tput", "--run", "run"];
  base.push("--methods", "lr", "--seed", "3", "--workers", "0");

  it("holds out round(p × 12) of the 12 (freq, size) pairs, each with all its thread counts, and names them", () => {
    const w = varmap(...base, "--holdout", "0.25", "--leave-out", "freq,size", "--out", "w/whatif.csv");
    expect(w.code, w.err).toBe(0);
    const named = /--leave-out: map 1 holds out (.*)/.exec(w.err)?.[1].split(" | ") ?? [];
    expect(named.length).toBe(3);
    const csv = readFileSync(join(dir, "w", "whatif.csv"), "utf8")
      .trim()
      .split("\n");
    const h = csv[0].split(",");
    const rows = csv.slice(1).map((l) => Object.fromEntries(l.split(",").map((v, i) => [h[i], v])));
    const pairs = new Set(rows.map((x) => `freq=${x.freq};size=${x.size}`));
    expect([...pairs].sort()).toEqual([...named].sort());
    expect(rows.length).toBe(3 * 3);
  });

  it("--leave-out without --holdout, or naming an unknown column, exits 2 and writes nothing", () => {
    let w = varmap(...base, "--leave-out", "freq", "--out", "w/none.csv");
    expect(w.code).toBe(2);
    expect(w.err).toContain("--leave-out applies to --holdout");
    w = varmap(...base, "--holdout", "0.3", "--leave-out", "nosuch", "--out", "w/none.csv");
    expect(w.code).toBe(2);
    expect(w.err).toContain("E_LEAVE_OUT");
    expect(existsSync(join(dir, "w", "none.csv"))).toBe(false);
  });
});
