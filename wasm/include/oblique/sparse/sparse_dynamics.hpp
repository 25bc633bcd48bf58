// The paper's constrained dynamics, velocity projection and impact through the Delassus factorisation
// (delassus.hpp), for a diagonal M and a sparse A: the same q̈, f, λ, q̇⁺, i_f, i_λ, K±, W_loss and γ as
// dynamics.hpp and impact.hpp, to round-off, without forming P, Mc or S (no n×n matrix, no O(n³) step).
//
// With K = A M⁻¹ Aᵀ and Π = AA⁺ (the orthogonal projector of ℝᵐ onto range(A) = range(K)), the oblique
// projector of eq. (10) is
//
//   S = M⁻¹ Aᵀ K⁺ A
//
// (it is idempotent, SP = 0, MS = AᵀK⁺A is symmetric, and (I − P)S = A⁺KK⁺A = I − P: the properties (11)
// that define it), Mo⁺ = (I − S)M⁻¹, and Q = GᵀMG of eq. (54) with G = SA⁺ is K⁺ itself. Hence:
//
//   smooth phase (eqs. 13, 14, erratum 1):
//     q̈* = M⁻¹(u − h),   K λ = −A q̈* − Π Ȧq̇,   f = Aᵀ λ,   q̈ = q̈* + M⁻¹ f
//     λ = K⁺(−A q̈* − Π Ȧq̇) = A⁺ᵀ f, the minimum-norm multipliers
//   velocity projection:  (I − S) q̇ = q̇ − M⁻¹ Aᵀ μ,  K μ = A q̇
//   impact (eqs. 27, 30, 49, 50), v = q̇⁻ + M⁻¹ i_u the velocity the external impulse alone would give:
//     K μ = A v + Π E A q̇⁻,   q̇⁺ = v − M⁻¹ Aᵀ μ,   i_f = −Aᵀ μ,   i_λ = −K⁺(A v + Π E A q̇⁻) = A⁺ᵀ i_f
//     (E = eI for a global e; Π E A q̇⁻ = A Ẽ q̇⁻ with Ẽ = A⁺EA of eq. 44)
//
// Exactness whatever the rank: f, q̈, q̇⁺ and i_f depend only on Aᵀμ, the same for every solution of the
// consistent system; the right-hand sides lie in range(K) by construction (Π). So with a rank-deficient A
// and unequal eᵢ the paper's least-squares law A q̇⁺ = −AA⁺EAq̇⁻ (eq. 46) is reproduced exactly, not
// approximated; multipliers and impulses are the minimum-norm ones the paper defines through A⁺. Π costs
// nothing for a full row rank A; otherwise it uses the null basis of the factorisation.
//
// Not computed here: the dense operators the panels show (P, Mc, S, R, Ẽ, Q, ν and cond(Mc)) and the
// energetic-consistency test λ_max(EQE − Q), which needs the spectrum of an m×m matrix. They come from a
// Projection of the same (M, A) when an impact is displayed (solve_impact gives the same numbers).
#pragma once

#include <vector>

#include "oblique/sparse/delassus.hpp"
#include "oblique/math/impact.hpp"

namespace oblique {

/// What the acceleration model yields at one state (ConstrainedDynamics without q̈⊥).
struct SparseDynamics {
  Vector qdd;          ///< q̈
  Vector qdd_free;     ///< q̈* = M⁻¹(u − h)
  Vector force;        ///< f = Aᵀλ, with M q̈ + h = u + f
  Vector multipliers;  ///< λ = A⁺ᵀ f (minimum norm); empty unless asked for
};

/// q̈, f and (when `multipliers`) λ for the factorised K of (M, A) (`delassus`, weights = diag M), the bias
/// force `h`, the applied force `u` and the convective term `adot_qd` = Ȧq̇ (one entry per row of A).
/// Without `multipliers` a full row rank A costs one solve; λ of a rank-deficient A needs the null basis.
/// Throws std::invalid_argument naming "h", "u" or "adot_qd" on a wrong size or a non-finite entry.
SparseDynamics constrained_dynamics_sparse(const DelassusFactorization& delassus, const Vector& h, const Vector& u,
                                           const Vector& adot_qd, bool multipliers = true);

/// (I − S) q̇: the velocity put back on the constraints along the M-orthogonal direction, the paper's
/// plastic impact map. Throws std::invalid_argument naming "qd".
Vector project_velocity_sparse(const DelassusFactorization& delassus, const Vector& qd);

/// The impact of solve_impact (same arguments, same checks and messages, same flags and tolerances) for
/// the factorised K of (M, A). Every field of ImpactResult is filled but the three that need the dense
/// operators: `restitution_transfer` (Ẽ) and `qmi` (Q) are left 0×0, and `qmi_max_eig` is NaN, so
/// `energy_consistent` is false, meaning "not established": the impact's record computes them when asked
/// (ImpactRecord::energy_consistency), and solve_impact with a Projection of the same (M, A) gives Ẽ and Q
/// when the impact is shown.
ImpactResult solve_impact_sparse(const DelassusFactorization& delassus, const Vector& qd_minus,
                                 const Restitution& restitution, const Vector& external_impulse = Vector(),
                                 const std::vector<bool>& unilateral = {});

}  // namespace oblique
