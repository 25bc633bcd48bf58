#include "oblique/sparse/sparse_path.hpp"

#include <cmath>

#include "oblique/math/scaled_projection.hpp"
#include "oblique/sparse/sparse_dynamics.hpp"

namespace oblique {

bool sparse_solution_meets_rows(const DelassusFactorization& delassus, const Vector& x, const Vector& target,
                                double scale) {
  // Kept rows too ill-conditioned for the sparse solve: the dense path decides.
  if (!kept_rows_well_conditioned(delassus)) return false;
  const SparseJacobian& jacobian = delassus.jacobian();
  for (int i = 0; i < jacobian.rows(); ++i) {
    // Residual of row i, and its size: |row i|₁ times the scale, plus |target_i|.
    double residual = -target[i];
    double length = 0.0;
    for (SparseJacobian::InnerIterator entry(jacobian, i); entry; ++entry) {
      residual += entry.value() * x[entry.index()];
      length += std::abs(entry.value());
    }
    if (!(std::abs(residual) <= kRowResidualTolerance * (length * scale + std::abs(target[i])))) return false;
  }
  return true;
}

ImpactResult solve_impact_large(const Vector& mass, const Matrix& jacobian, const Vector& qd_minus,
                                const Vector& restitution, const Vector& impulse, const std::vector<bool>& unilateral,
                                bool* dense_fallback) {
  DelassusFactorization delassus;
  delassus.factorize(to_sparse(jacobian), mass);
  const bool sparse = sparse_solve_accurate(delassus);
  if (dense_fallback) *dense_fallback = !sparse;
  if (sparse) return solve_impact_sparse(delassus, qd_minus, Restitution::rows(restitution), impulse, unilateral);
  return ScaledProjection(mass, jacobian).impact(qd_minus, restitution, impulse, unilateral);
}

}  // namespace oblique
