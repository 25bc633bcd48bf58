// Random mechanical systems for property tests: SPD inertia matrices and constraint Jacobians of every
// kind the math layer must handle. Fixed seeds keep every run identical.
#pragma once

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "oblique/math/projection.hpp"

namespace oblique::testing {

/// The kinds of Jacobian a simulation can produce.
enum class JacobianKind { FullRowRank, RepeatedRow, DependentRows, NoRows, MoreRowsThanColumns };

inline const char* name(JacobianKind kind) {
  switch (kind) {
    case JacobianKind::FullRowRank: return "full_row_rank";
    case JacobianKind::RepeatedRow: return "repeated_row";
    case JacobianKind::DependentRows: return "dependent_rows";
    case JacobianKind::NoRows: return "no_rows";
    case JacobianKind::MoreRowsThanColumns: return "more_rows_than_columns";
  }
  return "?";
}

inline const std::vector<JacobianKind>& all_jacobian_kinds() {
  static const std::vector<JacobianKind> kinds = {JacobianKind::FullRowRank, JacobianKind::RepeatedRow,
                                                  JacobianKind::DependentRows, JacobianKind::NoRows,
                                                  JacobianKind::MoreRowsThanColumns};
  return kinds;
}

/// A seeded source of random matrices.
class RandomSystems {
 public:
  explicit RandomSystems(unsigned seed) : engine_(seed) {}

  double normal() { return normal_(engine_); }
  double uniform(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(engine_); }
  int integer(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(engine_); }

  Vector vector(int n) {
    Vector v(n);
    for (int i = 0; i < n; ++i) v(i) = normal();
    return v;
  }

  Matrix matrix(int rows, int cols) {
    Matrix a(rows, cols);
    for (int i = 0; i < rows; ++i)
      for (int j = 0; j < cols; ++j) a(i, j) = normal();
    return a;
  }

  /// SPD with eigenvalues spread over about two decades (like masses and inertias of a mechanism).
  Matrix inertia(int n) {
    const Matrix b = matrix(n, n);
    Matrix m = b * b.transpose() + 0.05 * n * Matrix::Identity(n, n);
    return 0.5 * (m + m.transpose());
  }

  /// A Jacobian with n columns of the given kind (m rows as the kind dictates, m ≥ 1 except NoRows).
  Matrix jacobian(JacobianKind kind, int n) {
    switch (kind) {
      case JacobianKind::FullRowRank: return matrix(integer(1, n - 1), n);
      case JacobianKind::RepeatedRow: {
        Matrix a = matrix(integer(2, n - 1), n);
        a.row(a.rows() - 1) = a.row(0);
        return a;
      }
      case JacobianKind::DependentRows: {
        Matrix a = matrix(integer(3, n - 1), n);
        a.row(a.rows() - 1) = 0.7 * a.row(0) - 1.3 * a.row(1);
        return a;
      }
      case JacobianKind::NoRows: return Matrix(0, n);
      case JacobianKind::MoreRowsThanColumns: {
        // n + 2 rows of rank n − 1: over-determined and rank-deficient at once.
        return matrix(n + 2, n - 1) * matrix(n - 1, n);
      }
    }
    return Matrix(0, n);
  }

 private:
  std::mt19937 engine_;
  std::normal_distribution<double> normal_{0.0, 1.0};
};

/// A diagonal inertia of size n with entries spread over two decades, like masses and moments of inertia.
inline Vector random_masses(RandomSystems& rng, int n) {
  Vector d(n);
  for (int i = 0; i < n; ++i) d(i) = std::exp(rng.uniform(std::log(0.1), std::log(10.0)));
  return d;
}

/// q̇⁻ that approaches every constraint row of A that can be approached (Aq̇⁻ in range(A), negative), plus
/// a null-space component.
inline Vector approaching_velocity(RandomSystems& rng, const Matrix& a, int n) {
  Vector qd = 0.3 * rng.vector(n);
  if (a.rows() == 0) return qd;
  const PseudoInverse pi = pseudo_inverse(a);
  const Vector target = -Vector::Ones(a.rows()) - rng.vector(a.rows()).cwiseAbs();
  // The target projected onto range(A), so that it is reachable.
  const Vector phid = a * (pi.pinv * target);
  return pi.pinv * phid + (Matrix::Identity(n, n) - pi.pinv * a) * qd;
}

}  // namespace oblique::testing
