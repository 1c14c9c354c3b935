// The default set's costly methods and their fit limits (issue 46): rbf is dropped above 1,000 fits per method, gp
// and hybrid above 4,000 (docs/studies/gp-speed.md); methods asked for by name are never dropped.
import { describe, expect, it } from "vitest";
import { BEST_METHODS, DEFAULTS_HELP, HEAVY_DEFAULT_FITS, lightenDefaultMethods } from "../../ts/verbs/defaults.js";

const best = BEST_METHODS.split(",");

describe("lightenDefaultMethods", () => {
  it("keeps every default method up to 1,000 fits, drops rbf alone up to 4,000, and hybrid too above", () => {
    expect(lightenDefaultMethods(true, best, 1000)).toEqual({ methods: best });
    const one = lightenDefaultMethods(true, best, 1800); // a one-map default cv: 9 p x 200 divisions
    expect(one.methods).toEqual(best.filter((m) => m !== "rbf"));
    expect(one.note).toMatch(/without rbf: this run fits each method 1,800 times \(more than 1,000 for rbf\)/);
    expect(lightenDefaultMethods(true, best, 4000).methods).toContain("hybrid");
    const big = lightenDefaultMethods(true, [...best, "gp"], 4001);
    expect(big.methods).toEqual(["lr", "lsp", "delaunay", "mars"]);
    expect(big.note).toMatch(/without rbf and hybrid and gp: .*more than 1,000 for rbf, 4,000 for hybrid, 4,000 for gp/);
  });

  it("never drops methods asked for by name; the help states each limit", () => {
    expect(lightenDefaultMethods(false, ["gp", "rbf"], 210_600)).toEqual({ methods: ["gp", "rbf"] });
    expect(HEAVY_DEFAULT_FITS).toEqual({ gp: 4000, hybrid: 4000, rbf: 1000 });
    expect(DEFAULTS_HELP).toContain("gp and hybrid above 4,000, rbf above 1,000");
  });
});
