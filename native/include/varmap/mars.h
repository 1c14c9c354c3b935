// MARS (multivariate adaptive regression splines) as R's earth 5.3 fits it: Friedman's forward pass with the
// Fast MARS parent queue, earth's minspan/endspan rules and Auto.linpreds, removal of linearly dependent terms,
// then a backward elimination (best subset of each size by RSS) and selection of the size by GCV.
#pragma once
#include <cstdint>

namespace varmap {

// Kernel-specific status codes.
enum MarsStatus : int {
  MARS_SINGULAR = 11,  // the pruning regression became singular (should not happen after the rank fix)
};

// Layout of the option vector `opts` passed to mars_fit (doubles; integers are exact).
enum MarsOpt : int {
  MO_DEGREE = 0,         // maximum interaction degree (earth: degree, default 1)
  MO_NK = 1,             // maximum number of terms in the forward pass including the intercept (nk)
  MO_THRESH = 2,         // forward pass stops when R^2 improves by less than this (thresh, 0.001)
  MO_PENALTY = 3,        // GCV cost per knot (penalty: 2 for degree 1, 3 otherwise; -1 = knots are free)
  MO_MINSPAN = 4,        // 0 = Friedman's formula; > 0 = cases between knots; < 0 = number of knots
  MO_ENDSPAN = 5,        // 0 = Friedman's formula; > 0 = cases from each end without knots
  MO_FASTK = 6,          // Fast MARS queue length (fast.k, 20; 0 = all parents)
  MO_FASTBETA = 7,       // Fast MARS ageing coefficient (fast.beta, 1)
  MO_NEWVAR_PENALTY = 8, // penalty for a predictor entering for the first time (newvar.penalty, 0)
  MO_AUTO_LINPREDS = 9,  // 1: a best knot at a predictor's minimum enters as a linear term (Auto.linpreds)
  MO_ADJUST_ENDSPAN = 10,// endspan multiplier for interaction terms (Adjust.endspan, 2)
  MO_SCALE_Y = 11,       // 1: standardize y for the forward pass (Scale.y)
  MO_COUNT = 12,
};

// Layout of the `info` output vector.
enum MarsInfo : int {
  MI_NTERMS = 0,      // terms created by the forward pass (rows of dirs/cuts used), including unused slots
  MI_TERMCOND = 1,    // why the forward pass stopped: earth's termcond 1..7
  MI_NFULLSET = 2,    // linearly independent terms kept after the forward pass
  MI_NSELECTED = 3,   // terms in the pruned model
  MI_RSS = 4,         // RSS of the selected model (original y)
  MI_GCV = 5,         // GCV of the selected model
  MI_RSQ = 6,         // R^2 of the selected model
  MI_GRSQ = 7,        // generalized R^2 = 1 - GCV/GCV(intercept only)
  MI_TSS = 8,         // total sum of squares of y about its mean
  MI_FORWARD_RSQ = 9, // R^2 reached by the forward pass (on scaled y)
  MI_COUNT = 10,
};

// Fits a MARS model.
//   X: n x d row-major inputs; y: n responses; opts: MO_COUNT options (see MarsOpt); nk = opts[MO_NK].
//   dirs (nk x d, row per term): 0 unused, 1 = max(0, x - cut), -1 = max(0, cut - x), 2 = x (linear)
//   cuts (nk x d): knots; termFlags (nk): bit 0 = kept after the forward pass, bit 1 = selected by pruning
//   coef (nk): coefficient of each selected term (0 elsewhere); rssPerSubset (nk): RSS of the best subset of
//   each size 1..nFullSet (pruning order); info: MI_COUNT values (see MarsInfo).
int mars_fit(const double* X, const double* y, int32_t n, int32_t d, const double* opts, int32_t* dirs,
             double* cuts, int32_t* termFlags, double* coef, double* rssPerSubset, double* info);

// Evaluates a fitted model: out[q] = sum_t coef[t] * prod_j h_tj(Xq[q, j]) over the nTerms given terms.
int mars_predict(const int32_t* dirs, const double* cuts, const double* coef, int32_t nTerms, int32_t d,
                 const double* Xq, int32_t nq, double* out);

}  // namespace varmap
