// The sparse search's steps (FrictionalImpactSearch on a diagonal M and A in compressed rows,
// frictional_impact.hpp): the sticking impact and each mode combination through Delassus factorisations
// (delassus.hpp), the same attempts as the dense steps of frictional_impact.cpp to round-off, without an
// n×n operator.
//
// A combination whose impulses lie along its rows (every pair sticking, or slipping with μ = 0) is the
// paper's impact on A_v: solve_impact_sparse. A combination with slipping pairs (μ > 0) has impulses along
// B = A_v with n_k − μ_k s_k t_k in the slipping pairs' normal rows, and the dense search takes λ = G⁺r, the
// minimum-norm least-squares multipliers of G = A_v M⁻¹Bᵀ, r = −(I + E)A_v q̇⁻ − A_v M⁻¹i_u:
// oblique_multipliers.hpp solves it on the compressed rows; where it is not accurate the combination is
// solved dense (solve_modes_dense).
#include <optional>
#include <vector>

#include "friction/frictional_impact_internal.hpp"
#include "friction/oblique_multipliers.hpp"
#include "oblique/sparse/delassus.hpp"
#include "oblique/sparse/sparse_dynamics.hpp"
#include "oblique/sparse/sparse_path.hpp"

namespace oblique::detail {

namespace {

/// The paper's impact on the rows `a_v` (restitution and unilateral rows given per row of A_v): the sparse
/// solve when its factorisation is accurate, else the dense projections. The factorisation is the step's
/// own, which its gate may stop between pieces.
ImpactResult impact_on_rows(const FrictionProblem& p, const SparseJacobian& a_v, const Restitution& restitution,
                            const std::vector<bool>& unilateral, SparseStepProgress& progress, const WorkGate& gate) {
  DelassusFactorization& delassus = progress.rows;
  delassus.factorize_as_new(a_v, p.mass, gate);
  if (sparse_solve_accurate(delassus)) {
    return solve_impact_sparse(delassus, p.qd_minus, restitution, p.external_impulse, unilateral);
  }
  const Projection projection(p.inertia, Matrix(a_v), p.nu);
  return solve_impact(projection, p.qd_minus, restitution, p.external_impulse, unilateral);
}

}  // namespace

ImpactResult sparse_sticking_impact(const FrictionProblem& p, SparseStepProgress& progress, const WorkGate& gate) {
  const Restitution restitution = p.pairs.empty() ? p.restitution : Restitution::rows(p.row_restitution);
  return impact_on_rows(p, p.sparse_jacobian, restitution, p.unilateral, progress, gate);
}

double sparse_step_flops(double n, double m, double slipping, bool gated) {
  // The factorisation of A_v, or, with slipping pairs, the oblique multipliers.
  if (slipping == 0.0) return delassus_flops(n, m, gated);
  return oblique_multipliers_flops(n, m, slipping, gated);
}

FrictionAttempt solve_modes_sparse(const FrictionProblem& p, const std::vector<PairMode>& modes,
                                   SparseStepProgress& progress, const WorkGate& gate) {
  const int m = p.rows();
  FrictionAttempt out;
  out.modes = modes;
  bool oblique = false;
  out.velocity_rows = velocity_rows_of(p, modes, oblique);
  const std::vector<int>& rows = out.velocity_rows;
  std::vector<bool> unilateral_v;
  for (int row : rows) unilateral_v.push_back(p.unilateral[static_cast<std::size_t>(row)]);
  out.multipliers = Vector::Zero(m);
  const SparseJacobian a_v = sparse_rows_of(p.sparse_jacobian, rows);

  if (!oblique) {
    // Impulses along the rows themselves: the paper's impact on A_v.
    const ImpactResult r = impact_on_rows(p, a_v, restitution_of_rows(p, rows), unilateral_v, progress, gate);
    fill_attempt_on_rows(out, r, Matrix());
    return out;
  }

  // B: the rows of A_v, with n_k − μ_k s_k t_k for each slipping pair.
  std::vector<Eigen::Index> position(static_cast<std::size_t>(m), -1);
  for (std::size_t j = 0; j < rows.size(); ++j) position[static_cast<std::size_t>(rows[j])] = static_cast<Eigen::Index>(j);
  std::vector<SlippingRow> slipping;
  std::vector<int> slipping_pairs;
  for (std::size_t k = 0; k < p.pairs.size(); ++k) {
    const FrictionPair& pair = p.pairs[k];
    if (modes[k].mode != FrictionMode::Slip || pair.mu == 0.0) continue;
    slipping.push_back({position[static_cast<std::size_t>(pair.normal_row)], pair.tangent_row,
                        -(pair.mu * modes[k].direction)});
    slipping_pairs.push_back(static_cast<int>(k));
  }
  const SparseJacobian b = oblique_rows(a_v, p.sparse_jacobian, slipping);
  // λ = G⁺r, r = −(I + E)A_v q̇⁻ − A_v M⁻¹i_u.
  const Vector free_response = p.external_impulse.cwiseQuotient(p.mass);
  const Vector minus_v = a_v * p.qd_minus;
  const Vector e_v = p.row_restitution(rows);
  const Vector rhs = -(minus_v + e_v.cwiseProduct(minus_v)) - a_v * free_response;
  const std::optional<Vector> solved =
      oblique_multipliers(p.mass, a_v, b, p.sparse_jacobian, slipping, rhs, progress, gate);
  if (!solved) return solve_modes_dense(p, modes);
  const Vector& lambda = *solved;
  out.impulse = b.transpose() * lambda;
  out.qd_plus = p.qd_minus + out.impulse.cwiseQuotient(p.mass) + free_response;
  for (std::size_t j = 0; j < rows.size(); ++j) out.multipliers(rows[j]) = lambda(static_cast<Eigen::Index>(j));
  for (std::size_t j = 0; j < slipping.size(); ++j) {
    const FrictionPair& fp = p.pairs[static_cast<std::size_t>(slipping_pairs[j])];
    out.multipliers(fp.tangent_row) = slipping[j].factor * out.multipliers(fp.normal_row);
  }

  // Energies, work, Newton's law on A_v and the flags, as the dense step finishes.
  const Vector momentum_minus = p.mass.cwiseProduct(p.qd_minus);
  const Vector momentum_plus = p.mass.cwiseProduct(out.qd_plus);
  const Vector plus_v = a_v * out.qd_plus;
  finish_attempt(p, rows, lambda, momentum_minus, momentum_plus, minus_v, plus_v, e_v, out);
  return out;
}

}  // namespace oblique::detail
