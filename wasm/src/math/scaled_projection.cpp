#include "oblique/math/scaled_projection.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace oblique {

namespace {

Vector entries(const Vector& v, const std::vector<int>& index) {
  Vector out(static_cast<Eigen::Index>(index.size()));
  for (std::size_t k = 0; k < index.size(); ++k) out(static_cast<Eigen::Index>(k)) = v(index[k]);
  return out;
}

}  // namespace

std::vector<int> touched_coordinates(const Matrix& jacobian) {
  std::vector<int> touched;
  for (Eigen::Index j = 0; j < jacobian.cols(); ++j) {
    bool any = false;
    for (Eigen::Index i = 0; i < jacobian.rows() && !any; ++i) any = jacobian(i, j) != 0.0;
    if (any) touched.push_back(static_cast<int>(j));
  }
  return touched;
}

TouchedBlock touched_block(const Vector& mass, const Matrix& jacobian) {
  TouchedBlock block;
  block.touched = touched_coordinates(jacobian);
  block.mass = entries(mass, block.touched);
  block.jacobian.resize(jacobian.rows(), static_cast<Eigen::Index>(block.touched.size()));
  for (std::size_t k = 0; k < block.touched.size(); ++k) {
    block.jacobian.col(static_cast<Eigen::Index>(k)) = jacobian.col(block.touched[k]);
  }
  return block;
}

ScaledProjection::ScaledProjection(const Vector& mass, const Matrix& jacobian)
    : n_(static_cast<int>(mass.size())), mass_(mass), touched_(touched_coordinates(jacobian)),
      rows_(static_cast<int>(jacobian.rows())) {
  if (touched_.empty()) return;
  // Ã = A D⁻¹ on the touched coordinates, M̃ = I.
  const Eigen::Index t = static_cast<Eigen::Index>(touched_.size());
  scale_ = entries(mass, touched_).cwiseSqrt();
  Matrix scaled(jacobian.rows(), t);
  for (Eigen::Index k = 0; k < t; ++k) scaled.col(k) = jacobian.col(touched_[static_cast<std::size_t>(k)]) / scale_(k);
  projection_.emplace(Inertia::identity(static_cast<int>(t)), scaled);
}

ConstrainedDynamics ScaledProjection::dynamics(const Vector& h, const Vector& u, const Vector& adot_qd,
                                               const Vector& qdd_free) const {
  ConstrainedDynamics out;
  out.qdd_free = qdd_free;
  out.qdd = qdd_free;
  out.qdd_normal = Vector::Zero(n_);
  out.force = Vector::Zero(n_);
  if (!projection_) {
    out.multipliers = Vector::Zero(rows_);
    return out;
  }
  // In scaled coordinates h̃ = D⁻¹h, ũ = D⁻¹u (Ȧq̇ is a constraint-space quantity: unchanged).
  const ConstrainedDynamics scaled = constrained_dynamics(*projection_, entries(h, touched_).cwiseQuotient(scale_),
                                                          entries(u, touched_).cwiseQuotient(scale_), adot_qd);
  // Back: q̈ = D⁻¹q̃̈, f = D f̃ on the touched coordinates; λ is the same.
  for (std::size_t k = 0; k < touched_.size(); ++k) {
    const Eigen::Index i = static_cast<Eigen::Index>(k);
    out.qdd(touched_[k]) = scaled.qdd(i) / scale_(i);
    out.qdd_normal(touched_[k]) = scaled.qdd_normal(i) / scale_(i);
    out.force(touched_[k]) = scaled.force(i) * scale_(i);
  }
  out.multipliers = scaled.multipliers;
  return out;
}

Vector ScaledProjection::project_velocity(const Vector& qd) const {
  Vector out = qd;
  if (!projection_) return out;
  // (I − S)q̇ = D⁻¹(I − S̃)D q̇ on the touched coordinates.
  Vector scaled = entries(qd, touched_).cwiseProduct(scale_);
  scaled -= projection_->oblique_projector() * scaled;
  for (std::size_t k = 0; k < touched_.size(); ++k) {
    out(touched_[k]) = scaled(static_cast<Eigen::Index>(k)) / scale_(static_cast<Eigen::Index>(k));
  }
  return out;
}

ImpactResult ScaledProjection::impact(const Vector& qd_minus, const Vector& restitution, const Vector& external_impulse,
                                      const std::vector<bool>& unilateral) const {
  const Vector impulse = external_impulse.size() == 0 ? Vector::Zero(n_) : external_impulse;
  ImpactResult out;
  if (!projection_) {
    // Nothing constrains the motion (A = 0): S = 0 and Mo⁺ = M⁻¹, so q̇⁺ = q̇⁻ + M⁻¹i_u with no constraint
    // impulse; every row is at rest relative to it (A q̇ = 0), Q = 0.
    out.restitution = restitution;
    out.global_restitution = false;
    out.qd_minus = qd_minus;
    out.external_impulse = impulse;
    out.qd_plus = qd_minus + impulse.cwiseQuotient(mass_);
    out.impulse = Vector::Zero(n_);
    out.impulse_multipliers = Vector::Zero(rows_);
    out.normal_velocity_minus = Vector::Zero(rows_);
    out.normal_velocity_plus = Vector::Zero(rows_);
    out.kinetic_minus = 0.5 * qd_minus.dot(mass_.cwiseProduct(qd_minus));
    out.kinetic_plus = 0.5 * out.qd_plus.dot(mass_.cwiseProduct(out.qd_plus));
    out.kinetic_energy_change = out.kinetic_plus - out.kinetic_minus;
    out.energy_ratio = out.kinetic_minus > 0.0 ? out.kinetic_plus / out.kinetic_minus
                                               : std::numeric_limits<double>::quiet_NaN();
    return out;
  }
  // Solved in scaled coordinates: q̃̇⁻ = Dq̇⁻, ĩ_u = D⁻¹i_u.
  const ImpactResult scaled = solve_impact(*projection_, entries(qd_minus, touched_).cwiseProduct(scale_),
                                           Restitution::rows(restitution),
                                           entries(impulse, touched_).cwiseQuotient(scale_), unilateral);
  out = scaled;
  // Back: q̇⁺ = D⁻¹q̃̇⁺ and i_f = Dĩ_f where A touches; elsewhere the free response M⁻¹i_u, no impulse.
  out.qd_minus = qd_minus;
  out.external_impulse = impulse;
  out.qd_plus = qd_minus + impulse.cwiseQuotient(mass_);
  out.impulse = Vector::Zero(n_);
  for (std::size_t k = 0; k < touched_.size(); ++k) {
    const Eigen::Index i = static_cast<Eigen::Index>(k);
    out.qd_plus(touched_[k]) = scaled.qd_plus(i) / scale_(i);
    out.impulse(touched_[k]) = scaled.impulse(i) * scale_(i);
  }
  // Energies over every coordinate (the scaled ones count only the touched).
  out.kinetic_minus = 0.5 * qd_minus.dot(mass_.cwiseProduct(qd_minus));
  out.kinetic_plus = 0.5 * out.qd_plus.dot(mass_.cwiseProduct(out.qd_plus));
  out.kinetic_energy_change = out.kinetic_plus - out.kinetic_minus;
  out.constraint_work = 0.5 * out.impulse.dot(qd_minus + out.qd_plus);
  out.energy_ratio = out.kinetic_minus > 0.0 ? out.kinetic_plus / out.kinetic_minus
                                             : std::numeric_limits<double>::quiet_NaN();
  out.flags.energy_gain =
      out.constraint_work > 1e-12 * std::max({out.kinetic_minus, out.kinetic_plus, 1e-300});
  // Ẽ depends on the coordinates and is recomputed when shown; Q (the same in both) likewise.
  out.restitution_transfer = Matrix();
  out.consistency_matrix = Matrix();
  return out;
}

ProjectionScalars unscaled_projection_scalars(const Vector& mass, const Matrix& jacobian, std::optional<double> nu) {
  const TouchedBlock block = touched_block(mass, jacobian);
  if (block.touched.empty()) return unscaled_projection_scalars(mass, block, nullptr, nu);
  const Projection projection(Matrix(block.mass.asDiagonal()), block.jacobian, nu);
  return unscaled_projection_scalars(mass, block, &projection, nu);
}

ProjectionScalars unscaled_projection_scalars(const Vector& mass, const TouchedBlock& block,
                                              const Projection* block_projection, std::optional<double> nu) {
  const int n = static_cast<int>(mass.size());
  const std::vector<int>& touched = block.touched;
  std::vector<int> untouched;
  for (int j = 0, k = 0; j < n; ++j) {
    if (k < static_cast<int>(touched.size()) && touched[static_cast<std::size_t>(k)] == j) {
      ++k;
    } else {
      untouched.push_back(j);
    }
  }
  ProjectionScalars out;
  double lower = 0.0, upper = 0.0;
  if (touched.empty()) {
    // No constraint: the interval is M's spectrum, cond(Mc) = cond(M).
    lower = mass.minCoeff();
    upper = mass.maxCoeff();
    out.rank = 0;
  } else {
    // The touched block's projections; an untouched coordinate k lies in N(A), an eigenvector of PMP (m_k).
    if (block_projection == nullptr) {
      throw std::invalid_argument("unscaled_projection_scalars: a non-empty block needs its projections");
    }
    const Projection& projection = *block_projection;
    out.rank = projection.rank();
    const bool block_free = projection.rank() < projection.n();  // PMP has non-zero eigenvalues in the block
    lower = std::numeric_limits<double>::infinity();
    upper = 0.0;
    if (block_free || untouched.empty()) {
      lower = projection.nu_lower();
      upper = projection.nu_upper();
    }
    for (int j : untouched) {
      lower = std::min(lower, mass(j));
      upper = std::max(upper, mass(j));
    }
  }
  out.nu_lower = lower;
  out.nu_upper = upper;
  out.nu = nu ? *nu : std::sqrt(lower * upper);
  if (out.rank == 0) {
    out.cond = upper / lower;
  } else if (out.rank == n) {
    out.cond = 1.0;
  } else {
    out.cond = std::max(out.nu, upper) / std::min(out.nu, lower);
  }
  return out;
}

}  // namespace oblique
