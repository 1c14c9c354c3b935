// The k nearest neighbours of each query row among data rows (exact, brute force).
#pragma once
#include <cstdint>

namespace varmap {

// Kernel-specific status codes (see status.h for the generic ones).
enum NeighborsStatus : int {
  KNN_TOO_FEW_POINTS = 10,  // k exceeds the number of candidate data rows (n, or n - 1 when a row is excluded)
};

// For each query i (Q is nq x d, X is n x d, row-major): idx[i*k + r] is the data row of the r-th nearest
// neighbour and dist[i*k + r] its Euclidean distance, nearest first; equal distances are ordered by lower index.
// When has_exclude != 0, exclude[i] (in -1..n-1) is a data row query i must not return (-1: none), which gives
// "the nearest other points" when the queries are the data rows themselves.
// Status: BAD_ARGUMENT (negative sizes, d < 1, k < 0, exclude index out of range), NONFINITE, KNN_TOO_FEW_POINTS.
int knn(const double* X, int32_t n, const double* Q, int32_t nq, int32_t d, const int32_t* exclude,
        int32_t has_exclude, int32_t k, int32_t* idx, double* dist);

}  // namespace varmap
