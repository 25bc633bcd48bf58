// Coulomb friction at the active contacts of a smooth phase (docs/friction.md, "Smooth phases").
//
// An active contact point with 0 < μ < ∞ is in one of two states (SimulationState::sliding):
//   sticking: its tangential row t is in A (v_t = t q̇ held at 0) while its multipliers stay in the cone,
//             |λ_t| ≤ μ λ_n;
//   sliding in direction s = sign(v_t): its tangential row is not in A; the friction force −μ s λ_n acts
//             along tᵀ, so the force of the point is (n − μ s t)ᵀ λ_n. With B = A whose normal rows of the
//             sliding points are n − μ s t (the directions of the forces), the smooth dynamics is
//               M q̈ = u − h + Bᵀλ,   A q̈ = −Ȧq̇   ⇒   (A M⁻¹ Bᵀ) λ = −Ȧq̇ − A q̈*,   q̈ = q̈* + M⁻¹Bᵀλ,
//             the normal force and the friction solved together (an oblique projection, as the slipping
//             impact's: frictional_impact.hpp); with μ = 0 it is the paper's q̈ (dynamics.hpp).
// Painlevé. The sliding normal forces solve W λ_S = r with W = K_SS − K_SR K_RR⁺ K_RS, the Schur complement
// of the sliding normal rows S in K = A M⁻¹ Bᵀ (R: every other row). Without friction W is symmetric positive
// definite; with friction it is not symmetric, and when it is not a P-matrix (some principal minor ≤ 0) the
// rigid-body problem of the unilateral sliding contacts has, for some r, no solution or several: Painlevé's
// paradox. sliding_friction_dynamics reports it (painleve; the verdict and W from compressed rows are in
// painleve_check.hpp); the simulator then takes the way out documented in simulator.hpp (a tangential
// impact).
#pragma once

#include <vector>

#include "oblique/math/dynamics.hpp"
#include "oblique/math/projection.hpp"

namespace oblique {

/// Codes of SimulationState::sliding: 0 (sticks, or rests without friction), slides toward +t (and every
/// sliding `stick` point, which slides without friction), slides toward −t.
inline constexpr char kSlidesForward = 1;
inline constexpr char kSlidesBackward = 2;

/// The code of a slip speed v_t: kSlidesForward beyond +tolerance, kSlidesBackward below −tolerance, else 0.
inline char slide_code(double slip, double tolerance) {
  return slip > tolerance ? kSlidesForward : (slip < -tolerance ? kSlidesBackward : 0);
}
/// s = ±1 of a sliding code, 0 for 0.
inline int slide_direction(char code) { return code == kSlidesBackward ? -1 : (code == kSlidesForward ? 1 : 0); }

/// One sliding frictional point of the active set: its normal row of A, its tangential row (not in A) and
/// the friction's μ and s.
struct SlidingContact {
  int point = 0;       ///< the simulator's contact-point index
  int normal_row = 0;  ///< its row of A
  double mu = 0.0;
  int direction = 1;   ///< s = sign(v_t)
};

/// q̈, f = Bᵀλ and λ of the smooth phase with sliding friction (header comment); `painleve` and
/// `painleve_margin`: painleve_verdict of W (painleve_check.hpp).
struct SlidingDynamics {
  ConstrainedDynamics dynamics;
  bool painleve = false;
  double painleve_margin = 0.0;
};

/// Solves the smooth dynamics with the sliding contacts' friction (header comment). `mass` is M's
/// diagonal, `jacobian` A (its rows: joints, normals, the tangential rows of sticking points), `tangents`
/// one row per sliding contact (t, in the order of `sliding`), `free_acceleration` q̈* = M⁻¹(u − h).
SlidingDynamics sliding_friction_dynamics(const Vector& mass, const Matrix& jacobian, const Matrix& tangents,
                                          const std::vector<SlidingContact>& sliding, const Vector& adot_qd,
                                          const Vector& free_acceleration);

}  // namespace oblique
