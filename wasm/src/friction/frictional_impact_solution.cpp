#include "oblique/friction/frictional_impact_solution.hpp"

#include <utility>

namespace oblique {

ImpactSolution summarise_frictional_impact(FrictionalImpactResult&& fr) {
  ImpactSolution solution;
  // The fields every impact has.
  ImpactResult& r = solution.result;
  r.restitution = std::move(fr.restitution);
  r.global_restitution = false;
  r.qd_minus = std::move(fr.qd_minus);
  r.qd_plus = std::move(fr.qd_plus);
  r.impulse = std::move(fr.impulse);
  r.impulse_multipliers = std::move(fr.impulse_multipliers);
  r.external_impulse = std::move(fr.external_impulse);
  r.normal_velocity_minus = std::move(fr.velocity_minus);
  r.normal_velocity_plus = std::move(fr.velocity_plus);
  r.kinetic_minus = fr.kinetic_minus;
  r.kinetic_plus = fr.kinetic_plus;
  r.kinetic_energy_change = fr.kinetic_energy_change;
  r.energy_ratio = fr.energy_ratio;
  r.constraint_work = fr.constraint_work;
  r.newton_residual = fr.newton_residual;
  r.flags = std::move(fr.flags);
  // The consistency test of the sticking mode (the only one with a Q), and no energy gain.
  r.qmi_max_eig = fr.sticking.qmi_max_eig;
  r.energy_consistent = fr.sticking.energy_consistent && !r.flags.energy_gain;
  // Per frictional point, what the record keeps.
  solution.modes_consistent = fr.modes_consistent;
  for (const FrictionPairResult& pair : fr.pairs) {
    ContactFriction c;
    c.normal_row = pair.normal_row;
    c.mu = pair.mu;
    c.slipping = pair.mode == FrictionMode::Slip;
    c.direction = pair.direction;
    c.critical_mu = pair.critical_mu;
    c.discriminator = pair.discriminator;
    c.cone_angle = pair.cone_angle;
    c.sticking_cone_angle = pair.sticking_cone_angle;
    solution.friction.push_back(c);
  }
  return solution;
}

ImpactSolution solve_frictional_impact_summarised(const Inertia& inertia, const Matrix& jacobian,
                                                  std::optional<double> nu, const Vector& qd_minus,
                                                  const Vector& restitution, const Vector& external_impulse,
                                                  const std::vector<bool>& unilateral,
                                                  const std::vector<FrictionPair>& pairs) {
  const Projection projection(inertia, jacobian, nu);
  return summarise_frictional_impact(solve_frictional_impact(projection, qd_minus, Restitution::rows(restitution),
                                                             pairs, external_impulse, unilateral));
}

}  // namespace oblique
