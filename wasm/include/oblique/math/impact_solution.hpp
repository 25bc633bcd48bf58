// One impact solved on a given A, as the simulator keeps it: the result of solve_impact, and the scalars of
// its projections that every summary shows. The n×n matrices themselves (P, Mc, S, R, Ẽ, Q) are not kept: they are
// recomputed from M and A when an impact is shown (impact_log.hpp).
#pragma once

#include <vector>

#include "oblique/math/impact.hpp"
#include "oblique/math/projection.hpp"

namespace oblique {

/// What the projections of an impact give besides matrices, shown in every summary: computed from a record's
/// M, A and ν when it is first asked for (ImpactRecord::projection_scalars), not while the run goes on.
struct ProjectionScalars {
  int rank = 0;
  double nu = 0.0;                        ///< ν in use
  double nu_lower = 0.0, nu_upper = 0.0;  ///< the interval of ν that minimises cond(Mc)
  double cond = 0.0;                      ///< cond(Mc)

  static ProjectionScalars of(const Projection& projection) {
    return {projection.rank(), projection.nu(), projection.nu_lower(), projection.nu_upper(),
            projection.cond_constraint_inertia()};
  }
};

/// What one frictional contact point (0 < μ < ∞) did in an impact of a run: the compact part of
/// FrictionPairResult (frictional_impact.hpp) that a record keeps (docs/friction.md).
struct ContactFriction {
  int normal_row = 0;        ///< its normal row of A (its tangential row is the next one)
  double mu = 0.0;           ///< Coulomb's μ
  bool slipping = false;     ///< the mode: slip (true) or stick
  int direction = 0;         ///< s = ±1 of a slipping point (friction impulse −μ s i_n), 0 when sticking
  double critical_mu = 0.0;  ///< μ_crit = |i_t^st| / i_n^st of the sticking-mode impulse (+∞ when i_n^st ≤ 0)
  double discriminator = 0.0;  ///< D = μ²(i_n^st)² − (i_t^st)²: ≥ 0 sticks
  double cone_angle = 0.0;     ///< angle of the impulse to the friction cone (≤ 0; 0 on its surface)
  double sticking_cone_angle = 0.0;  ///< the same for the sticking-mode impulse (> 0: the point slips)
};

/// One impact solved on a given A.
struct ImpactSolution {
  ImpactResult result;           ///< q̇⁺, i_f, i_λ, ... of solve_impact; Ẽ and Q may be left empty
  /// Per frictional point (0 < μ < ∞) of A, in row order; empty for a frictionless or sticking impact.
  std::vector<ContactFriction> friction;
  bool modes_consistent = true;  ///< every frictional point passed its cone or slip-sign check
};

/// Solves the impact with the projections of (M, A) and keeps it without the matrices Ẽ and Q.
inline ImpactSolution solve_impact_summarised(const Inertia& inertia, const Matrix& jacobian, std::optional<double> nu,
                                              const Vector& qd_minus, const Vector& restitution,
                                              const Vector& external_impulse, const std::vector<bool>& unilateral) {
  const Projection projection(inertia, jacobian, nu);
  ImpactSolution solution;
  solution.result = solve_impact(projection, qd_minus, Restitution::rows(restitution), external_impulse, unilateral);
  solution.result.restitution_transfer = Matrix();
  solution.result.consistency_matrix = Matrix();
  return solution;
}

}  // namespace oblique
