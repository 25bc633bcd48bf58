#include "oblique/simulation/activation_rule.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>

#include "simulation/nonnegative_split.hpp"
#include "math/max_abs.hpp"

namespace oblique {

namespace {

using detail::max_abs;

/// The set the rule is working on: who is in A, who is plastic, who has left once.
struct WorkingSet {
  std::vector<char> in_set, plastic;
  std::vector<int> removals;
  bool fallback = false;

  /// The fallback: every touching point that is not separating in A, every row plastic, no release. A
  /// separating point stays out for the reason of rule 1 (stopping it would create energy).
  void enter_fallback(const std::vector<ImpactPoint>& points) {
    fallback = true;
    for (std::size_t k = 0; k < points.size(); ++k) {
      plastic[k] = 1;
      if (points[k].touching && points[k].approach <= points[k].speed_tolerance) in_set[k] = 1;
    }
  }
  std::vector<int> members() const {
    std::vector<int> out;
    for (std::size_t k = 0; k < in_set.size(); ++k) {
      if (in_set[k]) out.push_back(static_cast<int>(k));
    }
    return out;
  }
};

/// Rule 1: touching points outside the set that were at rest before the impact (|φ̇⁻| within the speed
/// tolerance) and approach after it join the set, plastic. Returns whether any did.
///
/// A point that was separating before (φ̇⁻ > tolerance) never joins: stopping it from q̇⁻ would take a push
/// on a row that moves apart, i.e. positive work (W = ½ i_λ (φ̇⁻ + φ̇⁺) = ½ i_λ φ̇⁻ > 0 for a plastic row),
/// an impact that creates energy. It keeps this impact's q̇⁺ and, if it approaches then, takes an impact of
/// its own from that intermediate velocity (the simulator's sequential sub-impact), as it would if its gap
/// were not within the touching tolerance.
bool join_approaching(const ActivationInput& input, const ActivationSystem& system, const Vector& qd_plus,
                      WorkingSet& set) {
  bool joined = false;
  for (std::size_t k = 0; k < input.points.size(); ++k) {
    if (set.in_set[k] || !input.points[k].touching) continue;
    if (input.points[k].approach > input.points[k].speed_tolerance) continue;
    if (system.normal_velocity(static_cast<int>(k), qd_plus) < -input.points[k].speed_tolerance) {
      set.in_set[k] = 1;
      set.plastic[k] = 1;
      joined = true;
    }
  }
  return joined;
}

/// (1 + e)² with e = 1: the most kinetic energy the constraint impulse of one restitution coefficient e ≤ 1
/// can move, as a multiple of the energy at stake (header comment).
constexpr double kOutOfProportion = 4.0;

/// A_k M⁻¹ A_kᵀ of row k: Σ_j A_kj² / m_j, summed in column order (the dense row's zeros add +0, so a
/// compressed row gives the same bits).
double row_inverse_mass(const ConstraintRows& rows, int row, const Vector& inverse_masses) {
  if (!rows.sparse) return rows.jacobian.row(row).cwiseAbs2().dot(inverse_masses);
  double sum = 0.0;
  for (SparseJacobian::InnerIterator entry(rows.sparse_rows.matrix(), row); entry; ++entry) {
    sum += (entry.value() * entry.value()) * inverse_masses(entry.index());
  }
  return sum;
}

/// Rule 2: the point of the set whose unilateral row pulls hardest, beyond both the tolerance and the
/// impulse m_eff·v that would move it at its rest speed v (point_rest_speed); −1 when none does.
int most_tensile(const ActivationInput& input, const std::vector<int>& points, const RowLayout& layout,
                 const ConstraintRows& rows, const Vector& impulse_multipliers, double tolerance) {
  int worst = -1;
  double worst_value = 0.0;
  const Vector inverse_masses = input.mass_diagonal.cwiseInverse();
  for (std::size_t j = 0; j < points.size(); ++j) {
    const double value = impulse_multipliers(layout.normal_rows[j]);
    const double inverse_mass = row_inverse_mass(rows, layout.normal_rows[j], inverse_masses);
    const double rest_speed = point_rest_speed(input.points[static_cast<std::size_t>(points[j])], input.rest_speed);
    const double resting = inverse_mass > 0.0 ? rest_speed / inverse_mass : 0.0;
    if (value < -std::max(tolerance, resting) && value < worst_value) {
      worst_value = value;
      worst = points[j];
    }
  }
  return worst;
}

/// Whether an impact created energy out of all proportion: the constraints do positive work (its
/// energy_gain flag) and K⁺ exceeds kOutOfProportion times the kinetic energy at stake,
/// K⁻ + ½ i_uᵀM⁻¹i_u (header comment).
bool creates_energy_out_of_proportion(const ImpactResult& result, const Vector& mass) {
  const Vector& impulse = result.external_impulse;
  const double at_stake =
      result.kinetic_minus + (impulse.size() > 0 ? 0.5 * impulse.cwiseAbs2().dot(mass.cwiseInverse()) : 0.0);
  return result.flags.energy_gain && result.kinetic_plus > kOutOfProportion * at_stake;
}

/// The system's answer, or the non-negative least squares of nonnegative_split.hpp.
bool carried_without_pull(const ActivationSystem& system, ConstraintRows& rows, const Vector& impulse,
                          const std::vector<bool>& unilateral, double tolerance) {
  if (system.carried_without_pull) return system.carried_without_pull(rows, impulse, unilateral, tolerance);
  Vector split;
  return detail::nonnegative_split(rows.dense_jacobian(), impulse, unilateral, tolerance, split);
}

}  // namespace

ActivationOutcome apply_activation_rule(const ActivationInput& input, const ActivationSystem& system) {
  const std::size_t point_count = input.points.size();
  // The starting set, and the plastic points: those slower than their rest speed (the Zeno rule, with the
  // nearly-resting speed of a point in a stack).
  WorkingSet set;
  set.in_set.assign(point_count, 0);
  set.plastic.assign(point_count, 0);
  set.removals.assign(point_count, 0);
  for (std::size_t k = 0; k < point_count; ++k) {
    set.in_set[k] = input.points[k].in_set ? 1 : 0;
    if (std::abs(input.points[k].approach) < point_rest_speed(input.points[k], input.rest_speed)) set.plastic[k] = 1;
  }
  if (input.fallback) set.enter_fallback(input.points);

  ActivationOutcome out;
  while (true) {
    ++out.passes;
    // A = [joints; rows of the set], E per row (0 for joints, tangential rows and plastic points).
    out.points = set.members();
    out.layout = RowLayout::of(input.joint_rows, out.points,
                               [&](int k) { return input.points[static_cast<std::size_t>(k)].sticks; });
    system.rows(out.points, out.rows);
    Vector restitution = Vector::Zero(out.layout.rows);
    for (std::size_t j = 0; j < out.points.size(); ++j) {
      const std::size_t k = static_cast<std::size_t>(out.points[j]);
      restitution(out.layout.normal_rows[j]) = set.plastic[k] ? 0.0 : input.points[k].restitution;
    }
    const std::vector<bool> unilateral = out.layout.unilateral_mask();
    out.solution = system.solve(out.rows, restitution, unilateral);
    const ImpactResult& result = out.solution.result;
    if (set.fallback) break;
    // Energy out of all proportion, without friction: per-row restitution on rows dependent to within
    // round-off (header comment). The fallback.
    if (out.solution.friction.empty() && creates_energy_out_of_proportion(result, input.mass_diagonal)) {
      set.enter_fallback(input.points);
      continue;
    }
    if (out.passes >= input.max_passes) {
      set.enter_fallback(input.points);
      continue;
    }

    // 1. A touching point outside the set, at rest before the impact, that approaches after it joins it,
    //    plastic (one that was separating is left to a sequential sub-impact).
    if (join_approaching(input, system, result.qd_plus, set)) continue;

    // 2. Otherwise the most tensile unilateral row leaves the set — unless its pull is resting-contact
    //    business, or another split of i_f has no row pulling. A point leaving a second time: the fallback.
    const double impulse_scale = std::max({max_abs(result.impulse_multipliers),
                                           max_abs(input.mass_diagonal.cwiseProduct(input.qd_minus)),
                                           max_abs(input.external_impulse)});
    const double tolerance = 1e-9 * impulse_scale + 1e-15 * input.force_scale;
    const int worst = most_tensile(input, out.points, out.layout, out.rows, result.impulse_multipliers, tolerance);
    if (worst < 0) break;
    if (carried_without_pull(system, out.rows, result.impulse, unilateral, tolerance)) break;
    if (set.removals[static_cast<std::size_t>(worst)]++ > 0) {
      set.enter_fallback(input.points);
      continue;
    }
    set.in_set[static_cast<std::size_t>(worst)] = 0;
  }
  out.fallback = set.fallback;
  out.rest_speeds.reserve(out.points.size());
  for (int k : out.points) {
    out.rest_speeds.push_back(point_rest_speed(input.points[static_cast<std::size_t>(k)], input.rest_speed));
  }
  return out;
}

double nearly_resting_speed(double gravity, double size) {
  // No gravity (or no size): no bounce height to compare with, the scenario's rest speed alone.
  if (!(gravity > 0.0) || !(size > 0.0)) return 0.0;
  return std::sqrt(2.0 * kNearlyRestingHeight * gravity * size);
}

}  // namespace oblique
