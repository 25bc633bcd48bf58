#include "oblique/sparse/sparse_dynamics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "math/checks.hpp"
#include "math/max_abs.hpp"

namespace oblique {

namespace {

void check_vector(const Vector& v, Eigen::Index size, const char* field, const char* size_name) {
  if (v.size() != size) {
    detail::fail(field, "must have " + std::to_string(size) + " entries (" + size_name + "), got " +
                            std::to_string(v.size()));
  }
  detail::check_finite(v, field);
}

using detail::max_abs;

}  // namespace

SparseDynamics constrained_dynamics_sparse(const DelassusFactorization& delassus, const Vector& h, const Vector& u,
                                           const Vector& adot_qd, bool multipliers) {
  check_vector(h, delassus.cols(), "h", "the size of M");
  check_vector(u, delassus.cols(), "u", "the size of M");
  check_vector(adot_qd, delassus.rows(), "adot_qd", "the rows of A");
  const Vector& inverse_mass = delassus.inverse_weights();
  SparseDynamics out;
  // Unconstrained acceleration q̈* = M⁻¹(u − h).
  out.qdd_free = (u - h).cwiseProduct(inverse_mass);
  if (delassus.rows() == 0) {
    out.qdd = out.qdd_free;
    out.force = Vector::Zero(delassus.cols());
    if (multipliers) out.multipliers = Vector(0);
    return out;
  }
  // K λ = −A q̈* − Π Ȧq̇ (Π = I for a full row rank A), then f = Aᵀλ and q̈ = q̈* + M⁻¹f.
  const Vector rhs = -delassus.apply_jacobian(out.qdd_free) - delassus.project_to_range(adot_qd);
  const Vector lambda = delassus.solve(rhs);
  out.force = delassus.apply_transpose(lambda);
  out.qdd = out.qdd_free + out.force.cwiseProduct(inverse_mass);
  // The minimum-norm multipliers: the projection of any solution onto range(A).
  if (multipliers) out.multipliers = delassus.project_to_range(lambda);
  return out;
}

Vector project_velocity_sparse(const DelassusFactorization& delassus, const Vector& qd) {
  check_vector(qd, delassus.cols(), "qd", "the size of M");
  if (delassus.rows() == 0) return qd;
  // (I − S)q̇ = q̇ − M⁻¹Aᵀμ with K μ = A q̇ (A q̇ lies in range(A)).
  const Vector mu = delassus.solve(delassus.apply_jacobian(qd));
  return qd - delassus.apply_transpose(mu).cwiseQuotient(delassus.weights());
}

ImpactResult solve_impact_sparse(const DelassusFactorization& delassus, const Vector& qd_minus,
                                 const Restitution& restitution, const Vector& external_impulse,
                                 const std::vector<bool>& unilateral) {
  const int n = delassus.cols();
  const int m = delassus.rows();
  // Check the inputs where they enter, as solve_impact does.
  if (qd_minus.size() != n) {
    detail::fail("qd", "must have " + std::to_string(n) + " entries (the size of M), got " +
                           std::to_string(qd_minus.size()));
  }
  detail::check_finite(qd_minus, "qd");
  ImpactResult out;
  out.global_restitution = restitution.is_global;
  if (restitution.is_global) {
    detail::check_restitution(restitution.global, "e");
    out.restitution = Vector::Constant(m, restitution.global);
  } else {
    if (restitution.per_row.size() != m) {
      detail::fail("E", "must have one coefficient per row of A (" + std::to_string(m) + "), got " +
                            std::to_string(restitution.per_row.size()));
    }
    for (int i = 0; i < m; ++i) detail::check_restitution(restitution.per_row(i), "E[" + std::to_string(i) + "]");
    out.restitution = restitution.per_row;
  }
  out.external_impulse = external_impulse.size() == 0 ? Vector::Zero(n) : external_impulse;
  if (out.external_impulse.size() != n) {
    detail::fail("iu", "must have " + std::to_string(n) + " entries (the size of M), got " +
                           std::to_string(external_impulse.size()));
  }
  detail::check_finite(out.external_impulse, "iu");
  if (!unilateral.empty() && static_cast<int>(unilateral.size()) != m) {
    detail::fail("unilateral", "must have one flag per row of A (" + std::to_string(m) + "), got " +
                                   std::to_string(unilateral.size()));
  }

  const Vector& mass = delassus.weights();
  const Vector& iu = out.external_impulse;
  out.qd_minus = qd_minus;
  out.normal_velocity_minus = delassus.apply_jacobian(qd_minus);

  // v = q̇⁻ + M⁻¹i_u; K μ = A v + Π E A q̇⁻; q̇⁺ = v − M⁻¹Aᵀμ; i_f = −Aᵀμ; i_λ = −Πμ.
  const Vector free_velocity = qd_minus + iu.cwiseQuotient(mass);
  if (m == 0) {
    out.qd_plus = free_velocity;
    out.impulse = Vector::Zero(n);
    out.impulse_multipliers = Vector(0);
  } else {
    // E A q̇⁻ lies in range(A) for a global e; per row it is projected (Π = I for a full row rank A).
    const Vector restituted = out.restitution.cwiseProduct(out.normal_velocity_minus);
    const Vector rhs = delassus.apply_jacobian(free_velocity) +
                       (restitution.is_global ? restituted : delassus.project_to_range(restituted));
    const Vector mu = delassus.solve(rhs);
    out.impulse = -delassus.apply_transpose(mu);
    out.qd_plus = free_velocity + out.impulse.cwiseQuotient(mass);
    out.impulse_multipliers = -delassus.project_to_range(mu);
  }
  out.normal_velocity_plus = delassus.apply_jacobian(out.qd_plus);

  // Kinetic energies, loss and ratio γ.
  out.kinetic_minus = 0.5 * qd_minus.dot(mass.cwiseProduct(qd_minus));
  out.kinetic_plus = 0.5 * out.qd_plus.dot(mass.cwiseProduct(out.qd_plus));
  out.kinetic_energy_change = out.kinetic_plus - out.kinetic_minus;
  out.constraint_work = 0.5 * out.impulse.dot(qd_minus + out.qd_plus);
  out.energy_ratio = out.kinetic_minus > 0.0 ? out.kinetic_plus / out.kinetic_minus
                                             : std::numeric_limits<double>::quiet_NaN();

  // Energetic consistency needs the spectrum of EQE − Q (Q = K⁺): left to the dense solve (header).
  out.restitution_transfer = Matrix(0, 0);
  out.consistency_matrix = Matrix(0, 0);
  out.qmi_max_eig = std::numeric_limits<double>::quiet_NaN();
  out.energy_consistent = false;

  // Newton's law residual ‖Aq̇⁺ + EAq̇⁻‖ relative to ‖Aq̇⁻‖.
  const Vector newton_gap = out.normal_velocity_plus + out.restitution.cwiseProduct(out.normal_velocity_minus);
  const double approach = out.normal_velocity_minus.norm();
  out.newton_residual = approach > 0.0 ? newton_gap.norm() / approach : newton_gap.norm();

  // Flags on unilateral rows: tensile impulse, approach after impact; and energy gain (as solve_impact).
  const double impulse_tol = 1e-9 * std::max(max_abs(out.impulse_multipliers), 1e-300);
  double largest_row_norm = 0.0;
  {
    // ‖A_i‖ of each row, from the factorisation's sparse A (row-major or column-major alike).
    Vector row_squares = Vector::Zero(m);
    const SparseJacobian& a = delassus.jacobian();
    for (int k = 0; k < a.outerSize(); ++k) {
      for (SparseJacobian::InnerIterator it(a, k); it; ++it) row_squares(it.row()) += it.value() * it.value();
    }
    if (m > 0) largest_row_norm = std::sqrt(row_squares.maxCoeff());
  }
  // The speed scale includes the bodies' own speeds along the rows (‖A_i‖·|q̇|): an impact from rest, such
  // as a scheduled push, leaves resting rows at round-off of those speeds, which is not an approach.
  const double speed_tol =
      1e-9 * std::max({max_abs(out.normal_velocity_minus), max_abs(out.normal_velocity_plus),
                       largest_row_norm * std::max(max_abs(out.qd_minus), max_abs(out.qd_plus)), 1e-300});
  for (int i = 0; i < m; ++i) {
    if (!unilateral.empty() && !unilateral[static_cast<std::size_t>(i)]) continue;
    if (out.impulse_multipliers(i) < -impulse_tol) out.flags.tensile_impulse.push_back(i);
    if (out.normal_velocity_plus(i) < -speed_tol) out.flags.approach_after_impact.push_back(i);
  }
  out.flags.energy_gain =
      out.constraint_work > 1e-12 * std::max({out.kinetic_minus, out.kinetic_plus, 1e-300});
  return out;
}

}  // namespace oblique
