#include "oblique/sparse/sparse_dynamics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "math/checks.hpp"
#include "math/impact_kernel.hpp"

namespace oblique {

namespace {

void check_vector(const Vector& v, Eigen::Index size, const char* field, const char* size_name) {
  if (v.size() != size) {
    detail::fail(field, "must have " + std::to_string(size) + " entries (" + size_name + "), got " +
                            std::to_string(v.size()));
  }
  detail::check_finite(v, field);
}

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
  ImpactResult out;
  detail::begin_impact(n, m, qd_minus, restitution, external_impulse, unilateral, out);

  const Vector& mass = delassus.weights();
  const Vector& iu = out.external_impulse;
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

  // Energetic consistency needs the spectrum of EQE − Q (Q = K⁺): left to the dense solve (header).
  out.restitution_transfer = Matrix(0, 0);
  out.consistency_matrix = Matrix(0, 0);
  out.qmi_max_eig = std::numeric_limits<double>::quiet_NaN();
  out.energy_consistent = false;

  // ‖A_i‖ of each row, from the factorisation's sparse A (row-major or column-major alike).
  double largest_row_norm = 0.0;
  if (m > 0) {
    Vector row_squares = Vector::Zero(m);
    const SparseJacobian& a = delassus.jacobian();
    for (int k = 0; k < a.outerSize(); ++k) {
      for (SparseJacobian::InnerIterator it(a, k); it; ++it) row_squares(it.row()) += it.value() * it.value();
    }
    largest_row_norm = std::sqrt(row_squares.maxCoeff());
  }
  // Energies, γ, Newton's residual and the flags, as every backend finishes.
  const Vector p_minus = mass.cwiseProduct(qd_minus);
  const Vector p_plus = mass.cwiseProduct(out.qd_plus);
  detail::finish_impact(p_minus, p_plus, largest_row_norm, unilateral, out);
  return out;
}

}  // namespace oblique
