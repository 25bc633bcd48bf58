// The simulator's sparse path: what a large scene (n ≥ kSparseSmoothPhaseCoordinates, simulator.hpp) does
// through the Delassus factorisation of K = A M⁻¹ Aᵀ (delassus.hpp, sparse_dynamics.hpp) instead of the
// dense projections, with the dense solve kept for nearly dependent kept rows (sparse_path.hpp). The
// smooth phase's branch is in simulator.cpp (smooth_dynamics); the stages here are called from their dense
// counterparts there when sparse_smooth_phase() holds: the impact solve.
#include "oblique/delassus.hpp"
#include "oblique/scaled_projection.hpp"
#include "oblique/simulator.hpp"
#include "oblique/sparse_path.hpp"

namespace oblique {

ImpactResult Simulator::sparse_impact(const Matrix& jacobian, const Vector& qd_minus, const Vector& restitution,
                                      const Vector& impulse, const std::vector<bool>& unilateral) {
  // reads (M, A), q̇⁻, E, i_u ⇒ returns the impact of solve_impact_on, from one factorisation made afresh:
  // K μ = A v + Π E A q̇⁻, q̇⁺ = v − M⁻¹Aᵀμ (v = q̇⁻ + M⁻¹i_u). The same fields, flags and tolerances as
  // the dense solve, but Ẽ, Q and λ_max(EQE − Q), left to the record's panels (impact_log.hpp).
  work_.budget.begin(work::sparse_dynamics(static_cast<double>(n_), static_cast<double>(jacobian.rows())));
  bool dense = false;
  ImpactResult result =
      solve_impact_large(model_.mass_diagonal(), jacobian, qd_minus, restitution, impulse, unilateral, &dense);
  // Kept rows nearly dependent: the dense solve was taken (sparse_path.hpp), at its cost.
  if (dense) {
    const double touched = static_cast<double>(touched_coordinates(jacobian).size());
    const double m = static_cast<double>(jacobian.rows());
    work_.budget.add(work::projection(touched, m) + work::impact_solve(touched, m));
  }
  return result;
}

}  // namespace oblique
