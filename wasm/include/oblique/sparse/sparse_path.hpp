// When the simulator's sparse path (simulator.hpp: every scene, kSparseSmoothPhaseCoordinates = 0) may trust
// the Delassus factorisation of K = A M⁻¹ Aᵀ, and the impact solve it uses.
//
// The factorisation solves with K, whose condition is the square of that of the mass-scaled A, and decides
// the rank by distances measured through K's factor (delassus.hpp). The dense path decides by the pivots of
// a QR of the mass-scaled A, and stays backward stable however close its kept rows. Both agree, and the
// sparse solve is accurate, as long as every row is clearly one thing or the other; boxes resting face to
// face, though, give rows a few hundred ε from the span of the others without lying in it (domino-row),
// where keeping the row or not changes q̇⁺ by O(1) and where a kept row leaves K unsolvable (smallest pivot
// ratio 1e-29, Newton residual of order one). So the sparse path trusts a factorisation only when
//   - every dropped row lies within a quarter of the dense rule's threshold of the span of the rows before
//     it (dense_rank_threshold: then the dense QR drops it too), and
//   - every kept row is at least 1e-4 rad from the span of those before it (smallest pivot ratio at least
//     kSparseSolveMinPivotRatio = 1e-8: the dense QR keeps it, and K's solve loses at most 8 digits, half of
//     them won back by the refinement step);
// otherwise that evaluation is solved by the dense ScaledProjection (scaled_projection.hpp): the dense path's
// own arithmetic, on the few evaluations that need it. From kDroppedRowTrustCoordinates, a smooth-phase
// evaluation whose only doubt is a dropped row is kept on the sparse path when its solution meets that row
// as well (sparse_solution_meets_rows):
// a pile at rest in a bin has such a row at every step (1e-13 from dependent, three times the dense
// threshold), and the dense projection of its 90 coordinates cost it 60 times the sparse one. Measured on every impact of the built-in scenarios:
// the pivot ratio is at least 5e-3 on all but three (1e-29, 1e-21 and 5e-16, all in domino-row).
#pragma once

#include <vector>

#include "oblique/sparse/delassus.hpp"
#include "oblique/math/impact.hpp"

namespace oblique {

/// Smallest pivot ratio of a factorisation the sparse path solves with (header comment).
inline constexpr double kSparseSolveMinPivotRatio = 1e-8;

/// Whether the rows `delassus` kept are conditioned well enough for the sparse solve: its smallest pivot
/// ratio is at least kSparseSolveMinPivotRatio (header comment). What every sparse solve asks first.
inline bool kept_rows_well_conditioned(const DelassusFactorization& delassus) {
  return delassus.smallest_pivot_ratio() >= kSparseSolveMinPivotRatio;
}

/// Whether the sparse path solves with `delassus` rather than with the dense ScaledProjection: its kept rows
/// are well conditioned and its dropped rows lie within a quarter of the dense rank threshold (header
/// comment).
inline bool sparse_solve_accurate(const DelassusFactorization& delassus) {
  return kept_rows_well_conditioned(delassus) &&
         delassus.largest_dropped_distance() <= 0.25 * delassus.dense_rank_threshold();
}

/// Coordinates from which a smooth-phase evaluation whose only doubt is a dropped row stays on the sparse path
/// when its solution meets that row (sparse_solution_meets_rows); below, such an evaluation is solved dense.
/// The scenes the rule was made for are large (the pile of 30 at rest: n = 90, where the dense fallback cost
/// 60 times the sparse solve). In domino-row (n = 18) the rule kept leaning dominoes face to face on the sparse
/// path with their dropped rows met to 1e-10 only, and the dense impacts that followed on those nearly
/// dependent rows gained energy (K⁺/K⁻ up to 1.7; 20 of 30 runs with the last domino nudged by k·1e-7 m, the
/// built-in itself at t = 1.084 s), where the dense evaluations made them consistent to round-off (no gain in
/// the 30 runs).
inline constexpr int kDroppedRowTrustCoordinates = 21;

/// Whether a smooth-phase evaluation on `coordinates` coordinates solves with `delassus` on the sparse path:
/// when sparse_solve_accurate, or, from kDroppedRowTrustCoordinates, when its only doubt is a dropped row (its
/// kept rows well conditioned) — a solution then taken only when it meets every row
/// (sparse_solution_meets_rows).
inline bool smooth_phase_solves_sparse(const DelassusFactorization& delassus, int coordinates) {
  return sparse_solve_accurate(delassus) ||
         (coordinates >= kDroppedRowTrustCoordinates && kept_rows_well_conditioned(delassus));
}

/// Relative residual up to which a row of A counts as met by a solution (sparse_solution_meets_rows): the
/// factorisation's own dependency tolerance, the angle below which it calls a row dependent.
inline constexpr double kRowResidualTolerance = DelassusFactorization::kDefaultDependencyTolerance;

/// Whether the solution x of a smooth-phase solve on `delassus` meets every row of A, the dropped rows
/// included: |A_i x − target_i| ≤ kRowResidualTolerance · (‖A_i‖₁ · scale + |target_i|) for each row i (a
/// normwise backward error), `scale` the size of the motion solved for (‖q̇‖∞ or ‖q̈‖∞ + ‖q̈*‖∞). When the
/// factorisation's only doubt is a dropped row between the dense rule's threshold and its own (boxes resting
/// face to face: rows some 1e-13 from dependent), and the kept rows are well conditioned
/// (kept_rows_well_conditioned: false here whatever x), a solution that meets the dropped rows too is the constrained motion the
/// dense path computes: q̈ and (I − S)q̇ are unique however A's rows are counted, and only their round-off
/// differs, which near-dependent rows amplify on the dense path, not here. The multipliers are the
/// minimum-norm λ of the paper's A⁺ either way. Impacts never take this test (sparse_solve_accurate only):
/// there keeping a row or not changes which rows restitute, and q̇⁺ by O(1).
bool sparse_solution_meets_rows(const DelassusFactorization& delassus, const Vector& x, const Vector& target,
                                double scale);

/// The impact of the simulator's sparse path: solve_impact_sparse on the factorisation of (diag(mass), A)
/// when sparse_solve_accurate, else ScaledProjection::impact (per-row restitution E, as solve_impact_on
/// passes it). `dense_fallback`, when not null, is set to whether the dense solve was taken.
ImpactResult solve_impact_large(const Vector& mass, const Matrix& jacobian, const Vector& qd_minus,
                                const Vector& restitution, const Vector& impulse, const std::vector<bool>& unilateral,
                                bool* dense_fallback = nullptr);

}  // namespace oblique
