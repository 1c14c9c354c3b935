// Per-configuration mixtures (R-MIX) under CDF mixing: Σ_i w_i F_i with each F_i a fitted mixture is itself a
// finite mixture with components {(w_i π_ij, family_i, θ_ij)} (spec E.2): seed 001's parametric output.
import type { Mixture } from "../mixture/model.js";
import { FamilyMixture, type MixtureComponent } from "./distributions.js";

export function combineMixtures(mixtures: readonly Mixture[], w: ArrayLike<number>): FamilyMixture {
  const comps: MixtureComponent[] = [];
  mixtures.forEach((mx, i) => {
    if (!(w[i] > 0)) return;
    for (let j = 0; j < mx.k; j++) comps.push({ w: w[i] * mx.w[j], family: mx.family.name, a: mx.a[j], b: mx.b[j] });
  });
  return new FamilyMixture(comps);
}
