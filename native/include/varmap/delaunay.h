// Delaunay simplex location in any dimension (after DelaunaySparse, ACM TOMS Algorithm 1012), without building
// the whole triangulation: for each query, a Delaunay simplex grown from the query's nearest data point, then a
// walk by flips toward the query. Outside the convex hull the query is projected onto the hull (Wolfe's
// minimum-norm-point algorithm) and located there.
//
// Ties: cospherical data (grids) have many Delaunay triangulations. Every point i is lifted to |x_i|^2 + delta_i
// with a tiny pseudo-random delta_i keyed by its index i (1e-13 of the squared data radius), so the located
// simplices belong to one well-defined (regular) triangulation whatever the query order, batch split or backend.
//
// Within one call, neighbours across facets and first simplices are memoized (they are pure functions of the
// data), so many queries on one training set share work without changing any answer.
#pragma once
#include <cstdint>

namespace varmap {

// Kernel status codes (besides the generic 0-4 of status.h).
enum DelaunayStatus : int {
  DELAUNAY_DUPLICATE = 10,    // two data points closer than 1e-6 of the data radius; info[0], info[1] = their indices
  DELAUNAY_DEGENERATE = 11,   // the data lie in an affine subspace of dimension info[0] < d
  DELAUNAY_TOO_FEW = 12,      // n < d + 1
  DELAUNAY_NO_CONVERGE = 13,  // a walk or projection exceeded its step budget; info[0] = the query
};

// Per-query codes written to qstatus.
enum DelaunayQuery : int {
  QUERY_INSIDE = 0,        // inside the convex hull (barycentric weights >= -eps)
  QUERY_EXTRAPOLATED = 1,  // outside: located at its projection onto the hull, rnorm = distance
  QUERY_TOO_FAR = 2,       // outside by more than max_extrap: simplex/weights still of the projection
};

// X: n x d data, Q: nq x d queries (row-major). eps: barycentric tolerance (a weight >= -eps counts as inside).
// max_extrap: largest projection distance (units of X) still reported as QUERY_EXTRAPOLATED.
// Outputs: simplices[nq*(d+1)] (vertex indices, ascending), weights[nq*(d+1)], qstatus[nq], rnorm[nq],
// info[4]: error details, then info[2] = flips computed, info[3] = walk steps taken (diagnostics).
int delaunay_locate(const double* X, int32_t n, int32_t d, const double* Q, int32_t nq, double eps,
                    double max_extrap, int32_t* simplices, double* weights, int32_t* qstatus, double* rnorm,
                    int32_t* info);

}  // namespace varmap
