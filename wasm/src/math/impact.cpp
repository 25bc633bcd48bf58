#include "oblique/math/impact.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include <Eigen/Eigenvalues>

#include "math/checks.hpp"
#include "math/impact_kernel.hpp"
#include "math/max_abs.hpp"

namespace oblique {

namespace {

/// ‖a − b‖_F relative to the larger of ‖a‖_F, ‖b‖_F and `floor`, the natural size of the quantity
/// (1 for the dimensionless projectors, ‖M‖ for inertias), so that rounding in a vanishing term reads as
/// rounding and not as a relative error of 1.
double relative_gap(const Matrix& a, const Matrix& b, double floor) {
  const double scale = std::max({a.norm(), b.norm(), floor});
  return scale > 0.0 ? (a - b).norm() / scale : 0.0;
}

using detail::max_abs;

}  // namespace

double energy_consistency_margin(const Matrix& q, const Vector& restitution) {
  if (q.rows() != q.cols()) detail::fail("Q", "must be square");
  if (restitution.size() != q.rows()) {
    detail::fail("E", "must have one coefficient per row of Q (" + std::to_string(q.rows()) + "), got " +
                          std::to_string(restitution.size()));
  }
  if (q.rows() == 0) return 0.0;
  const Matrix margin = restitution.asDiagonal() * q * restitution.asDiagonal() - q;
  Eigen::SelfAdjointEigenSolver<Matrix> eig(symmetric_part(margin), Eigen::EigenvaluesOnly);
  return eig.eigenvalues().maxCoeff();
}

EnergyConsistency energy_consistency(const Matrix& consistency_matrix, const Vector& restitution) {
  EnergyConsistency out;
  if (consistency_matrix.rows() == 0) return out;
  // The margin, against the size of Q's spectrum.
  out.qmi_max_eig = energy_consistency_margin(consistency_matrix, restitution);
  Eigen::SelfAdjointEigenSolver<Matrix> q_eig(consistency_matrix, Eigen::EigenvaluesOnly);
  const double q_scale = std::max(max_abs(q_eig.eigenvalues()), 1e-300);
  out.consistent = out.qmi_max_eig <= 1e-10 * q_scale;
  return out;
}

Matrix consistency_matrix(const Projection& proj) {
  const Matrix g = proj.oblique_projector() * proj.jacobian_pinv();
  const Matrix q = g.transpose() * proj.inertia() * g;
  return symmetric_part(q);
}

std::vector<double> energy_consistency_map(const Matrix& q, const Vector& restitution, int row_a, int row_b,
                                           int resolution) {
  // Q, E and the two rows.
  if (q.rows() != q.cols() || q.rows() < 2) detail::fail("Q", "must be a square matrix with at least two rows");
  detail::check_finite(q, "Q");
  if (restitution.size() != q.rows()) {
    detail::fail("E", "must have one coefficient per row of Q (" + std::to_string(q.rows()) + "), got " +
                          std::to_string(restitution.size()));
  }
  for (Eigen::Index i = 0; i < restitution.size(); ++i) {
    detail::check_restitution(restitution(i), "E[" + std::to_string(i) + "]");
  }
  const int m = static_cast<int>(q.rows());
  if (row_a < 0 || row_a >= m || row_b < 0 || row_b >= m || row_a == row_b) {
    detail::fail("rows", "must be two different rows of Q in 0.." + std::to_string(m - 1));
  }

  // The grid, within the work bound: resolution² eigenvalue problems of size m.
  if (resolution < 2 || resolution > kMaxConsistencyMapResolution) {
    detail::fail("resolution", "must be an integer in [2, " + std::to_string(kMaxConsistencyMapResolution) + "]");
  }
  const double cube = static_cast<double>(m) * m * m;
  const int finest = static_cast<int>(std::floor(std::sqrt(kMaxConsistencyMapWork / cube)));
  if (finest < 2) {
    detail::fail("Q", "has " + std::to_string(m) + " rows: a map costs resolution² × rows³, at most " +
                          detail::format_number(kMaxConsistencyMapWork) + ", which even resolution 2 exceeds (at most " +
                          std::to_string(static_cast<int>(std::cbrt(kMaxConsistencyMapWork / 4.0))) + " rows)");
  }
  if (resolution > finest) {
    detail::fail("resolution", std::to_string(resolution) + " is too fine for a Q of " + std::to_string(m) +
                                   " rows: a map costs resolution² × rows³, at most " +
                                   detail::format_number(kMaxConsistencyMapWork) + " (resolution at most " +
                                   std::to_string(finest) + " for " + std::to_string(m) + " rows)");
  }
  std::vector<double> values(static_cast<std::size_t>(resolution) * resolution);
  Vector e = restitution;
  for (int row = 0; row < resolution; ++row) {
    for (int col = 0; col < resolution; ++col) {
      e(row_a) = static_cast<double>(col) / (resolution - 1);
      e(row_b) = static_cast<double>(row) / (resolution - 1);
      values[static_cast<std::size_t>(row) * resolution + col] = energy_consistency_margin(q, e);
    }
  }
  return values;
}

Residuals projection_identities(const Projection& proj) {
  const Matrix& s = proj.oblique_projector();
  const Matrix& p = proj.null_projector();
  const Matrix& m = proj.inertia();
  const Matrix identity = Matrix::Identity(proj.n(), proj.n());
  const Matrix ms = m * s;
  const Matrix m_inv = proj.solve_inertia(identity);
  const double s_size = std::max(1.0, s.norm());
  const Matrix zero = Matrix::Zero(proj.n(), proj.n());
  return {
      {"S2_minus_S", relative_gap(s * s, s, s_size * s_size)},
      {"SP", relative_gap(s * p, zero, s_size * p.norm())},
      {"I_minus_P_S", relative_gap((identity - p) * s, identity - p, s_size)},
      {"MS_minus_StM", relative_gap(ms, s.transpose() * m, m.norm() * s_size)},
      {"StMS_minus_MS", relative_gap(s.transpose() * ms, ms, m.norm() * s_size * s_size)},
      {"I_minus_S_Minv_minus_Mo_pinv",
       relative_gap((identity - s) * m_inv, proj.projected_inertia_pinv(), m_inv.norm() * s_size)},
      {"R2_minus_I", relative_gap(proj.reflection() * proj.reflection(), identity, 1.0)},
  };
}

ImpactResult solve_impact(const Projection& proj, const Vector& qd_minus, const Restitution& restitution,
                          const Vector& external_impulse, const std::vector<bool>& unilateral) {
  const int n = proj.n();
  const int m = proj.m();
  // Check the inputs where they enter.
  ImpactResult out;
  detail::begin_impact(n, m, qd_minus, restitution, external_impulse, unilateral, out);

  const Matrix& s = proj.oblique_projector();
  const Matrix& mass = proj.inertia();
  const Matrix& a = proj.jacobian();
  const Matrix& a_pinv = proj.jacobian_pinv();
  const Vector& iu = out.external_impulse;
  const Vector p_minus = mass * qd_minus;

  // Ẽ = A⁺EA (= e(I − P) for a global e).
  out.restitution_transfer = a_pinv * out.restitution.asDiagonal() * a;
  // Sᵀ i_u and Mo⁺ i_u: the share of the external impulse taken by the constraints, and the rest.
  const Vector st_iu = s.transpose() * iu;
  const Vector free_response = proj.projected_inertia_pinv() * iu;
  if (restitution.is_global) {
    // q̇⁺ = q̇⁻ − (1 + e)Sq̇⁻ + Mo⁺i_u;  i_f = −(1 + e)SᵀMq̇⁻ − Sᵀi_u.
    const double e = restitution.global;
    out.qd_plus = qd_minus - (1.0 + e) * (s * qd_minus) + free_response;
    out.impulse = -(1.0 + e) * (s.transpose() * p_minus) - st_iu;
  } else {
    // q̇⁺ = q̇⁻ − S(Ẽ + I)q̇⁻ + Mo⁺i_u;  i_f = −MS(Ẽ + I)q̇⁻ − Sᵀi_u.
    const Vector s_jump = s * (out.restitution_transfer * qd_minus + qd_minus);
    out.qd_plus = qd_minus - s_jump + free_response;
    out.impulse = -(mass * s_jump) - st_iu;
  }
  out.impulse_multipliers = a_pinv.transpose() * out.impulse;
  out.normal_velocity_minus = a * qd_minus;
  out.normal_velocity_plus = a * out.qd_plus;

  // Energetic consistency: Q = GᵀMG with G = SA⁺, and λ_max(EQE − Q).
  out.consistency_matrix = consistency_matrix(proj);
  const EnergyConsistency consistency = energy_consistency(out.consistency_matrix, out.restitution);
  out.qmi_max_eig = consistency.qmi_max_eig;
  out.energy_consistent = consistency.consistent;

  // Energies, γ, Newton's residual and the flags, as every backend finishes.
  const Vector p_plus = mass * out.qd_plus;
  const double largest_row_norm = m > 0 ? a.rowwise().norm().maxCoeff() : 0.0;
  detail::finish_impact(p_minus, p_plus, largest_row_norm, unilateral, out);
  return out;
}

Residuals impact_identities(const Projection& proj, const ImpactResult& result) {
  const Matrix& s = proj.oblique_projector();
  const Matrix& mass = proj.inertia();
  const Vector& qd_minus = result.qd_minus;
  const Vector& iu = result.external_impulse;
  const Vector p_minus = mass * qd_minus;
  const Vector st_iu = s.transpose() * iu;
  // Those of the projections, then momentum balance and the closed forms.
  Residuals out = projection_identities(proj);
  const double momentum_scale = std::max(p_minus.norm(), iu.norm());
  out.emplace_back("momentum_balance",
                   relative_gap(mass * (result.qd_plus - qd_minus), result.impulse + iu, momentum_scale));
  // ΔK = −½q̇⁻ᵀ(I − Ẽᵀ)SᵀMS(I + Ẽ)q̇⁻ + ½i_uᵀMo⁺i_u + q̇⁻ᵀ(I − Sᵀ)i_u.
  const Matrix smS = s.transpose() * mass * s;
  const Vector lifted = qd_minus + result.restitution_transfer * qd_minus;
  const Vector lowered = qd_minus - result.restitution_transfer * qd_minus;
  const double energy_closed_form = -0.5 * lowered.dot(smS * lifted) +
                                    0.5 * iu.dot(proj.projected_inertia_pinv() * iu) +
                                    qd_minus.dot(iu - st_iu);
  const double energy_scale = std::max({result.kinetic_minus, result.kinetic_plus, 1e-300});
  out.emplace_back("energy_closed_form", std::abs(energy_closed_form - result.kinetic_energy_change) / energy_scale);
  if (result.global_restitution && result.restitution.size() > 0) {
    // Momentum form p⁺ = (eRᵀ + (1 − e)(I − Sᵀ))p⁻ + (I − Sᵀ)i_u.
    const double e = result.restitution(0);
    const Matrix identity = Matrix::Identity(proj.n(), proj.n());
    const Matrix momentum_map = e * proj.reflection().transpose() + (1.0 - e) * (identity - s.transpose());
    out.emplace_back("momentum_form",
                     relative_gap(mass * result.qd_plus, momentum_map * p_minus + iu - st_iu, momentum_scale));
  }
  return out;
}

VelocityPlane velocity_plane(const Projection& proj, const ImpactResult& result) {
  const Matrix& mass = proj.inertia();
  // The two parts of q̇⁻ and their M-lengths.
  const Vector blocked = proj.oblique_projector() * result.qd_minus;
  const Vector allowed = result.qd_minus - blocked;
  const Vector m_allowed = mass * allowed;
  const Vector m_blocked = mass * blocked;
  VelocityPlane plane;
  plane.allowed = std::sqrt(std::max(0.0, allowed.dot(m_allowed)));
  plane.blocked = std::sqrt(std::max(0.0, blocked.dot(m_blocked)));
  // q̇⁺ along each unit direction, and what is left of |q̇⁺|² off the plane.
  if (plane.allowed > 0.0) plane.plus_allowed = result.qd_plus.dot(m_allowed) / plane.allowed;
  if (plane.blocked > 0.0) plane.plus_blocked = result.qd_plus.dot(m_blocked) / plane.blocked;
  const double plus2 = result.qd_plus.dot(mass * result.qd_plus);
  plane.outside = std::sqrt(std::max(0.0, plus2 - plane.plus_allowed * plane.plus_allowed -
                                              plane.plus_blocked * plane.plus_blocked));
  return plane;
}

Vector equilibrate_rows(Matrix& jacobian) {
  Vector factor = Vector::Ones(jacobian.rows());
  if (jacobian.cols() == 0) return factor;  // rows without entries have no length to scale
  for (Eigen::Index i = 0; i < jacobian.rows(); ++i) {
    // The length without squaring (a squared 10⁻³⁰⁰ is 0): the largest entry times the length of the row
    // divided by it, both representable.
    const double largest = jacobian.row(i).cwiseAbs().maxCoeff();
    if (!(largest > 0.0)) continue;
    const double length = largest * (jacobian.row(i) / largest).norm();
    int exponent = 0;
    std::frexp(length, &exponent);  // length = f·2^exponent, f ∈ [½, 1)
    if (exponent > -kRowScaleExponent && exponent <= kRowScaleExponent) continue;
    factor(i) = std::ldexp(1.0, -exponent);
    jacobian.row(i) *= factor(i);
  }
  return factor;
}

}  // namespace oblique
