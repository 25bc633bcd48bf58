// Painlevé's check of a smooth phase with sliding friction (contact_friction.hpp): whether W, the Schur
// complement of the sliding normal rows S in K = A M⁻¹ Bᵀ, is a P-matrix.
//
// W = K_SS − K_SR K_RR⁺ K_RS (R: every other row of A). The rows R keep their own direction in B (only a
// sliding normal row is turned, to n − μ s t), so K_RR = F_R = A_R M⁻¹ A_Rᵀ, K_SR = A_S M⁻¹ A_Rᵀ and
// K_RS = A_R M⁻¹ B_Sᵀ, and
//
//   W = A_S (M⁻¹ − M⁻¹ A_Rᵀ F_R⁺ A_R M⁻¹) B_Sᵀ
//
// — the sliding rows seen through the motion the other rows leave free (the bracket is M^(−1/2) times the
// orthogonal projector onto N(A_R M^(−1/2)), times M^(−1/2)). On compressed rows that is one Delassus
// factorisation of A_R and one pseudo-solve per sliding point: column j of W is A_S z_j with
// z_j = x_j − M⁻¹A_Rᵀ F_R⁺ A_R x_j and x_j = M⁻¹ b_jᵀ. No m×m K, no dense decomposition of it: for 256
// disks sliding in a grid (768 coordinates, about 780 rows, 210 sliding points) some 10⁷ flops where the
// dense form costs billions. The pseudo-inverse makes it exact whatever the rank of A_R (a grid's
// sticking points close loops of dependent rows), as the dense form's complete orthogonal decomposition.
#pragma once

#include <optional>
#include <vector>

#include "oblique/friction/contact_friction.hpp"
#include "oblique/math/projection.hpp"
#include "oblique/sparse/sparse_rows.hpp"

namespace oblique {

/// Painlevé's verdict on W: `painleve` when W is not a P-matrix; `margin` its smallest principal minor
/// relative to its scale (< 0 or ≈ 0 when painleve) — every principal minor for up to 10 sliding points;
/// beyond, the leading ones, each by the pivot it adds relative to its diagonal entry.
struct PainleveVerdict {
  bool painleve = false;
  double margin = 0.0;
};

/// The verdict on W (|S|×|S|): a minor at round-off of its scale (margin ≤ 1e-9) counts as zero, no unique
/// solution.
PainleveVerdict painleve_verdict(const Matrix& w);

/// Flops painleve_verdict spends on a W of `sliding` rows: every subset's LU up to 10 rows, else one
/// elimination.
double painleve_verdict_flops(int sliding);

/// W of the header comment from compressed rows: `mass` M's diagonal, `jacobian` A (m×n, its rows as
/// sliding_friction_dynamics takes them), `tangents` one row per sliding contact in the order of `sliding`.
/// Nothing when the Delassus factorisation of A_R is not accurate (sparse_path.hpp's rule): the dense form
/// decides then.
std::optional<Matrix> sliding_schur_complement_sparse(const Vector& mass, const SparseJacobian& jacobian,
                                                      const SparseJacobian& tangents,
                                                      const std::vector<SlidingContact>& sliding);

/// Flops sliding_schur_complement_sparse spends for `sliding` points among the m rows of A (n coordinates,
/// `entries` non-zeros), known before it runs: the factorisation of A_R (its searches for dependent rows
/// included), then per sliding point a pseudo-solve and the products with A.
double sliding_schur_complement_sparse_flops(int n, int m, int entries, int sliding);

}  // namespace oblique
