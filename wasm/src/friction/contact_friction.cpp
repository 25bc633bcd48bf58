#include "oblique/friction/contact_friction.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>

#include <Eigen/LU>
#include <Eigen/QR>

namespace oblique {

namespace {

/// Most sliding points whose every principal minor is checked (2^k − 1 minors); beyond, the leading ones.
constexpr int kMaxMinorCheckPoints = 10;

/// The smallest principal minor of W, each relative to the product of |W_ii| (its scale), over every
/// subset of rows (k ≤ kMaxMinorCheckPoints); beyond, over the leading ones, each as the pivot it adds
/// relative to its |W_ii| (the leading minors are positive exactly when every pivot of W's LU without row
/// swaps is, and a product over many rows would shrink below any round-off bound however well each pivot
/// stands).
double smallest_principal_minor(const Matrix& w) {
  const int k = static_cast<int>(w.rows());
  double smallest = std::numeric_limits<double>::infinity();
  const auto scale_of = [&](int i) { return std::max(std::abs(w(i, i)), std::numeric_limits<double>::min()); };
  if (k <= kMaxMinorCheckPoints) {
    for (unsigned subset = 1; subset < (1u << k); ++subset) {
      std::vector<int> rows;
      for (int i = 0; i < k; ++i) {
        if (subset & (1u << i)) rows.push_back(i);
      }
      Matrix sub(rows.size(), rows.size());
      double scale = 1.0;
      for (std::size_t i = 0; i < rows.size(); ++i) {
        for (std::size_t j = 0; j < rows.size(); ++j) sub(i, j) = w(rows[i], rows[j]);
        scale *= scale_of(rows[i]);
      }
      smallest = std::min(smallest, Eigen::PartialPivLU<Matrix>(sub).determinant() / scale);
    }
    return smallest;
  }
  // Gaussian elimination in the leading order: pivot i is det(W_{1..i}) / det(W_{1..i−1}).
  Matrix lu = w;
  for (int i = 0; i < k; ++i) {
    const double pivot = lu(i, i);
    smallest = std::min(smallest, pivot / scale_of(i));
    if (!(pivot > 0.0)) return smallest;
    const int rest = k - i - 1;
    if (rest == 0) break;
    lu.block(i + 1, i + 1, rest, rest).noalias() -= (lu.col(i).tail(rest) / pivot) * lu.row(i).tail(rest);
  }
  return smallest;
}

}  // namespace

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
  out.painleve_margin = smallest_principal_minor(w);
  // A minor at round-off of its scale counts as zero: no unique solution.
  out.painleve = !(out.painleve_margin > 1e-9);
  return out;
}

}  // namespace oblique
