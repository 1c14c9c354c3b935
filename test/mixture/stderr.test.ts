// Standard errors from the observed information (issue 17, item 4) against closed forms.
import { describe, expect, it } from "vitest";
import { Mixture } from "../../ts/mixture/model.js";
import { invertSpd, mixtureStdErrors } from "../../ts/mixture/stderr.js";
import { rng } from "../helpers/backends.js";

function normals(n: number, mean: number, sd: number, seed: number): number[] {
  const r = rng(seed);
  return Array.from({ length: n }, () => mean + sd * Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r()));
}
const mle = (x: number[]) => {
  const m = x.reduce((s, v) => s + v, 0) / x.length;
  return { m, s: Math.sqrt(x.reduce((s, v) => s + (v - m) ** 2, 0) / x.length) };
};

describe("mixture standard errors (observed information, delta method)", () => {
  it("single normal at its MLE: se(mean) = sd/√n and se(sd) = sd/√(2n) within 1e-5", () => {
    const x = normals(150, 4.5e6, 2.1e4, 3);
    const { m, s } = mle(x);
    const se = mixtureStdErrors(new Mixture("normal", [1], [m], [s]), x);
    expect(Math.abs(se.a[0] / (s / Math.sqrt(150)) - 1)).toBeLessThan(1e-5);
    expect(Math.abs(se.b[0] / (s / Math.sqrt(300)) - 1)).toBeLessThan(1e-5);
    expect(se.w[0]).toBe(0);
  });
  it("single lognormal at its MLE: se(mu) = sigma/√n, se(sigma) = sigma/√(2n)", () => {
    const x = normals(80, 1.2, 0.3, 5).map(Math.exp);
    const { m, s } = mle(x.map(Math.log));
    const se = mixtureStdErrors(new Mixture("lognormal", [1], [m], [s]), x);
    expect(Math.abs(se.a[0] / (s / Math.sqrt(80)) - 1)).toBeLessThan(1e-5);
    expect(Math.abs(se.b[0] / (s / Math.sqrt(160)) - 1)).toBeLessThan(1e-5);
  });
  it("two well-separated normals: se(w) ≈ √(w(1−w)/n), se(mean_j) ≈ sd_j/√(n w_j) within 1%", () => {
    const a = normals(300, 100, 2, 7),
      b = normals(700, 200, 5, 8);
    const x = [...a, ...b];
    const fa = mle(a),
      fb = mle(b);
    const se = mixtureStdErrors(new Mixture("normal", [0.3, 0.7], [fa.m, fb.m], [fa.s, fb.s]), x);
    expect(Math.abs(se.w[0] / Math.sqrt((0.3 * 0.7) / 1000) - 1)).toBeLessThan(0.01);
    expect(Math.abs(se.w[1] / se.w[0] - 1)).toBeLessThan(1e-9);
    expect(Math.abs(se.a[0] / (fa.s / Math.sqrt(300)) - 1)).toBeLessThan(0.01);
    expect(Math.abs(se.a[1] / (fb.s / Math.sqrt(700)) - 1)).toBeLessThan(0.01);
    expect(Math.abs(se.b[1] / (fb.s / Math.sqrt(1400)) - 1)).toBeLessThan(0.01);
  });
  it("gamma k = 1 at its MLE equals the inverse Fisher information n[[ψ'(α), 1/θ], [1/θ, α/θ²]]", () => {
    // shape 3, scale 2; the MLE by Newton on the profile equation log α − ψ(α) = log mean − mean log
    const r = rng(11);
    const x = Array.from({ length: 400 }, () => -2 * Math.log((1 - r()) * (1 - r()) * (1 - r())));
    const mean = x.reduce((s, v) => s + v, 0) / x.length,
      mlog = x.reduce((s, v) => s + Math.log(v), 0) / x.length;
    const c = Math.log(mean) - mlog;
    const digamma = (z: number) => {
      let v = 0;
      for (; z < 8; z++) v -= 1 / z;
      const z2 = 1 / (z * z);
      return v + Math.log(z) - 0.5 / z - z2 * (1 / 12 - z2 * (1 / 120 - z2 / 252));
    };
    const trigamma = (z: number) => {
      let v = 0;
      for (; z < 8; z++) v += 1 / (z * z);
      const z2 = 1 / (z * z);
      return v + 1 / z + z2 / 2 + (z2 / z) * (1 / 6 - z2 * (1 / 30 - z2 / 42));
    };
    let al = 3;
    for (let i = 0; i < 50; i++) al -= (Math.log(al) - digamma(al) - c) / (1 / al - trigamma(al));
    const th = mean / al,
      n = x.length;
    const inv = invertSpd(Float64Array.from([n * trigamma(al), n / th, n / th, (n * al) / th ** 2]), 2)!;
    const se = mixtureStdErrors(new Mixture("gamma", [1], [al], [th]), x);
    expect(Math.abs(se.a[0] / Math.sqrt(inv[0]) - 1)).toBeLessThan(1e-4);
    expect(Math.abs(se.b[0] / Math.sqrt(inv[3]) - 1)).toBeLessThan(1e-4);
  });
  it("no standard errors where the information is not positive definite (two identical components)", () => {
    const x = normals(100, 10, 1, 2);
    const se = mixtureStdErrors(new Mixture("normal", [0.5, 0.5], [10, 10], [1, 1]), x);
    expect(se.a.every(Number.isNaN)).toBe(true);
  });
});
