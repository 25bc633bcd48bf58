#include "oblique/sparse_path.hpp"

#include "oblique/scaled_projection.hpp"
#include "oblique/sparse_dynamics.hpp"

namespace oblique {

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
