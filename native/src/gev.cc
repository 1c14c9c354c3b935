// GEV maximum likelihood per configuration (see varmap/gev.h for the method and the seed 002 errata).
#include "varmap/gev.h"

#include <cmath>
#include <limits>
#include <vector>

namespace varmap {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kSeriesBelow = 0.1;  // |xi z| below which L and its xi-derivatives are power series
constexpr int kTerms = 20;            // 0.1^20 * 20 < 1e-17: truncation below rounding

// Series in a = xi z: L = z S0(a), dL/dxi = z^2 S1(a), d2L/dxi2 = z^3 S2(a), from L = sum_k (-1)^k xi^k z^(k+1)/(k+1).
struct SeriesCoefficients {
  double s0[kTerms], s1[kTerms], s2[kTerms];
  SeriesCoefficients() {
    for (int j = 0; j < kTerms; ++j) {
      const double sign = (j % 2 == 0) ? 1.0 : -1.0;
      s0[j] = sign / (j + 1);                      // k = j
      s1[j] = -sign * (j + 1) / double(j + 2);     // k = j + 1: (-1)^k k / (k + 1)
      s2[j] = sign * (j + 2) * (j + 1) / double(j + 3);  // k = j + 2: (-1)^k k (k - 1) / (k + 1)
    }
  }
};
const SeriesCoefficients kSeries;

inline double horner(const double* c, double a) {
  double s = c[kTerms - 1];
  for (int j = kTerms - 2; j >= 0; --j) s = s * a + c[j];
  return s;
}

// Cholesky of a packed symmetric 3 x 3 (h00 h01 h02 h11 h12 h22) into l (l00 l10 l20 l11 l21 l22).
bool chol3(const double* h, double* l) {
  if (!(h[0] > 0.0)) return false;
  l[0] = std::sqrt(h[0]);
  l[1] = h[1] / l[0];
  l[2] = h[2] / l[0];
  double d = h[3] - l[1] * l[1];
  if (!(d > 0.0)) return false;
  l[3] = std::sqrt(d);
  l[4] = (h[4] - l[2] * l[1]) / l[3];
  d = h[5] - l[2] * l[2] - l[4] * l[4];
  if (!(d > 0.0)) return false;
  l[5] = std::sqrt(d);
  return true;
}

void chol3_solve(const double* l, const double* b, double* x) {
  const double y0 = b[0] / l[0];
  const double y1 = (b[1] - l[1] * y0) / l[3];
  const double y2 = (b[2] - l[2] * y0 - l[4] * y1) / l[5];
  x[2] = y2 / l[5];
  x[1] = (y1 - l[4] * x[2]) / l[3];
  x[0] = (y0 - l[1] * x[1] - l[2] * x[2]) / l[0];
}

// The inverse (packed like h) from the Cholesky factor.
void chol3_inverse(const double* l, double* v) {
  double c0[3], c1[3], c2[3];
  const double e0[3] = {1, 0, 0}, e1[3] = {0, 1, 0}, e2[3] = {0, 0, 1};
  chol3_solve(l, e0, c0);
  chol3_solve(l, e1, c1);
  chol3_solve(l, e2, c2);
  v[0] = c0[0]; v[1] = c1[0]; v[2] = c2[0]; v[3] = c1[1]; v[4] = c2[1]; v[5] = c2[2];
}

struct Theta {
  double mu, sigma, xi;
};

enum StartResult { START_OK, START_FAILED, START_UNBOUNDED };

// Newton from theta on runs x (standardized); returns how it ended, theta and f at the last iterate.
StartResult newton(const double* x, int n, int max_iter, Theta& th, double& f, int& iterations) {
  double g[3], h[6], l[6], d[3];
  iterations = 0;
  if (!gev_nllh(x, n, th.mu, th.sigma, th.xi, &f, g, h)) return START_FAILED;
  for (int it = 0; it < max_iter; ++it) {
    iterations = it + 1;
    // Newton direction; Levenberg damping lambda * diag(H) until the matrix is positive definite.
    double lambda = 0.0;
    bool factored = false;
    const double diag[3] = {std::fabs(h[0]) + 1e-300, std::fabs(h[3]) + 1e-300, std::fabs(h[5]) + 1e-300};
    while (lambda <= 1e12) {
      double m[6] = {h[0] + lambda * diag[0], h[1], h[2], h[3] + lambda * diag[1], h[4], h[5] + lambda * diag[2]};
      if (chol3(m, l)) {
        factored = true;
        break;
      }
      lambda = lambda == 0.0 ? 1e-8 : lambda * 10.0;
    }
    const double mg[3] = {-g[0], -g[1], -g[2]};
    if (factored) {
      chol3_solve(l, mg, d);
    } else {
      for (int k = 0; k < 3; ++k) d[k] = mg[k] / diag[k];
    }
    const double rel = std::fmax(std::fabs(d[0]) / std::fmax(1.0, std::fabs(th.mu)), std::fmax(std::fabs(d[1]) / th.sigma, std::fabs(d[2])));
    const bool newton_step = factored && lambda == 0.0;
    if (newton_step) {
      double v[6];
      chol3_inverse(l, v);
      const double gse = std::fmax(std::fabs(g[0]) * std::sqrt(v[0]), std::fmax(std::fabs(g[1]) * std::sqrt(v[3]), std::fabs(g[2]) * std::sqrt(v[5])));
      if (rel < 1e-13 || gse < 1e-12) {
        double ft = 0.0;
        if (gev_nllh(x, n, th.mu + d[0], th.sigma + d[1], th.xi + d[2], &ft, nullptr, nullptr) && ft <= f) {
          th = {th.mu + d[0], th.sigma + d[1], th.xi + d[2]};
          f = ft;
        }
        return START_OK;
      }
    }
    double slope = g[0] * d[0] + g[1] * d[1] + g[2] * d[2];
    if (!(slope < 0.0)) {
      for (int k = 0; k < 3; ++k) d[k] = mg[k] / diag[k];
      slope = g[0] * d[0] + g[1] * d[1] + g[2] * d[2];
    }
    // Backtracking; in the quadratic regime (a tiny undamped step) the full step is taken without the Armijo
    // test, whose decrease would be below rounding.
    double alpha = 1.0, ft = kInf;
    bool accepted = false;
    for (int ls = 0; ls < 60; ++ls, alpha *= 0.5) {
      const Theta tr = {th.mu + alpha * d[0], th.sigma + alpha * d[1], th.xi + alpha * d[2]};
      if (!(tr.sigma > 0.0) || !gev_nllh(x, n, tr.mu, tr.sigma, tr.xi, &ft, nullptr, nullptr)) continue;
      if (ft <= f + 1e-4 * alpha * slope || (newton_step && alpha == 1.0 && rel < 1e-6 && ft <= f + 1e-12 * (1.0 + std::fabs(f)))) {
        accepted = true;
        break;
      }
    }
    if (!accepted) return newton_step && rel < 1e-8 ? START_OK : START_FAILED;
    th = {th.mu + alpha * d[0], th.sigma + alpha * d[1], th.xi + alpha * d[2]};
    if (!gev_nllh(x, n, th.mu, th.sigma, th.xi, &f, g, h)) return START_FAILED;
    if (th.xi <= -1.0) return START_UNBOUNDED;
  }
  return START_FAILED;
}

// Scales sigma up until every w_i = 1 + xi z_i >= 1/2, so a start at shape xi is inside the support.
double feasible_scale(const double* x, int n, double mu, double sigma, double xi) {
  double zmin = kInf, zmax = -kInf;
  for (int i = 0; i < n; ++i) {
    zmin = std::fmin(zmin, (x[i] - mu) / sigma);
    zmax = std::fmax(zmax, (x[i] - mu) / sigma);
  }
  const double worst = xi > 0.0 ? xi * zmin : xi * zmax;  // the smallest xi z
  return worst < -0.5 ? sigma * (-worst / 0.5) : sigma;
}

}  // namespace

bool gev_nllh(const double* x, int n, double mu, double sigma, double xi, double* f, double* g, double* h) {
  *f = kInf;
  if (!(sigma > 0.0) || !std::isfinite(mu) || !std::isfinite(xi)) return false;
  const bool derivs = g != nullptr;
  const double inv = 1.0 / sigma;
  double sum = 0.0, g0 = 0.0, g1 = 0.0, g2 = 0.0, h00 = 0.0, h01 = 0.0, h02 = 0.0, h11 = 0.0, h12 = 0.0, h22 = 0.0;
  for (int i = 0; i < n; ++i) {
    const double z = (x[i] - mu) * inv;
    const double a = xi * z;
    const double w = 1.0 + a;
    if (!(w > 0.0)) return false;
    double L, Lx = 0.0, Lxx = 0.0;
    if (std::fabs(a) < kSeriesBelow) {
      L = z * horner(kSeries.s0, a);
      if (derivs) {
        Lx = z * z * horner(kSeries.s1, a);
        Lxx = z * z * z * horner(kSeries.s2, a);
      }
    } else {
      L = std::log1p(a) / xi;
      if (derivs) {
        Lx = (z / w - L) / xi;
        Lxx = -z * z / (xi * w * w) - 2.0 * Lx / xi;
      }
    }
    const double t = std::exp(-L);
    sum += (1.0 + xi) * L + t;
    if (derivs) {
      const double A = 1.0 + xi - t;
      const double iw = 1.0 / w, sw = inv * iw;  // 1/w, 1/(sigma w)
      const double Lm = -sw, Ls = -z * sw;
      const double Lmm = -xi * sw * sw, Lms = sw * sw, Lss = z * (2.0 + a) * sw * sw;
      const double Lmx = z * sw * iw, Lsx = z * z * sw * iw;
      g0 += A * Lm;
      g1 += A * Ls;
      g2 += A * Lx + L;
      h00 += t * Lm * Lm + A * Lmm;
      h01 += t * Lm * Ls + A * Lms;
      h02 += t * Lm * Lx + A * Lmx + Lm;
      h11 += t * Ls * Ls + A * Lss;
      h12 += t * Ls * Lx + A * Lsx + Ls;
      h22 += t * Lx * Lx + A * Lxx + 2.0 * Lx;
    }
  }
  const double fv = n * std::log(sigma) + sum;
  if (!std::isfinite(fv)) return false;
  *f = fv;
  if (derivs) {
    g[0] = g0; g[1] = g1 + n * inv; g[2] = g2;
    h[0] = h00; h[1] = h01; h[2] = h02; h[3] = h11 - n * inv * inv; h[4] = h12; h[5] = h22;
  }
  return true;
}

int gev_gumbel_mle(const double* x, int n, double* mu, double* sigma) {
  // sigma solves F(sigma) = sigma - mean(u) + sum u e^{-u/sigma} / sum e^{-u/sigma} = 0 with u = x - min x (the
  // shift keeps every exponent <= 0). F' = 1 + weighted var(u)/sigma^2 > 0 and F(0+) < 0 < F(inf): Newton
  // safeguarded by the bracket it maintains converges from any start.
  double mn = x[0], mean = 0.0;
  for (int i = 0; i < n; ++i) {
    mn = std::fmin(mn, x[i]);
    mean += x[i];
  }
  mean /= n;
  double var = 0.0;
  for (int i = 0; i < n; ++i) var += (x[i] - mean) * (x[i] - mean);
  var /= n;
  const double ubar = mean - mn;
  double s = std::sqrt(6.0 * var) / M_PI;
  if (!(s > 0.0)) return -1;
  double lo = 0.0, hi = kInf;
  int it = 0;
  for (; it < 200; ++it) {
    double S0 = 0.0, S1 = 0.0, S2 = 0.0;
    for (int i = 0; i < n; ++i) {
      const double u = x[i] - mn, e = std::exp(-u / s);
      S0 += e;
      S1 += u * e;
      S2 += u * u * e;
    }
    const double F = s - ubar + S1 / S0;
    if (F < 0.0) lo = s; else hi = s;
    const double dF = 1.0 + (S2 * S0 - S1 * S1) / (s * s * S0 * S0);
    double sn = s - F / dF;
    if (!(sn > lo && sn < hi)) sn = std::isfinite(hi) ? 0.5 * (lo + hi) : 2.0 * s;
    const bool done = std::fabs(sn - s) <= 1e-15 * s || F == 0.0;
    s = sn;
    if (done) break;
  }
  if (it == 200) return -1;
  double S0 = 0.0;
  for (int i = 0; i < n; ++i) S0 += std::exp(-(x[i] - mn) / s);
  *sigma = s;
  *mu = mn - s * std::log(S0 / n);
  return it + 1;
}

int gev_fit_one(const double* x, int n, int max_iter, double* out, int* iterations, double* work) {
  for (int k = 0; k < kGevOut; ++k) out[k] = kNaN;
  *iterations = 0;
  if (n < 3) return GEV_FIT_TOO_FEW;
  if (!all_finite(x, size_t(n))) return GEV_FIT_NONFINITE;
  // Three distinct values at least (two leave the likelihood unbounded, one has no spread).
  const double v1 = x[0];
  int j = 1;
  while (j < n && x[j] == v1) ++j;
  if (j == n) return GEV_FIT_DEGENERATE;
  const double v2 = x[j];
  while (j < n && (x[j] == v1 || x[j] == v2)) ++j;
  if (j == n) return GEV_FIT_DEGENERATE;

  // Standardize (mean 0, sd 1) so the iteration is the same for any units.
  double m = 0.0;
  for (int i = 0; i < n; ++i) m += x[i];
  m /= n;
  double ss = 0.0;
  for (int i = 0; i < n; ++i) ss += (x[i] - m) * (x[i] - m);
  const double s = std::sqrt(ss / n);
  double* xs = work;
  for (int i = 0; i < n; ++i) xs[i] = (x[i] - m) / s;

  double gm = 0.0, gs = 0.0;
  if (gev_gumbel_mle(xs, n, &gm, &gs) < 0) {
    gs = std::sqrt(6.0) / M_PI;
    gm = -0.57721566490153286 * gs;
  } else {
    out[GEV_GUMBEL_LOC] = m + s * gm;
    out[GEV_GUMBEL_SCALE] = s * gs;
    double fg = kInf;
    gev_nllh(x, n, out[GEV_GUMBEL_LOC], out[GEV_GUMBEL_SCALE], 0.0, &fg, nullptr, nullptr);
    out[GEV_GUMBEL_NLLH] = fg;
  }

  // Newton from the Gumbel start; from xi0 = +-0.1 if that fails. Keep the best converged fit.
  Theta best = {kNaN, kNaN, kNaN}, fallback = best;
  double fbest = kInf, ffallback = kInf;
  bool any_ok = false, any_unbounded = false;
  int total_iter = 0;
  const double starts[3] = {0.0, 0.1, -0.1};
  for (int k = 0; k < 3; ++k) {
    if (k > 0 && any_ok) break;
    Theta th = {gm, k == 0 ? gs : feasible_scale(xs, n, gm, gs, starts[k]), starts[k]};
    double f = kInf;
    int it = 0;
    const StartResult r = newton(xs, n, max_iter, th, f, it);
    total_iter += it;
    if (r == START_OK && f < fbest) {
      best = th;
      fbest = f;
      any_ok = true;
    } else if (r == START_UNBOUNDED) {
      any_unbounded = true;
    } else if (r == START_FAILED && f < ffallback) {
      fallback = th;
      ffallback = f;
    }
  }
  // Back to the original units.
  auto original = [&](const Theta& t) { return Theta{m + s * t.mu, s * t.sigma, t.xi}; };
  Theta est = any_ok ? original(best) : original(fallback);
  // Polish in the fit's own units (z = (x - mu)/sigma): mean/sd standardization squeezes the bulk of a heavy-tailed
  // sample into a sliver (sd dominated by the largest runs), which limits the digits the first pass can reach and
  // can stall it. From the first pass's estimate (or its best failed iterate), Newton again on z.
  if (!any_unbounded || any_ok) {
    if (std::isfinite(est.mu) && est.sigma > 0.0) {
      for (int i = 0; i < n; ++i) xs[i] = (x[i] - est.mu) / est.sigma;
      Theta th = {0.0, 1.0, est.xi};
      double f = kInf;
      int it = 0;
      const StartResult r = newton(xs, n, max_iter, th, f, it);
      total_iter += it;
      if (r == START_OK) {
        est = {est.mu + est.sigma * th.mu, est.sigma * th.sigma, th.xi};
        any_ok = true;
      } else if (r == START_UNBOUNDED && !any_ok) {
        any_unbounded = true;
      }
    }
  }
  *iterations = total_iter;
  if (!any_ok) {
    if (any_unbounded) return GEV_FIT_UNBOUNDED;
    // A stalled fit whose best iterate presses a run onto the support's end (min w_i < 1e-3) is climbing a
    // likelihood that grows without bound along that endpoint: xi -> -1 with the upper end at max x, or
    // xi -> +inf with the lower end at min x (small samples with one or two huge runs).
    if (std::isfinite(est.mu) && est.sigma > 0.0) {
      double wmin = kInf;
      for (int i = 0; i < n; ++i) wmin = std::fmin(wmin, 1.0 + est.xi * (x[i] - est.mu) / est.sigma);
      if (wmin < 1e-3) return GEV_FIT_UNBOUNDED;
    }
    if (std::isfinite(ffallback)) {
      out[GEV_LOC] = est.mu;
      out[GEV_SCALE] = est.sigma;
      out[GEV_SHAPE] = est.xi;
      double f = kInf;
      gev_nllh(x, n, out[GEV_LOC], out[GEV_SCALE], out[GEV_SHAPE], &f, nullptr, nullptr);
      out[GEV_NLLH] = f;
    }
    return GEV_FIT_NOT_CONVERGED;
  }
  // Back on the original scale: the estimates, nllh and the inverse observed information there.
  out[GEV_LOC] = est.mu;
  out[GEV_SCALE] = est.sigma;
  out[GEV_SHAPE] = est.xi;
  double f, g[3], h[6], l[6], v[6];
  if (!gev_nllh(x, n, out[GEV_LOC], out[GEV_SCALE], out[GEV_SHAPE], &f, g, h)) return GEV_FIT_NOT_CONVERGED;
  out[GEV_NLLH] = f;
  if (!chol3(h, l)) return GEV_FIT_SINGULAR;
  chol3_inverse(l, v);
  for (int k = 0; k < 6; ++k) out[GEV_COV + k] = v[k];
  out[GEV_GRAD_SE] = std::fmax(std::fabs(g[0]) * std::sqrt(v[0]), std::fmax(std::fabs(g[1]) * std::sqrt(v[3]), std::fabs(g[2]) * std::sqrt(v[5])));
  return GEV_FIT_OK;
}

int gev_batch(const double* x, const int32_t* offsets, int32_t nconf, int32_t max_iter, double* out, int32_t* info) {
  if (nconf < 0 || max_iter < 1) return BAD_ARGUMENT;
  int32_t maxn = 0;
  for (int32_t k = 0; k < nconf; ++k) {
    const int32_t c = offsets[k + 1] - offsets[k];
    if (offsets[k] < 0 || c < 0) return BAD_ARGUMENT;
    if (c > maxn) maxn = c;
  }
  std::vector<double> work(size_t(maxn) + 1);
  for (int32_t k = 0; k < nconf; ++k) {
    int it = 0;
    info[2 * k] = gev_fit_one(x + offsets[k], offsets[k + 1] - offsets[k], max_iter, out + size_t(k) * kGevOut, &it, work.data());
    info[2 * k + 1] = it;
  }
  return OK;
}

}  // namespace varmap
