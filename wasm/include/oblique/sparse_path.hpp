// When the simulator's sparse path (simulator.hpp: scenes of kSparseSmoothPhaseCoordinates coordinates and
// more) may trust the Delassus factorisation of K = A M⁻¹ Aᵀ, and the impact solve it uses.
//
// The factorisation takes the rows the dense path takes as dependent (delassus.hpp: the same rule on the
// same distances), and then solves with K, whose condition is the square of that of the mass-scaled A. That
// is harmless as long as the kept rows are well apart: a solve loses about log₁₀(1/ρ) digits, ρ the smallest
// pivot ratio d_k/K_kk (the squared sine of the angle between a kept row and the span of the rows before it),
// and one step of refinement wins half of them back. Boxes resting face to face, though, give kept rows a
// few hundred ε from the span of the others (ρ ~ 1e-29 in domino-row): the dense QR of the mass-scaled A
// stays backward stable there (its Newton residual is round-off), K's factor does not (residuals of order
// one). Such a system — ρ below kSparseSolveMinPivotRatio, a sine below 1e-4 — is solved by the dense
// ScaledProjection (scaled_projection.hpp) instead: the dense path's own arithmetic, on the few
// evaluations that need it. Measured on every impact of the built-in scenarios: ρ ≥ 5e-3 on all but three
// (1e-29, 1e-21 and 5e-16, all in domino-row), so the threshold sits far from both.
#pragma once

#include <vector>

#include "oblique/delassus.hpp"
#include "oblique/impact.hpp"

namespace oblique {

/// Smallest pivot ratio of a factorisation the sparse path solves with (header comment).
inline constexpr double kSparseSolveMinPivotRatio = 1e-8;

/// Whether the sparse path solves with `delassus` (its smallest pivot ratio is at least
/// kSparseSolveMinPivotRatio) rather than with the dense ScaledProjection.
inline bool sparse_solve_accurate(const DelassusFactorization& delassus) {
  return delassus.smallest_pivot_ratio() >= kSparseSolveMinPivotRatio;
}

/// The impact of the simulator's sparse path: solve_impact_sparse on the factorisation of (diag(mass), A)
/// when sparse_solve_accurate, else ScaledProjection::impact (per-row restitution E, as solve_impact_on
/// passes it). `dense_fallback`, when not null, is set to whether the dense solve was taken.
ImpactResult solve_impact_large(const Vector& mass, const Matrix& jacobian, const Vector& qd_minus,
                                const Vector& restitution, const Vector& impulse, const std::vector<bool>& unilateral,
                                bool* dense_fallback = nullptr);

}  // namespace oblique
