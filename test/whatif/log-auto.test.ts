// whatif --holdout honours the transforms chosen for the user (issue 16): `--log-response auto` is resolved on the
// mean and spread maps the job models (log when every value is positive, linear otherwise), not read as a plain
// --log-response; `--log-inputs auto` models the columns the loader picked. Spawns the built CLI (npm run build).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cliBuilt, cliIn } from "../helpers/cli.js";
import { TWO_HOST_COLUMNS, writeTwoHostRuns } from "../helpers/runs.js";

const built = cliBuilt;
const dir = mkdtempSync(join(tmpdir(), "varmap-whatif-auto-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const varmap = cliIn(dir);

const cols = TWO_HOST_COLUMNS;
/** `varmap whatif` with the holdout every case shares (30 % held out, seed 5, no workers), writing out/w.csv. */
const whatif = (runs: string, out: string, methods: string, ...flags: string[]) =>
  varmap("whatif", runs, ...cols, "--holdout", "0.3", "--seed", "5", "--methods", methods, "--workers", "0", ...flags, "--out", join(out, "w.csv"));
const planOf = (out: string) => JSON.parse(readFileSync(join(out, "manifest.json"), "utf8")) as { response: string };

describe.skipIf(!built)(`whatif --holdout with auto transforms${built ? "" : " — dist/ts/cli/main.js missing: run npm run build"}`, () => {
  it("--log-response auto on positive means and spreads: log, the same files as --log-response", () => {
    const runs = join(dir, "runs.csv");
    writeTwoHostRuns(runs);
    const run = (name: string, ...flags: string[]) => {
      const out = join(dir, name);
      const r = whatif(runs, out, "lr,delaunay", ...flags);
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
    writeTwoHostRuns(runs, { flat: true });
    const out = join(dir, "flat-auto");
    const r = whatif(runs, out, "lr", "--log-response", "auto");
    expect(r.code, r.err).toBe(0);
    expect(planOf(out).response).toBe("linear");
    const lin = join(dir, "flat-lin");
    expect(whatif(runs, lin, "lr", "--quiet").code).toBe(0);
    expect(readFileSync(join(out, "w.csv"), "utf8")).toBe(readFileSync(join(lin, "w.csv"), "utf8"));
  });

  it("--log-inputs auto models the columns the loader picked (freq: a span of 4×; threads and size: powers of two)", () => {
    const runs = join(dir, "runs.csv");
    const a = join(dir, "li-auto"),
      b = join(dir, "li-named");
    const r = whatif(runs, a, "lr", "--log-inputs", "auto");
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(/--log-inputs auto: freq/);
    const named = whatif(runs, b, "lr", "--quiet", "--log-inputs", "freq,threads,size");
    expect(named.code, named.err).toBe(0);
    expect(readFileSync(join(a, "w.csv"), "utf8")).toBe(readFileSync(join(b, "w.csv"), "utf8"));
  });
});
