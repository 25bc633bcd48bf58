// The multipliers of an oblique system on compressed rows: forces along B, velocities (or accelerations)
// held on A, where B is A with some rows turned by their slipping tangents, b_j = a_j − μ_j s_j t_j. The
// slipping impact (frictional_impact_sparse.cpp) and the smooth phase with sliding friction
// (contact_friction.hpp) both solve for them: λ = G⁺r, the minimum-norm least-squares solution of
// G λ = r with G = A M⁻¹Bᵀ, M diagonal. Internal.
//
// Two sparse ways to it, tried in turn:
//   - the Schur complement over the slipping rows. With F = A M⁻¹Aᵀ, U = A M⁻¹Tᵀ (T: the slipping rows'
//     tangents) and V λ = (−μ_j s_j λ_j) on the slipping rows, G = F + UV. When range(G) = range(A) and
//     N(G) = N(Bᵀ) — then A and B have one rank —, G⁺r is the λ ∈ range(B) with G λ = r′ = Π_A r; a
//     solution in range(F), x = F⁺(r′ − U y) with y = V x, solves the system of the slipping rows' size
//         (I + V F⁺U) y = V F⁺ r′,
//     and λ = Π_B x (Bᵀλ = Bᵀx). Checked: both factorisations accurate, one rank, y finite, G λ = r′.
//   - otherwise (a slipping row that was dependent in A is not in B: rank B > rank A, and the forces are not
//     fixed by the laws on A alone, the pseudo-inverse choosing the least multipliers):
//     λ = Gᵀ(G Gᵀ)⁺r, the least squares of the Delassus factorisation of G with unit weights.
// Where neither is accurate (sparse_solve_accurate: G Gᵀ carries the square of G's condition; for the
// smooth phase, also a solution that meets G's rows, as sparse_solution_meets_rows) the caller solves
// densely.
#pragma once

#include <optional>
#include <vector>

#include "math/piecewise_lu.hpp"
#include "oblique/math/work_gate.hpp"
#include "oblique/sparse/delassus.hpp"
#include "oblique/sparse/sparse_rows.hpp"

namespace oblique::detail {

/// A slipping row of an oblique system: its position in A, its tangent's row in the tangents given, and
/// the factor −μ s of b = a + factor · t.
struct SlippingRow {
  Eigen::Index position = 0;
  Eigen::Index tangent = 0;
  double factor = 0.0;
};

/// An oblique system on compressed rows: A, the tangential rows T, the slipping rows among A's and B
/// (oblique_rows).
struct ObliqueSystem {
  SparseJacobian a, tangents, b;
  std::vector<SlippingRow> slipping;
};

/// What of one oblique solve (or one step of a sparse frictional search) is done: its Delassus
/// factorisations (of A, of B, of G), r′ and F⁺r′ with the r they were solved for, the slipping rows'
/// columns F⁺u_j solved so far and the LU of their dense system. A gate that stops the solve leaves them here, and the solve taken again with the same
/// inputs and progress goes on from there, to the bits of an uninterrupted solve; other inputs start from a
/// new (or cleared) progress.
struct SparseStepProgress {
  DelassusFactorization rows, oblique, multipliers;
  Vector solved_rhs, target, base;  ///< r, r′ = Π_A r and F⁺r′ of the last r solved for
  Matrix columns;
  int columns_done = 0;
  PiecewiseLu system;
};

/// The rows `rows` of A, in compressed rows.
SparseJacobian sparse_rows_of(const SparseJacobian& a, const std::vector<int>& rows);

/// B: A with each slipping row turned by its tangent (row `tangent` of `tangents`), zeros pruned.
SparseJacobian oblique_rows(const SparseJacobian& a, const SparseJacobian& tangents, const std::vector<SlippingRow>& slipping);

/// λ = G⁺r (header comment), or nothing when neither sparse way is accurate. Its pieces (the
/// factorisations' searches, each slipping row's pseudo-solve, each column panel of the dense system's LU)
/// are told to `gate` before they run, and what is done of them kept in `progress`. `progress.rows` holds
/// the factorisation of A with the weights `mass` afterwards, whichever way was taken.
///
/// `trust_met_rows`: the smooth phase's rule for a factorisation of G Gᵀ whose only doubt is a dropped row
/// (sparse_path.hpp, sparse_solution_meets_rows): its λ is taken when it meets every row of G λ = r, which
/// then holds as it would on the dense path (q̈ is fixed by it). Impacts never take it: there keeping a row
/// or not changes which rows restitute.
std::optional<Vector> oblique_multipliers(const Vector& mass, const SparseJacobian& a, const SparseJacobian& b,
                                          const SparseJacobian& tangents, const std::vector<SlippingRow>& slipping,
                                          const Vector& rhs, SparseStepProgress& progress, const WorkGate& gate = {},
                                          bool trust_met_rows = false);

/// Flops of a Delassus factorisation of m rows on n coordinates: with `gated`, only what a gate cannot stop
/// (its analysis and solves); else also the searches of its dependent rows and its null basis.
double delassus_flops(double n, double m, bool gated);

/// Flops of oblique_multipliers on m rows of n coordinates with `slipping` rows: with `gated`, only what a
/// gate cannot stop; else all of it, both ways.
double oblique_multipliers_flops(double n, double m, double slipping, bool gated);

/// Flops of the next oblique_multipliers of (A, B) with the weights `mass` that no gate stops, from the
/// factorisations `progress` keeps: the analyses of A's and B's patterns when new (made here) and what is
/// left of their first lines (DelassusFactorization::factorization_estimate, gated; nothing for one made of
/// these inputs already). Everything after them is told to the gate as it comes: the factorisations'
/// searches, the pseudo-solves of r′ and the products, each slipping row's column, the LU, and the least
/// squares of G when the Schur complement does not apply.
double oblique_multipliers_estimate(const Vector& mass, const SparseJacobian& a, const SparseJacobian& b,
                                    SparseStepProgress& progress);

}  // namespace oblique::detail
