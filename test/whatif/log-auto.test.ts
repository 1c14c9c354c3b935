// whatif --holdout honours the transforms chosen for the user (issue 16): `--log-response auto` is resolved on the
// mean and spread maps the job models (log when every value is positive, linear otherwise), not read as a plain
// --log-response; `--log-inputs auto` models the columns the loader picked. Spawns the built CLI (npm run build).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { packageRoot } from "../../ts/package-root.js";

const cli = join(packageRoot(), "dist", "ts", "cli", "main.js");
const built = existsSync(cli);
const dir = mkdtempSync(join(tmpdir(), "varmap-whatif-auto-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function varmap(...args: string[]) {
  const r = spawnSync(process.execPath, [cli, ...args], { cwd: dir, encoding: "utf8" });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

// Two maps of 4 × 3 × 3 settings (threads and size powers of two) with 4 runs each; `flat`: one configuration's runs
// are all equal, so its sd is 0 and the spread has no logarithm.
function writeRuns(path: string, flat: boolean): void {
  const lines = ["host,freq,threads,size,run,tput"];
  for (const host of ["a", "b"])
    for (const f of [1, 2, 3, 4])
      for (const t of [1, 2, 4])
        for (const s of [8, 16, 32])
          for (let r = 0; r < 4; r++) {
            const mu = 100 + 10 * f * (host === "a" ? 1 : 2) + t * s;
            const same = flat && host === "a" && f === 1 && t === 1 && s === 8;
            lines.push(`${host},${f},${t},${s},${r},${same ? mu : mu * (1 + 0.02 * f * (r - 1.5))}`);
          }
  writeFileSync(path, lines.join("\n") + "\n");
}

const cols = ["--factors", "host", "--inputs", "freq,threads,size", "--response", "tput", "--run", "run"];
const planOf = (out: string) => JSON.parse(readFileSync(join(out, "manifest.json"), "utf8")) as { response: string };

describe.skipIf(!built)(`whatif --holdout with auto transforms${built ? "" : " — dist/ts/cli/main.js missing: run npm run build"}`, () => {
  it("--log-response auto on positive means and spreads: log, the same files as --log-response", () => {
    const runs = join(dir, "runs.csv");
    writeRuns(runs, false);
    const run = (name: string, ...flags: string[]) => {
      const out = join(dir, name);
      const r = varmap(
        "whatif",
        runs,
        ...cols,
        "--holdout",
        "0.3",
        "--seed",
        "5",
        "--methods",
        "lr,delaunay",
        "--workers",
        "0",
        ...flags,
        "--out",
        join(out, "w.csv"),
      );
      expect(r.code, r.err).toBe(0);
      return { out, err: r.err };
    };
    const auto = run("auto", "--log-response", "auto");
    expect(auto.err).toMatch(/--log-response auto: the mean and the spread are modelled on a log scale/);
    expect(planOf(auto.out).response).toBe("log");
    const log = run("log", "--log-response");
    expect(readFileSync(join(auto.out, "w.csv"), "utf8")).toBe(readFileSync(join(log.out, "w.csv"), "utf8"));
    expect(readFileSync(join(auto.out, "whatif-validation.csv"), "utf8")).toBe(readFileSync(join(log.out, "whatif-validation.csv"), "utf8"));
  });

  it("--log-response auto with a zero spread: linear (a plain --log-response cannot model that map's spread)", () => {
    const runs = join(dir, "flat.csv");
    writeRuns(runs, true);
    const out = join(dir, "flat-auto");
    const r = varmap(
      "whatif",
      runs,
      ...cols,
      "--holdout",
      "0.3",
      "--seed",
      "5",
      "--methods",
      "lr",
      "--workers",
      "0",
      "--log-response",
      "auto",
      "--out",
      join(out, "w.csv"),
    );
    expect(r.code, r.err).toBe(0);
    expect(planOf(out).response).toBe("linear");
    const lin = join(dir, "flat-lin");
    expect(
      varmap("whatif", runs, ...cols, "--holdout", "0.3", "--seed", "5", "--methods", "lr", "--workers", "0", "--quiet", "--out", join(lin, "w.csv")).code,
    ).toBe(0);
    expect(readFileSync(join(out, "w.csv"), "utf8")).toBe(readFileSync(join(lin, "w.csv"), "utf8"));
  });

  it("--log-inputs auto models the columns the loader picked (threads and size: powers of two)", () => {
    const runs = join(dir, "runs.csv");
    const a = join(dir, "li-auto"),
      b = join(dir, "li-named");
    const r = varmap(
      "whatif",
      runs,
      ...cols,
      "--holdout",
      "0.3",
      "--seed",
      "5",
      "--methods",
      "lr",
      "--workers",
      "0",
      "--log-inputs",
      "auto",
      "--out",
      join(a, "w.csv"),
    );
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(/--log-inputs auto: threads/);
    const named = varmap(
      "whatif",
      runs,
      ...cols,
      "--holdout",
      "0.3",
      "--seed",
      "5",
      "--methods",
      "lr",
      "--workers",
      "0",
      "--quiet",
      "--log-inputs",
      "threads,size",
      "--out",
      join(b, "w.csv"),
    );
    expect(named.code, named.err).toBe(0);
    expect(readFileSync(join(a, "w.csv"), "utf8")).toBe(readFileSync(join(b, "w.csv"), "utf8"));
  });
});
