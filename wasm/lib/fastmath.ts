// exp, log and log1p as branch-free polynomials (mirror of native/include/varmap/fastmath.h: the same operations in the
// same order, so both backends compute the same bits), shared by the mixture and gp kernels. Scalar, and two values
// at a time (wasm SIMD) with per lane the same operations as the scalar functions.
const EXP_TINY: f64 = -708.0; // e^-708 ≈ 3e-308: the smallest exponent whose e^x is a normal double
const SHIFT52: f64 = 6755399441055744.0; // 1.5·2^52
const LOG2E: f64 = 1.4426950408889634;
const LN2_HI: f64 = 0.6931471803691238;
const LN2_LO: f64 = 1.9082149292705877e-10;

// Coefficients of q(r) ≈ (e^r − 1 − r)/r², ascending (mirror of native EXP_Q0..9)
const EXP_Q0: f64 = 0.5000000000000001;
const EXP_Q1: f64 = 0.16666666666666669;
const EXP_Q2: f64 = 0.041666666666624164;
const EXP_Q3: f64 = 0.008333333333330065;
const EXP_Q4: f64 = 0.001388888891719689;
const EXP_Q5: f64 = 0.00019841269863040675;
const EXP_Q6: f64 = 2.480152132210459e-05;
const EXP_Q7: f64 = 2.7557268480106926e-06;
const EXP_Q8: f64 = 2.762007600563138e-07;
const EXP_Q9: f64 = 2.5100375929185925e-08;
// e^x for x in [EXP_TINY, 709] (or NaN): the polynomial without the range clamps; inside the range the bits of vexp.
// @ts-ignore: decorator
@inline export function vexpInRange(x: f64): f64 {
  const t = x * LOG2E + SHIFT52;
  const nd = t - SHIFT52;
  const r = (x - nd * LN2_HI) - nd * LN2_LO;
  // e^r = 1 + r + r²·q(r), q of degree 9 (EXP_Q0..9, as native), by Estrin's scheme
  const r2 = r * r, r4 = r2 * r2, r8 = r4 * r4;
  const p0 = EXP_Q0 + r * EXP_Q1, p1 = EXP_Q2 + r * EXP_Q3, p2 = EXP_Q4 + r * EXP_Q5;
  const p3 = EXP_Q6 + r * EXP_Q7, p4 = EXP_Q8 + r * EXP_Q9;
  const q = ((p0 + r2 * p1) + r4 * (p2 + r2 * p3)) + r8 * p4;
  const p = (r + r2 * q) + 1.0;
  const scale = reinterpret<f64>((reinterpret<u64>(t) + 1023) << 52);
  return p * scale;
}
// e^x; 0 below EXP_TINY, +Inf above 709, NaN for NaN.
export function vexp(x: f64): f64 {
  const xc = x < EXP_TINY ? EXP_TINY : (x > 709.0 ? 709.0 : x);
  const v = vexpInRange(xc);
  return x < EXP_TINY ? 0.0 : (x > 709.0 ? Infinity : v);
}
// log x for a positive normal x.
export function vlog(x: f64): f64 {
  const u = reinterpret<u64>(x);
  let m = reinterpret<f64>((u & 0x000FFFFFFFFFFFFF) | 0x3FF0000000000000);
  let e = reinterpret<f64>((u >> 52) | 0x4330000000000000) - 4503599627371519.0;
  const hi = m > 1.4142135623730951;
  m = hi ? m * 0.5 : m;
  e = hi ? e + 1.0 : e;
  const s = (m - 1.0) / (m + 1.0), s2 = s * s;
  const s4 = s2 * s2, s8 = s4 * s4; // Σ_{j=0..9} 2/(2j+3) s2^j by Estrin's scheme
  const a0 = 2.0 / 3 + s2 * (2.0 / 5), a1 = 2.0 / 7 + s2 * (2.0 / 9), a2 = 2.0 / 11 + s2 * (2.0 / 13);
  const a3 = 2.0 / 15 + s2 * (2.0 / 17), a4 = 2.0 / 19 + s2 * (2.0 / 21);
  const p = ((a0 + s4 * a1) + s8 * (a2 + s4 * a3)) + (s8 * s8) * a4;
  const f = m - 1.0;
  return e * LN2_HI + ((f - s * f + s * s2 * p) + e * LN2_LO);
}
// log(1 + v) for v > -1 with 1 + v normal.
// @ts-ignore: decorator
@inline export function vlog1p(v: f64): f64 {
  const u = 1.0 + v;
  return vlog(u) + (v - (u - 1.0)) / u;
}

// ---------- two values at a time ----------
// @ts-ignore: decorator
@inline function splat(x: f64): v128 { return f64x2.splat(x); }
// @ts-ignore: decorator
@inline function vadd(a: v128, b: v128): v128 { return f64x2.add(a, b); }
// @ts-ignore: decorator
@inline function vsub(a: v128, b: v128): v128 { return f64x2.sub(a, b); }
// @ts-ignore: decorator
@inline function vmul(a: v128, b: v128): v128 { return f64x2.mul(a, b); }
// @ts-ignore: decorator
@inline function vsel(a: v128, b: v128, mask: v128): v128 { return v128.bitselect(a, b, mask); } // mask ? a : b

// vexpInRange, two lanes.
// @ts-ignore: decorator
@inline export function vexpInRange2(x: v128): v128 {
  const t = vadd(vmul(x, splat(LOG2E)), splat(SHIFT52));
  const nd = vsub(t, splat(SHIFT52));
  const r = vsub(vsub(x, vmul(nd, splat(LN2_HI))), vmul(nd, splat(LN2_LO)));
  const r2 = vmul(r, r), r4 = vmul(r2, r2), r8 = vmul(r4, r4);
  const p0 = vadd(splat(EXP_Q0), vmul(r, splat(EXP_Q1))), p1 = vadd(splat(EXP_Q2), vmul(r, splat(EXP_Q3)));
  const p2 = vadd(splat(EXP_Q4), vmul(r, splat(EXP_Q5))), p3 = vadd(splat(EXP_Q6), vmul(r, splat(EXP_Q7)));
  const p4 = vadd(splat(EXP_Q8), vmul(r, splat(EXP_Q9)));
  const q = vadd(vadd(vadd(p0, vmul(r2, p1)), vmul(r4, vadd(p2, vmul(r2, p3)))), vmul(r8, p4));
  const p = vadd(vadd(r, vmul(r2, q)), splat(1.0));
  const scale = i64x2.shl(i64x2.add(t, i64x2.splat(1023)), 52);
  return vmul(p, scale);
}
// vexp, two lanes.
// @ts-ignore: decorator
@inline export function vexp2(x: v128): v128 {
  const tiny = splat(EXP_TINY), big = splat(709.0);
  const xc = vsel(tiny, vsel(big, x, f64x2.gt(x, big)), f64x2.lt(x, tiny));
  const v = vexpInRange2(xc);
  return vsel(splat(0.0), vsel(splat(Infinity), v, f64x2.gt(x, big)), f64x2.lt(x, tiny));
}
// vlog, two lanes.
// @ts-ignore: decorator
@inline export function vlog2(x: v128): v128 {
  let m = v128.or(v128.and(x, i64x2.splat(0x000FFFFFFFFFFFFF)), i64x2.splat(0x3FF0000000000000));
  let e = vsub(v128.or(i64x2.shr_u(x, 52), i64x2.splat(0x4330000000000000)), splat(4503599627371519.0));
  const hi = f64x2.gt(m, splat(1.4142135623730951));
  m = vsel(vmul(m, splat(0.5)), m, hi);
  e = vsel(vadd(e, splat(1.0)), e, hi);
  const s = f64x2.div(vsub(m, splat(1.0)), vadd(m, splat(1.0))), s2 = vmul(s, s);
  const s4 = vmul(s2, s2), s8 = vmul(s4, s4);
  const a0 = vadd(splat(2.0 / 3), vmul(s2, splat(2.0 / 5))), a1 = vadd(splat(2.0 / 7), vmul(s2, splat(2.0 / 9)));
  const a2 = vadd(splat(2.0 / 11), vmul(s2, splat(2.0 / 13))), a3 = vadd(splat(2.0 / 15), vmul(s2, splat(2.0 / 17)));
  const a4 = vadd(splat(2.0 / 19), vmul(s2, splat(2.0 / 21)));
  const p = vadd(vadd(vadd(a0, vmul(s4, a1)), vmul(s8, vadd(a2, vmul(s4, a3)))), vmul(vmul(s8, s8), a4));
  const f = vsub(m, splat(1.0));
  return vadd(vmul(e, splat(LN2_HI)), vadd(vadd(vsub(f, vmul(s, f)), vmul(vmul(s, s2), p)), vmul(e, splat(LN2_LO))));
}
// vlog1p, two lanes.
// @ts-ignore: decorator
@inline export function vlog1p2(v: v128): v128 {
  const u = vadd(splat(1.0), v);
  return vadd(vlog2(u), f64x2.div(vsub(v, vsub(u, splat(1.0))), u));
}
