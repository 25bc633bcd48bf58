// The projections the simulator integrates and resolves impacts with: those of (M, A) for a diagonal M (as
// M is in absolute coordinates, model.hpp), computed where they are well conditioned.
//
// With M = D² diagonal, the coordinates no row of A touches (zero columns of A) decouple exactly: S has
// zero rows and columns there, so the constraints neither move them in an impact nor accelerate them
// (q̈ = q̈* there). The others are taken in mass-scaled coordinates q̃ = D q, in which M̃ = I and Ã = A D⁻¹:
//
//   S = D⁻¹ S̃ D,   q̇⁺ = D⁻¹ q̃̇⁺,   i_f = D ĩ_f,   q̈ = D⁻¹ q̃̈,   f = D f̃,   i_λ = ĩ_λ,   λ = λ̃,   Q = Q̃
//
// (i_λ and λ are the minimum-norm solutions of Aᵀλ = f, the same set as Ãᵀλ = f̃; Q = GᵀMG with G = SA⁺ is
// the same matrix: docs/paper-notes.md). The paper's formulas give the same results in either coordinates;
// what changes is round-off. Taken directly, a mass ratio of 10¹² between two bodies multiplies the
// round-off of the orthogonal factors by up to 10¹² in S: an impact on a vertical row then sent a light disk
// sideways at 2 km/s. In scaled coordinates Mc̃ = P̃ + ν̃(I − P̃) is the identity at the optimal ν̃ = 1 and S̃
// is an orthogonal projector: nothing is amplified, and untouched coordinates are untouched exactly.
//
// The displayed projections are still those of (M, A) itself at the ν asked for (ImpactRecord::projection,
// bit-identical to the paper's formulas as written); unscaled_projection_scalars gives their rank, ν, ν
// interval and cond(Mc) from the touched block, without an n×n eigenproblem.
#pragma once

#include <optional>
#include <vector>

#include "oblique/math/dynamics.hpp"
#include "oblique/math/impact.hpp"
#include "oblique/math/impact_solution.hpp"
#include "oblique/math/projection.hpp"

namespace oblique {

/// The coordinates some row of A touches (its non-zero columns), ascending.
std::vector<int> touched_coordinates(const Matrix& jacobian);

/// (diag(mass), A) on the coordinates A touches: S, A⁺ and G = SA⁺ vanish in the rows of the others, so
/// the projections of the block are those of the whole on them (header comment).
struct TouchedBlock {
  std::vector<int> touched;  ///< the coordinates A touches, ascending
  Vector mass;               ///< diag(M) on them
  Matrix jacobian;           ///< A's columns of them (m × touched.size())
};
/// The touched block of (diag(`mass`), `jacobian`); empty when A has no non-zero entry.
TouchedBlock touched_block(const Vector& mass, const Matrix& jacobian);

/// The projections of (diag(mass), A), scaled and reduced (header comment).
class ScaledProjection {
 public:
  /// `mass` is diag(M), positive; `jacobian` is A (m×n, any rank, m may be 0).
  ScaledProjection(const Vector& mass, const Matrix& jacobian);

  int rank() const { return projection_ ? projection_->rank() : 0; }
  /// The coordinates some row of A touches, ascending.
  const std::vector<int>& touched() const { return touched_; }

  /// q̈, f and λ as constrained_dynamics gives them (dynamics.hpp), for h, u, Ȧq̇ and q̈* = M⁻¹(u − h).
  ConstrainedDynamics dynamics(const Vector& h, const Vector& u, const Vector& adot_qd, const Vector& qdd_free) const;
  /// (I − S) q̇: the M-orthogonal projection of q̇ onto N(A).
  Vector project_velocity(const Vector& qd) const;
  /// The impact as solve_impact gives it (impact.hpp), per-row restitution E, without the matrices Ẽ and Q;
  /// energies, γ and the energy flag over every coordinate.
  ImpactResult impact(const Vector& qd_minus, const Vector& restitution, const Vector& external_impulse,
                      const std::vector<bool>& unilateral) const;

 private:
  int n_ = 0;
  Vector mass_;
  std::vector<int> touched_;
  Vector scale_;  // D on the touched coordinates
  std::optional<Projection> projection_;  // of (I, Ã) on the touched coordinates; none when nothing is touched
  int rows_ = 0;
};

/// Rank, ν (the one asked for, or the condition-optimal one), the optimal interval of ν and cond(Mc) of the
/// projections of (diag(mass), A): those Projection(M, A, nu) reports, to round-off, computed on the block
/// of touched coordinates (the others add their masses to the spectrum of PMP).
ProjectionScalars unscaled_projection_scalars(const Vector& mass, const Matrix& jacobian, std::optional<double> nu);
/// The same from the touched block of (diag(mass), A) (touched_block) and, unless the block is empty, its
/// projections Projection(diag(block.mass), block.jacobian, nu): for a caller that needs those projections
/// for more than the scalars (the impact log's Q), so that they are built once.
ProjectionScalars unscaled_projection_scalars(const Vector& mass, const TouchedBlock& block,
                                              const Projection* block_projection, std::optional<double> nu);

}  // namespace oblique
