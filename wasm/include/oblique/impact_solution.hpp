// One impact solved on a given A, as the simulator keeps it: the result of solve_impact and what its
// projections gave besides matrices. The n×n matrices themselves (P, Mc, S, R, Ẽ, Q) are not kept: they are
// recomputed from M and A when an impact is shown (impact_log.hpp).
#pragma once

#include "oblique/impact.hpp"
#include "oblique/projection.hpp"

namespace oblique {

/// What the projections of an impact gave, besides matrices: shown in every summary.
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

/// One impact solved on a given A.
struct ImpactSolution {
  ProjectionScalars projection;  ///< rank, ν, its interval and cond(Mc) of (M, A)
  ImpactResult result;           ///< q̇⁺, i_f, i_λ, ... of solve_impact; Ẽ and Q may be left empty
};

/// Solves the impact with the projections of (M, A) and keeps it without the matrices Ẽ and Q.
inline ImpactSolution solve_impact_summarised(const Inertia& inertia, const Matrix& jacobian, std::optional<double> nu,
                                              const Vector& qd_minus, const Vector& restitution,
                                              const Vector& external_impulse, const std::vector<bool>& unilateral) {
  const Projection projection(inertia, jacobian, nu);
  ImpactSolution solution{ProjectionScalars::of(projection),
                          solve_impact(projection, qd_minus, Restitution::rows(restitution), external_impulse, unilateral)};
  solution.result.restitution_transfer = Matrix();
  solution.result.consistency_matrix = Matrix();
  return solution;
}

}  // namespace oblique
