// Classes and break-even (C.2.4). The paper speaks of one pattern "dominating" another, of "equal sharing" and
// "serialization", and of recognizing "aggressive or sensitive patterns", but never defines them: the
// definitions and thresholds below are varmap's own (flags with these defaults).

export interface RelationThresholds {
  /** δ: points by which one side's degradation must exceed the other's for dominance (default 20). */
  dominanceGap: number;
  /** ν: both degradations below this (%) is negligible interference (default 10). */
  negligible: number;
}

/**
 * The relation of a pair from the probe's side: dProbe = D_{probe←signal}, dSignal = D_{signal←probe}.
 * "P dominates S" when S suffers at least δ points more than P; "negligible" when both stay under ν.
 */
export function pairRelation(probe: string, signal: string, dProbe: number, dSignal: number, t: RelationThresholds, serialized = false): string {
  if (serialized) return "serialized";
  if (Math.max(dProbe, dSignal) < t.negligible) return "negligible";
  if (dSignal - dProbe >= t.dominanceGap) return `${probe} dominates ${signal}`;
  if (dProbe - dSignal >= t.dominanceGap) return `${signal} dominates ${probe}`;
  return "even";
}

/** aggressive if A ≥ threshold, sensitive if S ≥ threshold, both, or neutral (C.2.4; threshold 50). */
export function appClass(sensitivity: number | null, aggressiveness: number | null, threshold = 50): string {
  const a = aggressiveness !== null && aggressiveness >= threshold;
  const s = sensitivity !== null && sensitivity >= threshold;
  return a && s ? "aggressive+sensitive" : a ? "aggressive" : s ? "sensitive" : "neutral";
}

/**
 * Break-even points of Δ(c) = D_{a←b}(c) − D_{b←a}(c) along a positive swept factor c (Fig. 6): at each sign
 * change between c_i and c_{i+1}, linear interpolation of Δ in ℓ = log₂ c gives
 * c* = 2^{ℓ_i + (ℓ_{i+1} − ℓ_i)·Δ_i/(Δ_i − Δ_{i+1})}; Δ_i = 0 gives c_i. Empty when Δ keeps its sign.
 */
export function breakEvenPoints(c: number[], delta: number[]): number[] {
  const order = c.map((_, i) => i).sort((x, y) => c[x] - c[y]);
  const cs = order.map((i) => c[i]);
  const ds = order.map((i) => delta[i]);
  const out: number[] = [];
  for (let i = 0; i < cs.length; i++) {
    if (ds[i] === 0) {
      out.push(cs[i]);
      continue;
    }
    if (i + 1 < cs.length && ds[i + 1] !== 0 && Math.sign(ds[i]) !== Math.sign(ds[i + 1])) {
      const l0 = Math.log2(cs[i]);
      const l1 = Math.log2(cs[i + 1]);
      out.push(2 ** (l0 + ((l1 - l0) * ds[i]) / (ds[i] - ds[i + 1])));
    }
  }
  return out;
}
