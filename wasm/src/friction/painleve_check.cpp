// Painlevé's verdict on W, and W itself from compressed rows (painleve_check.hpp).
#include "oblique/friction/painleve_check.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>

#include <Eigen/LU>

#include "friction/oblique_multipliers.hpp"
#include "oblique/sparse/delassus.hpp"
#include "oblique/sparse/sparse_path.hpp"

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

PainleveVerdict painleve_verdict(const Matrix& w) {
  PainleveVerdict out;
  out.margin = smallest_principal_minor(w);
  // A minor at round-off of its scale counts as zero: no unique solution.
  out.painleve = !(out.margin > 1e-9);
  return out;
}

double painleve_verdict_flops(int sliding) {
  const double k = static_cast<double>(sliding);
  if (sliding <= kMaxMinorCheckPoints) return std::ldexp(1.0, sliding) * (k * k * k + 2 * k);
  return 2.0 / 3.0 * k * k * k;
}

std::optional<Matrix> sliding_schur_complement_sparse(const Vector& mass, const SparseJacobian& jacobian,
                                                      const SparseJacobian& tangents,
                                                      const std::vector<SlidingContact>& sliding) {
  const Eigen::Index n = jacobian.cols();
  const Eigen::Index s = static_cast<Eigen::Index>(sliding.size());
  // S: the sliding normal rows; R: every other row of A.
  std::vector<char> is_sliding(static_cast<std::size_t>(jacobian.rows()), 0);
  std::vector<int> s_rows, r_rows;
  for (const SlidingContact& c : sliding) {
    is_sliding[static_cast<std::size_t>(c.normal_row)] = 1;
    s_rows.push_back(c.normal_row);
  }
  for (Eigen::Index i = 0; i < jacobian.rows(); ++i) {
    if (!is_sliding[static_cast<std::size_t>(i)]) r_rows.push_back(static_cast<int>(i));
  }
  const SparseJacobian a_s = detail::sparse_rows_of(jacobian, s_rows);
  const SparseJacobian a_r = detail::sparse_rows_of(jacobian, r_rows);
  // F_R = A_R M⁻¹ A_Rᵀ, trusted by the sparse path's rule (else the dense form decides).
  DelassusFactorization rest;
  if (!r_rows.empty()) {
    rest.factorize(a_r, mass);
    if (!sparse_solve_accurate(rest)) return std::nullopt;
  }
  const Vector inverse_mass = mass.cwiseInverse();
  Matrix w(s, s);
  for (Eigen::Index j = 0; j < s; ++j) {
    const SlidingContact& c = sliding[static_cast<std::size_t>(j)];
    // x_j = M⁻¹ b_jᵀ, b_j = a_j − μ s t_j.
    Vector x = Vector::Zero(n);
    for (SparseJacobian::InnerIterator it(jacobian, c.normal_row); it; ++it) x(it.index()) += it.value();
    const double factor = -(c.mu * static_cast<double>(c.direction));
    for (SparseJacobian::InnerIterator it(tangents, j); it; ++it) x(it.index()) += factor * it.value();
    x = x.cwiseProduct(inverse_mass);
    // z_j = x_j − M⁻¹A_Rᵀ F_R⁺ A_R x_j: the part of x_j the rows R leave free.
    if (!r_rows.empty()) {
      const Vector held = rest.pseudo_solve(a_r * x);
      x -= inverse_mass.cwiseProduct(a_r.transpose() * held);
    }
    // Column j of W: A_S z_j.
    w.col(j) = a_s * x;
  }
  if (!w.allFinite()) return std::nullopt;
  return w;
}

double sliding_schur_complement_sparse_flops(int n, int m, int entries, int sliding) {
  // The factorisation of A_R (searches and null basis included), then per sliding point x_j (n), the
  // products A_R x_j, A_Rᵀy and A_S z_j (six flops an entry of A in all) and a pseudo-solve (two solves
  // and two projections: about 4000 + 60m, and 4dm through the null basis of the d rows beyond n).
  const double rows = static_cast<double>(m);
  const double coordinates = static_cast<double>(n);
  const double doubtful = std::max(rows - coordinates, 0.0) + 1.0;
  const double per_point = 3 * coordinates + 6 * static_cast<double>(entries) + 4000 + 60 * rows + 4 * doubtful * rows;
  return detail::delassus_flops(coordinates, rows, false) + static_cast<double>(sliding) * per_point;
}

}  // namespace oblique
