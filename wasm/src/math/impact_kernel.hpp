// The two ends every impact backend shares — the dense projections (impact.cpp) and the sparse Delassus
// factorisation (sparse/sparse_dynamics.cpp) —, so that their inputs are checked with the same messages and
// their outputs finished by the same formulas, whichever computed q̇⁺ (the frictional search's steps take
// their energies from set_energies too).
#pragma once

#include <limits>
#include <vector>

#include "oblique/math/impact.hpp"

namespace oblique::detail {

/// Checks an impact's inputs where they enter, naming each field: q̇⁻ (`qd`, n finite entries), e (`e`, in
/// [0, 1]) or one coefficient per row of A (`E`, `E[i]`), i_u (`iu`, n finite entries, or none for zero),
/// one flag per row of A (`unilateral`, or none). Fills `out`'s q̇⁻, e_i, whether e is global and i_u.
void begin_impact(int n, int m, const Vector& qd_minus, const Restitution& restitution,
                  const Vector& external_impulse, const std::vector<bool>& unilateral, ImpactResult& out);

/// An impact's energies and Newton's residual into `out` (an ImpactResult, or a frictional attempt, which
/// keep the same fields), from q̇⁻, `out`'s q̇⁺ and i_f, the momenta p∓ = Mq̇∓, and over the rows of the
/// velocity law their A q̇∓ and e:
///   K∓ = ½ q̇∓ᵀp∓,  W = ½ i_fᵀ(q̇⁻ + q̇⁺),  γ = K⁺/K⁻ (NaN when K⁻ = 0),  ‖Aq̇⁺ + EAq̇⁻‖ / ‖Aq̇⁻‖.
template <typename Outcome>
void set_energies(const Vector& qd_minus, const Vector& momentum_minus, const Vector& momentum_plus,
                  const Vector& normal_minus, const Vector& normal_plus, const Vector& restitution, Outcome& out) {
  // Kinetic energies, the constraint impulse's work and the ratio γ.
  out.kinetic_minus = 0.5 * qd_minus.dot(momentum_minus);
  out.kinetic_plus = 0.5 * out.qd_plus.dot(momentum_plus);
  out.kinetic_energy_change = out.kinetic_plus - out.kinetic_minus;
  out.constraint_work = 0.5 * out.impulse.dot(qd_minus + out.qd_plus);
  out.energy_ratio = out.kinetic_minus > 0.0 ? out.kinetic_plus / out.kinetic_minus
                                             : std::numeric_limits<double>::quiet_NaN();
  // Newton's law residual relative to the approach.
  const Vector newton_gap = normal_plus + restitution.cwiseProduct(normal_minus);
  const double approach = normal_minus.norm();
  out.newton_residual = approach > 0.0 ? newton_gap.norm() / approach : newton_gap.norm();
}

/// What follows from q̇⁺ whatever the backend, given `out`'s q̇⁻, q̇⁺, i_f, i_λ, Aq̇⁻, Aq̇⁺ and e_i, the
/// momenta p⁻ = Mq̇⁻ and p⁺ = Mq̇⁺, and the largest row norm of A, max ‖A_i‖:
///   K∓ = ½ q̇∓ᵀp∓,  W = ½ i_fᵀ(q̇⁻ + q̇⁺),  γ = K⁺/K⁻,
///   Newton's residual ‖Aq̇⁺ + EAq̇⁻‖ / ‖Aq̇⁻‖,
/// and the flags of the unilateral rows: i_λ < 0 beyond round-off (the contact would pull), Aq̇⁺ < 0 beyond
/// round-off of the speeds involved (still approaching), W > 0 beyond round-off of K (energy created).
void finish_impact(const Vector& momentum_minus, const Vector& momentum_plus, double largest_row_norm,
                   const std::vector<bool>& unilateral, ImpactResult& out);

}  // namespace oblique::detail
