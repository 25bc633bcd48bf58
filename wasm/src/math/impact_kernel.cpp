#include "math/impact_kernel.hpp"

#include <algorithm>
#include <string>

#include "math/checks.hpp"
#include "math/max_abs.hpp"

namespace oblique::detail {

void begin_impact(int n, int m, const Vector& qd_minus, const Restitution& restitution,
                  const Vector& external_impulse, const std::vector<bool>& unilateral, ImpactResult& out) {
  // q̇⁻: one finite entry per coordinate.
  if (qd_minus.size() != n) {
    fail("qd", "must have " + std::to_string(n) + " entries (the size of M), got " + std::to_string(qd_minus.size()));
  }
  check_finite(qd_minus, "qd");
  out.qd_minus = qd_minus;
  // e for every row, or one e_i per row, each in [0, 1].
  out.global_restitution = restitution.is_global;
  if (restitution.is_global) {
    check_restitution(restitution.global, "e");
    out.restitution = Vector::Constant(m, restitution.global);
  } else {
    if (restitution.per_row.size() != m) {
      fail("E", "must have one coefficient per row of A (" + std::to_string(m) + "), got " +
                    std::to_string(restitution.per_row.size()));
    }
    for (int i = 0; i < m; ++i) check_restitution(restitution.per_row(i), "E[" + std::to_string(i) + "]");
    out.restitution = restitution.per_row;
  }
  // i_u: none (zero) or one finite entry per coordinate.
  out.external_impulse = external_impulse.size() == 0 ? Vector::Zero(n) : external_impulse;
  if (out.external_impulse.size() != n) {
    fail("iu", "must have " + std::to_string(n) + " entries (the size of M), got " +
                   std::to_string(external_impulse.size()));
  }
  check_finite(out.external_impulse, "iu");
  // The unilateral flags: none (every row unilateral) or one per row.
  if (!unilateral.empty() && static_cast<int>(unilateral.size()) != m) {
    fail("unilateral", "must have one flag per row of A (" + std::to_string(m) + "), got " +
                           std::to_string(unilateral.size()));
  }
}

void finish_impact(const Vector& momentum_minus, const Vector& momentum_plus, double largest_row_norm,
                   const std::vector<bool>& unilateral, ImpactResult& out) {
  // Energies, γ and Newton's residual ‖Aq̇⁺ + EAq̇⁻‖ / ‖Aq̇⁻‖.
  set_energies(out.qd_minus, momentum_minus, momentum_plus, out.normal_velocity_minus, out.normal_velocity_plus,
               out.restitution, out);

  // Flags on unilateral rows: tensile impulse, approach after impact; and energy gain.
  const double impulse_tol = 1e-9 * std::max(max_abs(out.impulse_multipliers), 1e-300);
  // The speed scale includes the bodies' own speeds along the rows (‖A_i‖·|q̇|): an impact from rest, such
  // as a scheduled push, leaves resting rows at round-off of those speeds, which is not an approach.
  const double speed_tol =
      1e-9 * std::max({max_abs(out.normal_velocity_minus), max_abs(out.normal_velocity_plus),
                       largest_row_norm * std::max(max_abs(out.qd_minus), max_abs(out.qd_plus)), 1e-300});
  const int m = static_cast<int>(out.normal_velocity_plus.size());
  for (int i = 0; i < m; ++i) {
    if (!unilateral.empty() && !unilateral[static_cast<std::size_t>(i)]) continue;
    if (out.impulse_multipliers(i) < -impulse_tol) out.flags.tensile_impulse.push_back(i);
    if (out.normal_velocity_plus(i) < -speed_tol) out.flags.approach_after_impact.push_back(i);
  }
  out.flags.energy_gain = out.constraint_work > 1e-12 * std::max({out.kinetic_minus, out.kinetic_plus, 1e-300});
}

}  // namespace oblique::detail
