#include "oblique/friction/contact_friction.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>

#include <Eigen/QR>

#include "oblique/friction/painleve_check.hpp"

namespace oblique {

SlidingDynamics sliding_friction_dynamics(const Vector& mass, const Matrix& jacobian, const Matrix& tangents,
                                          const std::vector<SlidingContact>& sliding, const Vector& adot_qd,
                                          const Vector& free_acceleration) {
  const Eigen::Index m = jacobian.rows();
  // B: A with the normal row of each sliding point turned to n − μ s t, the direction of its force.
  Matrix directions = jacobian;
  for (std::size_t k = 0; k < sliding.size(); ++k) {
    const SlidingContact& c = sliding[k];
    directions.row(c.normal_row) -= (c.mu * static_cast<double>(c.direction)) * tangents.row(static_cast<Eigen::Index>(k));
  }
  // K = A M⁻¹ Bᵀ and the right-hand side −Ȧq̇ − A q̈*.
  const Vector inverse_mass = mass.cwiseInverse();
  const Matrix k_matrix = jacobian * inverse_mass.asDiagonal() * directions.transpose();
  const Vector rhs = -adot_qd - jacobian * free_acceleration;
  // λ: the minimum-norm least-squares solution (dependent rows, as the paper's A⁺).
  const Eigen::CompleteOrthogonalDecomposition<Matrix> decomposition(k_matrix);
  SlidingDynamics out;
  ConstrainedDynamics& d = out.dynamics;
  d.multipliers = decomposition.solve(rhs);
  d.force = directions.transpose() * d.multipliers;
  d.qdd_free = free_acceleration;
  d.qdd = free_acceleration + inverse_mass.cwiseProduct(d.force);
  d.qdd_normal = Vector::Zero(free_acceleration.size());

  // Painlevé: W, the Schur complement of the sliding normal rows in K, must be a P-matrix.
  std::vector<int> s_rows, r_rows;
  std::vector<char> is_sliding(static_cast<std::size_t>(m), 0);
  for (const SlidingContact& c : sliding) is_sliding[static_cast<std::size_t>(c.normal_row)] = 1;
  for (Eigen::Index i = 0; i < m; ++i) (is_sliding[static_cast<std::size_t>(i)] ? s_rows : r_rows).push_back(static_cast<int>(i));
  auto block = [&](const std::vector<int>& rows, const std::vector<int>& cols) {
    Matrix b(rows.size(), cols.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
      for (std::size_t j = 0; j < cols.size(); ++j) b(i, j) = k_matrix(rows[i], cols[j]);
    }
    return b;
  };
  Matrix w = block(s_rows, s_rows);
  if (!r_rows.empty()) {
    const Eigen::CompleteOrthogonalDecomposition<Matrix> rr(block(r_rows, r_rows));
    w -= block(s_rows, r_rows) * rr.solve(block(r_rows, s_rows));
  }
  const PainleveVerdict verdict = painleve_verdict(w);
  out.painleve = verdict.painleve;
  out.painleve_margin = verdict.margin;
  return out;
}

}  // namespace oblique
