// The modified linear Shepard interpolant (LSP) as SHEPPACK's LSHEP / LSHEPVAL (ACM TOMS 905) compute it.
//
// Fit (LSHEP): for every node k, its NP = min(n - 1, floor((3m + 1) / 2)) nearest other nodes (squared
// distances summed over the coordinates in order; equal distances ordered by lower index), R_p = 1.1 d_NP,
// rows (x_i - x_k, f_i - f_k) scaled by (R_p - d_i) / (R_p d_i), the minimum-norm least-squares gradient a_k
// with relative rank tolerance NP * eps (DGELSS's rule), and R_w(k) = min(d_NP, diameter / 2).
// Neighbours come from a k-d tree (exact, same tie rule), so the fit is sub-quadratic where the tree prunes;
// where its first searches show it does not (high dimension), from scans of all nodes four rows at a time.
//
// Evaluation (LSHEPVAL) at q: over the nodes with |q - x_k| < R_w(k), in index order: f_k when q is at x_k
// (R_w - d == R_w), else sum w_k (f_k + a_k . (q - x_k)) / sum w_k with w_k = ((R_w - d) / (R_w d))^2.
// ierr 0, or 2 when the weighted hyperplane normals differ (LSHEPVAL's cosine < 0.9 test). Where no R_w covers
// q, LSHEPVAL's fallback: inverse-distance-squared weights of m + 1 nodes chosen by its slot-replacement scan
// in index order (ierr 1). The covering nodes come from a k-d tree with per-cell max R_w where it prunes,
// else from scans of all nodes four queries at a time (few nodes, high dimension); the fallback scans all
// nodes as LSHEPVAL does. Every path computes each squared distance in LSHEP's order, so results do not
// depend on the path taken.
//
// Status codes (besides status.h's):
//   10 LSP_TOO_FEW_POINTS   n <= m + 1 (LSHEP's IER = 1)
//   11 LSP_DUPLICATE_POINTS two nodes coincide: rank[k] = -1 marks each node with a coincident neighbour
//   12 LSP_LSTSQ_FAILED     a local least-squares problem did not converge (see lstsq.h)
//   13 LSP_BAD_RADIUS       an evaluation was given a radius that is not positive and finite
//   14 LSP_WEIGHTS_CAPACITY lsp_weights: a query has more weighted nodes than cap (count says how many)
#pragma once
#include <cstdint>

namespace varmap {

enum LspStatus : int { LSP_TOO_FEW_POINTS = 10, LSP_DUPLICATE_POINTS = 11, LSP_LSTSQ_FAILED = 12, LSP_BAD_RADIUS = 13, LSP_WEIGHTS_CAPACITY = 14 };

// X: n x m row-major nodes, f: n values. Writes A (n x m gradients), rw (n radii), rank (n local ranks).
int lsp_fit(const double* X, const double* f, int32_t n, int32_t m, double* A, double* rw, int32_t* rank);

// Evaluates the fitted interpolant at Q (nq x m). Writes out (nq) and ierr (nq: 0, 1 fallback, 2 normals).
int lsp_eval(const double* X, const double* f, const double* A, const double* rw, int32_t n, int32_t m,
             const double* Q, int32_t nq, double* out, int32_t* ierr);

// LSHEPVAL's normalized Shepard weights at every row of Q, the ones lsp_eval combines: for query i, count[i]
// (node, weight) pairs in idx/w[i * cap ..], code[i] 0 (nodes whose R_w covers q), 1 (the fallback's m + 1
// inverse-distance nodes), 3 (q is a node: weight 1 there). Needs cap >= m + 1; a query with more
// covering nodes than cap stops with LSP_WEIGHTS_CAPACITY (cap = max(n, m + 1) always suffices).
int lsp_weights(const double* X, const double* rw, int32_t n, int32_t m, const double* Q, int32_t nq, int32_t cap,
                int32_t* count, int32_t* code, int32_t* idx, double* w);

// Many fits on subsets of one point set (cross-validation): a neighbour table computed once replaces each
// fit's neighbour search and each evaluation's radius search, with results identical to lsp_fit + lsp_eval.
//
// lsp_neighbors: for every row i of X (n x m), its K (1 <= K <= n - 1) nearest other rows in LSHEP's order
// (squared distance summed over the coordinates in order, then lower row): nbr (n x K) and their squared
// distances nd2 (n x K).
int lsp_neighbors(const double* X, int32_t n, int32_t m, int32_t K, int32_t* nbr, double* nd2);

// lsp_subsets: for each subset s < S, exactly lsp_fit on the rows train[trainOff[s] .. trainOff[s+1]) of
// (X, f) (strictly ascending rows, so neighbour ties break as in the gathered set) and lsp_eval of that fit at
// the rows query[queryOff[s] .. queryOff[s+1]) of X. nbr/nd2 must be lsp_neighbors(X, N, m, K). Outputs are
// laid out like the index lists: A (m per training row), rw and rank (one per training row), out and ierr
// (one per query row), status[s] the subset's status (lsp_fit's, else lsp_eval's; out is unset unless OK).
// A node whose K nearest rows hold fewer than NP training rows falls back to a k-d tree of its subset, and a
// node whose radius reaches past its K rows tests every query row, so K only changes speed. Returns
// BAD_ARGUMENT for malformed offsets or rows, else OK.
int lsp_subsets(const double* X, const double* f, int32_t N, int32_t m, const int32_t* nbr, const double* nd2, int32_t K,
                int32_t S, const int32_t* trainOff, const int32_t* train, const int32_t* queryOff, const int32_t* query,
                double* A, double* rw, int32_t* rank, int32_t* status, double* out, int32_t* ierr);

}  // namespace varmap
