// Symmetric eigendecomposition A = U diag(w) U^T of one dense m x m matrix: the dense solve of the rbf
// predictor (one decomposition serves the smoothing spline at every smoothing parameter of its GCV grid).
//
// Method: Householder reduction to tridiagonal form with accumulated transformations, then the implicit QL
// algorithm with Wilkinson-like shifts (EISPACK tred2/tql2, as in the public-domain JAMA formulation). Backward
// stable: the computed eigenpairs are exact for a matrix within O(eps ||A||) of A, whatever its conditioning.
// The eigenvalues are returned unsorted; eigenvector i is row i of the output (so U^T v is m dot products of
// contiguous rows).
//
// Status codes (besides status.h's generic ones):
//   10 SYMEIG_NO_CONVERGENCE: an eigenvalue needed more than 30 m QL iterations (not observed; guards the loop).
#pragma once
#include <cstdint>

#include "varmap/status.h"

namespace varmap {

enum SymeigStatus : int { SYMEIG_NO_CONVERGENCE = 10 };

// A: m x m row-major, symmetric (only its values are read, the lower triangle wins where they differ); on
// return row i holds the unit eigenvector of eigenvalue w[i]. work: 2 m doubles.
int symeig(double* A, int32_t m, double* w, double* work);

// Householder reduction of a symmetric m x m matrix (row-major; only its lower triangle is read) to tridiagonal
// form T = Qᵀ A Q, without forming Q: d (m) is T's diagonal, e (m) its subdiagonal (e[i] = T[i][i-1], e[0] = 0).
// Q = H_{m-1} ⋯ H_2 with H_i = I − 2 v_i v_iᵀ, v_i a unit vector (or zero: H_i = I) on coordinates 0..i-1, left
// in row i of A (entries 0..i-1). About (4/3) m³ flops, one pass over the lower triangle per step: a fraction
// of symeig's cost, and all the rbf predictor's GCV needs (T's factorizations give every λ in O(m)).
// work: 4 m doubles.
int symtrid(double* A, int32_t m, double* d, double* e, double* work);

// The rbf predictor's projected kernel matrix (ts/predict/rbf.ts). X: n x d points; cubic: φ(r) = r³ (else
// r² log r); V: n x q, column t the unit Householder vector of H_t (Q = H_1 ⋯ H_q, whose last n − q columns span
// the complement of the polynomial tail). Writes K (n x n, K_ij = φ(‖x_i − x_j‖), full) and the lower triangle of
// B = (Qᵀ K Q)[q:, q:] (m x m, m = n − q; its upper triangle is set to 0), through Q = I − V T Vᵀ:
// Qᵀ K Q = K − A Vᵀ − V Aᵀ, A = K V T − ½ V Tᵀ (Vᵀ K V) T. work: 2 n q + 3 q² doubles.
int rbfgram(const double* X, int32_t n, int32_t d, int32_t cubic, const double* V, int32_t q, double* K, double* B, double* work);

}  // namespace varmap
