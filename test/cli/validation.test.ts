// Every option is validated once, before any data are loaded or files written: a bad flag with a missing input
// file reports the flag (E_USAGE), not the file, and leaves --out absent.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MIXTURE_KMAX } from "../../ts/backend/kernels/mixture.js";
import { parseIntegerSeed, parseSeedText, seedKey } from "../../ts/data/option-values.js";
import type { VarmapError } from "../../ts/errors.js";
import { parseFamilies, parseKmax } from "../../ts/mixture/fit.js";
import { packageRoot } from "../../ts/package-root.js";

const cli = join(packageRoot(), "dist", "ts", "cli", "main.js");
const built = existsSync(cli);
const usage = (f: () => unknown) => expect(f).toThrowError(expect.objectContaining({ code: "E_USAGE" }) as unknown as VarmapError);

describe("option parsers", () => {
  it("seeds: integer text keys as a number, other text as itself; integer seeds are checked", () => {
    expect(seedKey("7")).toBe(7);
    expect(seedKey("-3")).toBe(-3);
    expect(seedKey(7)).toBe(7);
    expect(seedKey("abc")).toBe("abc");
    expect(seedKey("99999999999999999999")).toBe("99999999999999999999"); // not a safe integer: keyed as text
    expect(parseSeedText(undefined)).toBe("1");
    usage(() => parseSeedText(" "));
    expect(parseIntegerSeed("42")).toBe(42);
    expect(parseIntegerSeed(undefined)).toBe(1);
    for (const bad of ["abc", "", "1.5", "-1", "1e3", "9007199254740993"]) usage(() => parseIntegerSeed(bad));
  });

  it("--kmax: 1 to the kernels' limit", () => {
    expect(parseKmax("1")).toBe(1);
    expect(parseKmax(String(MIXTURE_KMAX))).toBe(MIXTURE_KMAX);
    expect(parseKmax(undefined)).toBe(5);
    for (const bad of ["0", String(MIXTURE_KMAX + 1), "2.5", "x", ""]) usage(() => parseKmax(bad));
  });

  it("--families: all, or distinct known families; empty is an error", () => {
    expect(parseFamilies(undefined)).toHaveLength(6);
    expect(parseFamilies("all")).toHaveLength(6);
    expect(parseFamilies("normal, Fréchet")).toEqual(["normal", "frechet"]);
    for (const bad of ["", " ", "normal,,gamma", "normal,normal", "cauchy"]) usage(() => parseFamilies(bad));
  });
});

describe.skipIf(!built)(`validation before loading${built ? "" : " (dist not built: run npm run build:ts)"}`, () => {
  const varmap = (...args: string[]) => spawnSync(process.execPath, [cli, ...args], { encoding: "utf8" });
  const cases: [string, string[], RegExp][] = [
    ["refit --kmax 17", ["refit", "--kmax", "17"], /--kmax must be an integer from 1 to 16/],
    ["refit --kmax 17 --workers 1", ["refit", "--kmax", "17", "--workers", "1"], /--kmax must be an integer from 1 to 16/],
    ["refit --kmax 0", ["refit", "--kmax", "0"], /--kmax/],
    ["refit --seed abc", ["refit", "--seed", "abc"], /--seed must be an integer/],
    ["refit --families ''", ["refit", "--families", ""], /--families is empty/],
    ["refit --no-mixtures --families ''", ["refit", "--no-mixtures", "--families", ""], /--families is empty/],
    ["cv --seed ''", ["cv", "--seed", ""], /--seed is empty/],
  ];
  for (const [name, args, message] of cases)
    it(`${name}: exit 2, E_USAGE, nothing written`, () => {
      const out = join(mkdtempSync(join(tmpdir(), "varmap-validate-")), "out");
      const r = varmap(args[0], "/nonexistent/data.csv", "--preset", "moana", ...args.slice(1), "--out", out);
      expect(r.status, r.stderr).toBe(2);
      expect(r.stderr).toContain("[E_USAGE]");
      expect(r.stderr).toMatch(message);
      expect(existsSync(out)).toBe(false);
    });

  it("demo --seed abc: exit 2 before generating anything", () => {
    const out = join(mkdtempSync(join(tmpdir(), "varmap-validate-")), "demo");
    const r = varmap("demo", "--seed", "abc", "--out", out, "--quiet");
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/--seed must be an integer/);
    expect(existsSync(out)).toBe(false);
  });
});
