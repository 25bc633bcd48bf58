// Constrained acceleration and constraint force by oblique projection (paper §2.1–2.2).
//
// For M q̈ + h = u + f with A q̇ = 0 (hence A q̈ + Ȧ q̇ = 0):
//
//   q̈* = M⁻¹ (u − h)                      unconstrained acceleration
//   q̈⊥ = (I − P) q̈ = −A⁺ Ȧq̇              the N⊥ part fixed by the constraints
//   q̈  = (I − S) q̈* + S q̈⊥               paper eq. (13)
//   f  = Sᵀ (h − u) + Sᵀ M q̈⊥             paper eq. (14);   λ = A⁺ᵀ f  (minimum-norm multipliers)
//
// The paper writes q̈⊥ = Ωq̇ with Ω = Λᵀ − Λ, Λ = −A⁺ȦP. On the constraint manifold (Pq̇ = q̇) that printed
// Ω gives Ωq̇ = +A⁺Ȧq̇, the opposite sign; differentiating Aq̇ = 0 gives q̈⊥ = −A⁺Ȧq̇, which is what is
// used here (docs/paper-notes.md, erratum 1, and the particle-on-a-circle test).
#pragma once

#include "oblique/math/projection.hpp"

namespace oblique {

/// Everything the acceleration model yields at one state.
struct ConstrainedDynamics {
  Vector qdd;             ///< q̈, constrained acceleration
  Vector qdd_free;        ///< q̈*, the acceleration with every constraint removed
  Vector qdd_normal;      ///< q̈⊥ = −A⁺ Ȧq̇
  Vector force;           ///< f, generalized constraint force (M q̈ + h = u + f)
  Vector multipliers;     ///< λ = A⁺ᵀ f, one per row of A
};

/// Computes q̈, f and λ for the projection `proj` of (M, A), the bias force `h` (Coriolis, gravity...),
/// the applied force `u` and the convective term `adot_qd` = Ȧ q̇ (one entry per row of A).
/// Throws std::invalid_argument naming "h", "u" or "adot_qd" on a wrong size or a non-finite entry.
ConstrainedDynamics constrained_dynamics(const Projection& proj, const Vector& h, const Vector& u,
                                         const Vector& adot_qd);

}  // namespace oblique
