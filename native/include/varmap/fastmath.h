// exp, log and log1p as branch-free polynomials shared by the kernels that need the same bits on both backends
// (mixture, gp). The AssemblyScript twin is wasm/lib/fastmath.ts: the same operations in the same order.
// Why not libm: its results differ in the last bit from V8's Math.exp/log, which would let EM and the GP
// hyperparameter search take different paths on native and wasm; and these polynomials vectorize (no library calls),
// which the per-run loops of the mixture kernel rely on. Compile with -ffp-contract=off (no fused multiply-add).
// Accuracy: a few ulp (polynomial/atanh series errors below 2e-17).
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>

namespace varmap {
namespace fastmath {

constexpr double EXP_TINY = -708.0;             // e^-708 ≈ 3e-308: the smallest exponent whose e^x is a normal double
constexpr double SHIFT52 = 6755399441055744.0;  // 1.5·2^52: adding it rounds to an integer held in the low bits
constexpr double LOG2E = 1.4426950408889634;
constexpr double LN2_HI = 0.6931471803691238;  // ln 2 split so that n·LN2_HI is exact for |n| < 2^21
constexpr double LN2_LO = 1.9082149292705877e-10;

// Coefficients of q(r) ≈ (e^r − 1 − r)/r², ascending (vexp_in_range)
constexpr double EXP_Q0 = 0.5000000000000001;
constexpr double EXP_Q1 = 0.16666666666666669;
constexpr double EXP_Q2 = 0.041666666666624164;
constexpr double EXP_Q3 = 0.008333333333330065;
constexpr double EXP_Q4 = 0.001388888891719689;
constexpr double EXP_Q5 = 0.00019841269863040675;
constexpr double EXP_Q6 = 2.480152132210459e-05;
constexpr double EXP_Q7 = 2.7557268480106926e-06;
constexpr double EXP_Q8 = 2.762007600563138e-07;
constexpr double EXP_Q9 = 2.5100375929185925e-08;
inline uint64_t bits_of(double v) {
  uint64_t u;
  std::memcpy(&u, &v, 8);
  return u;
}
inline double of_bits(uint64_t u) {
  double v;
  std::memcpy(&v, &u, 8);
  return v;
}

// e^x for x already in [EXP_TINY, 709] (or NaN): the polynomial without the range clamps, for loops whose arguments
// are known to lie in range (the mixture E-step's x − max in [-40, 0]). Inside the range, the same bits as vexp.
inline double vexp_in_range(double x) {
  const double t = x * LOG2E + SHIFT52;
  const double nd = t - SHIFT52;
  const double r = (x - nd * LN2_HI) - nd * LN2_LO;  // |r| <= ln2/2
  // e^r = 1 + r + r²·q(r), q of degree 9 fitted to (e^r − 1 − r)/r² on |r| <= ln2/2 (Chebyshev, near-minimax:
  // relative error of e^r below 2e-17, the twelve Taylor terms' accuracy with ten), by Estrin's scheme (short
  // dependency chains: the loops are latency-bound)
  const double r2 = r * r, r4 = r2 * r2, r8 = r4 * r4;
  const double p0 = EXP_Q0 + r * EXP_Q1, p1 = EXP_Q2 + r * EXP_Q3, p2 = EXP_Q4 + r * EXP_Q5;
  const double p3 = EXP_Q6 + r * EXP_Q7, p4 = EXP_Q8 + r * EXP_Q9;
  const double q = ((p0 + r2 * p1) + r4 * (p2 + r2 * p3)) + r8 * p4;
  const double p = (r + r2 * q) + 1.0;
  const double scale = of_bits((bits_of(t) + 1023) << 52);  // 2^nd, nd in [-1021, 1023]
  return p * scale;
}
// e^x; 0 below EXP_TINY (e^x would only underflow), +inf above 709 (e^709 ≈ 8e307), NaN for NaN.
inline double vexp(double x) {
  const double xc = x < EXP_TINY ? EXP_TINY : (x > 709.0 ? 709.0 : x);
  const double v = vexp_in_range(xc);
  return x < EXP_TINY ? 0.0 : (x > 709.0 ? INFINITY : v);
}
// log x for a positive normal x.
inline double vlog(double x) {
  const uint64_t u = bits_of(x);
  double m = of_bits((u & 0x000FFFFFFFFFFFFFULL) | 0x3FF0000000000000ULL);  // [1, 2)
  double e = of_bits((u >> 52) | 0x4330000000000000ULL) - 4503599627371519.0;  // biased exponent - 1023
  const bool hi = m > 1.4142135623730951;
  m = hi ? m * 0.5 : m;
  e = hi ? e + 1.0 : e;
  const double s = (m - 1.0) / (m + 1.0), s2 = s * s;  // |s| <= 0.1716: atanh series to s^21 (< 1e-17)
  const double s4 = s2 * s2, s8 = s4 * s4;  // Σ_{j=0..9} 2/(2j+3) s2^j by Estrin's scheme
  const double a0 = 2.0 / 3 + s2 * (2.0 / 5), a1 = 2.0 / 7 + s2 * (2.0 / 9), a2 = 2.0 / 11 + s2 * (2.0 / 13);
  const double a3 = 2.0 / 15 + s2 * (2.0 / 17), a4 = 2.0 / 19 + s2 * (2.0 / 21);
  const double p = ((a0 + s4 * a1) + s8 * (a2 + s4 * a3)) + (s8 * s8) * a4;
  const double f = m - 1.0;
  // log m = 2s + s·s2·p = f − s·f + s·s2·p (2s = f − s·f: keeps the leading term exact)
  return e * LN2_HI + ((f - s * f + s * s2 * p) + e * LN2_LO);
}
// log(1 + v) for v > -1 with 1 + v normal: log of the rounded sum plus the first-order correction for its rounding.
inline double vlog1p(double v) {
  const double u = 1.0 + v;
  return vlog(u) + (v - (u - 1.0)) / u;
}

}  // namespace fastmath
}  // namespace varmap
