// The sparse search's steps (FrictionalImpactSearch on a diagonal M and A in compressed rows,
// frictional_impact.hpp): the sticking impact and each mode combination through Delassus factorisations
// (delassus.hpp), the same attempts as the dense steps of frictional_impact.cpp to round-off, without an
// n×n operator.
//
// A combination whose impulses lie along its rows (every pair sticking, or slipping with μ = 0) is the
// paper's impact on A_v: solve_impact_sparse. A combination with slipping pairs (μ > 0) has impulses along
// B = A_v with n_k − μ_k s_k t_k in the slipping pairs' normal rows, Bᵀλ = A_vᵀλ + A_Tᵀ V λ (A_T: their
// tangential rows, V λ = (−μ_k s_k λ_{n_k})), and the dense search takes λ = G⁺r, the minimum-norm
// least-squares multipliers of G = A_v M⁻¹Bᵀ = F + UV, F = A_v M⁻¹A_vᵀ, U = A_v M⁻¹A_Tᵀ,
// r = −(I + E)A_v q̇⁻ − A_v M⁻¹i_u. Two sparse ways to it, tried in turn:
//
//   - the Schur complement over the slipping pairs. When range(G) = range(A_v) and N(G) = N(Bᵀ) — then
//     A_v and B have one rank —, G⁺r is the λ ∈ range(B) with G λ = r′ = Π_{A_v} r; a solution in range(F),
//     x = F⁺(r′ − U y) with y = V x, solves the system of the size of the slipping pairs
//         (I + V F⁺U) y = V F⁺ r′,
//     and λ = Π_B x (Bᵀλ = Bᵀx). Checked: both factorisations accurate, one rank, y finite, G λ = r′.
//   - otherwise (a slipping normal row that was dependent in A_v is not in B: rank B > rank A_v, and the
//     impulse is not fixed by the velocity laws alone, the pseudo-inverse choosing the least multipliers):
//     λ = Gᵀ(G Gᵀ)⁺r, the least_squares of the Delassus factorisation of G (as sparse as the Delassus
//     operator) with unit weights.
//
// Where neither is accurate (sparse_solve_accurate: G Gᵀ carries the square of G's condition) the
// combination is solved dense (solve_modes_dense).
#include <algorithm>
#include <cmath>
#include <limits>

#include <optional>
#include <utility>
#include <vector>

#include "friction/frictional_impact_internal.hpp"
#include "math/max_abs.hpp"
#include "math/piecewise_lu.hpp"
#include "oblique/sparse/delassus.hpp"
#include "oblique/sparse/sparse_dynamics.hpp"
#include "oblique/sparse/sparse_path.hpp"

namespace oblique::detail {

namespace {

/// The rows `rows` of A, in compressed rows.
SparseJacobian sparse_rows_of(const SparseJacobian& a, const std::vector<int>& rows) {
  SparseJacobian out(static_cast<Eigen::Index>(rows.size()), a.cols());
  Eigen::Index entries = 0;
  for (int row : rows) entries += a.outerIndexPtr()[row + 1] - a.outerIndexPtr()[row];
  out.reserve(entries);
  for (std::size_t j = 0; j < rows.size(); ++j) {
    out.startVec(static_cast<Eigen::Index>(j));
    for (SparseJacobian::InnerIterator it(a, rows[j]); it; ++it) out.insertBack(static_cast<Eigen::Index>(j), it.index()) = it.value();
  }
  out.finalize();
  return out;
}

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

/// A slipping pair (μ > 0) of a combination: its index in the pairs, the position of its normal row in
/// A_v, and −μ s.
struct SlippingPair {
  int pair = 0;
  Eigen::Index position = 0;
  double factor = 0.0;
};

/// λ = G⁺r through the Schur complement over the slipping pairs (header comment), or nothing when a check
/// fails: both factorisations accurate, A_v and B of one rank, y finite and G λ meeting r′ to 1e-8. Its
/// pieces (the factorisations' searches, each slipping pair's pseudo-solve, each column panel of the dense
/// system's LU) are told to the gate, and what is done of them kept in `progress`.
std::optional<Vector> schur_multipliers(const FrictionProblem& p, const SparseJacobian& a_v, const SparseJacobian& b,
                                        const std::vector<SlippingPair>& slipping, const Vector& rhs,
                                        SparseStepProgress& progress, const WorkGate& gate) {
  DelassusFactorization& f = progress.rows;
  DelassusFactorization& fb = progress.oblique;
  f.factorize_as_new(a_v, p.mass, gate);
  fb.factorize_as_new(b, p.mass, gate);
  if (!sparse_solve_accurate(f) || !sparse_solve_accurate(fb) || f.rank() != fb.rank()) return std::nullopt;
  const Vector inverse_mass = p.mass.cwiseInverse();
  // r′ = Π_{A_v} r; F⁺r′ and F⁺u_k, u_k = A_v M⁻¹t_kᵀ, one pair a piece (those solved kept).
  const Vector target = f.project_to_range(rhs);
  const Vector base = f.pseudo_solve(target);
  const Eigen::Index s = static_cast<Eigen::Index>(slipping.size());
  Matrix& w = progress.columns;
  if (progress.columns_done == 0) w.resize(a_v.rows(), s);
  const double m = static_cast<double>(a_v.rows());
  const double dependent = static_cast<double>(f.rows() - f.rank());
  for (Eigen::Index k = progress.columns_done; k < s; ++k) {
    if (gate) gate(4000 + 60 * m + 4 * dependent * m);
    const int tangent_row = p.pairs[static_cast<std::size_t>(slipping[static_cast<std::size_t>(k)].pair)].tangent_row;
    const Vector column = p.sparse_jacobian.row(tangent_row).transpose().cwiseProduct(inverse_mass);
    w.col(k) = f.pseudo_solve(a_v * column);
    progress.columns_done = static_cast<int>(k) + 1;
  }
  // (I + V F⁺U) y = V F⁺r′, its matrix made once and factorised a column panel a piece; then
  // x = F⁺r′ − F⁺U y and λ = Π_B x.
  Vector right(s);
  for (Eigen::Index j = 0; j < s; ++j) {
    const SlippingPair& pair = slipping[static_cast<std::size_t>(j)];
    right(j) = pair.factor * base(pair.position);
  }
  PiecewiseLu& lu = progress.system;
  if (!lu.started()) {
    Matrix system = Matrix::Identity(s, s);
    for (Eigen::Index j = 0; j < s; ++j) {
      const SlippingPair& pair = slipping[static_cast<std::size_t>(j)];
      system.row(j) += pair.factor * w.row(pair.position);
    }
    lu.start(std::move(system));
  }
  lu.factorize(gate);
  const Vector y = lu.solve(right);
  if (!y.allFinite()) return std::nullopt;
  const Vector lambda = fb.project_to_range(base - w * y);
  // G λ = A_v M⁻¹Bᵀλ must meet r′.
  const Vector reached = a_v * Vector((b.transpose() * lambda).cwiseProduct(inverse_mass));
  const double scale = std::max({target.norm(), rhs.norm(), std::numeric_limits<double>::min()});
  if (!((reached - target).norm() <= 1e-8 * scale)) return std::nullopt;
  return lambda;
}

/// λ = G⁺r from the Delassus factorisation of G with unit weights (header comment), or nothing when it is
/// not accurate; the factorisation the step's own, stopped by its gate between pieces.
std::optional<Vector> least_squares_multipliers(const FrictionProblem& p, const SparseJacobian& a_v,
                                                const SparseJacobian& b, const Vector& rhs,
                                                SparseStepProgress& progress, const WorkGate& gate) {
  const Vector inverse_mass = p.mass.cwiseInverse();
  SparseJacobian g = a_v * (inverse_mass.asDiagonal() * SparseJacobian(b.transpose()));
  g.prune(0.0);
  DelassusFactorization& delassus = progress.multipliers;
  delassus.factorize_as_new(g, Vector::Ones(g.cols()), gate);
  if (!sparse_solve_accurate(delassus)) return std::nullopt;
  return delassus.least_squares(rhs);
}

}  // namespace

ImpactResult sparse_sticking_impact(const FrictionProblem& p, SparseStepProgress& progress, const WorkGate& gate) {
  const Restitution restitution = p.pairs.empty() ? p.restitution : Restitution::rows(p.row_restitution);
  return impact_on_rows(p, p.sparse_jacobian, restitution, p.unilateral, progress, gate);
}

double sparse_step_flops(double n, double m, double slipping, bool gated) {
  // With a gate, only what it cannot stop: each factorisation's analysis and solves, the pseudo-solve of r′
  // and the products over the slipping pairs (the searches, the null bases, the pairs' pseudo-solves and
  // the dense system are pieces of their own).
  if (gated) {
    const double factorisation = 2000 * m + 3 * (4000 + 2 * n * m + 400 * (n + m));
    if (slipping == 0.0) return factorisation;
    const double least_squares = 2000 * m + 3 * (4000 + 160 * m + 1600 * m) + 800 * m;
    return 2 * factorisation + 4000 + 60 * m + 2 * slipping * m + least_squares;
  }
  // A Delassus factorisation of m rows on n coordinates: its analysis and solves (work_budget.hpp's sparse
  // impact solve), and the search of the rows beyond n, d = max(m − n, 0) + 1 of them, each a few solves of
  // the leading block (about 60m) and a column of the null basis with its Gram matrix (2d(m − n) in all).
  const double doubtful = std::max(m - n, 0.0) + 1.0;
  const double factorisation = 2000 * m + 3 * (4000 + 2 * n * m + 400 * (n + m)) + doubtful * 60 * m +
                               2 * doubtful * doubtful * std::max(m - n, 0.0);
  if (slipping == 0.0) return factorisation;
  // With slipping pairs, the Schur complement first: the factorisations of A_v and B, a pseudo-solve per
  // slipping pair and one more (two solves and two projections each: about 4000 + 60m, and the null
  // basis's 4dm), the dense system over the pairs (LU, (2/3)s³) and its products (2sm).
  const double pseudo_solve = 4000 + 60 * m + 4 * doubtful * m;
  const double schur = 2 * factorisation + (slipping + 1) * pseudo_solve + 2.0 / 3.0 * slipping * slipping * slipping +
                       2 * slipping * m;
  // Then, should it not apply, G = A_v M⁻¹Bᵀ (m × m, about 20 entries a row) and the factorisation of G Gᵀ:
  // about four times K's entries, its dependent rows those of G (the rows beyond n and the slipping ones).
  const double g_doubtful = std::max(m - n, 0.0) + slipping + 1.0;
  const double least_squares = 2000 * m + 3 * (4000 + 160 * m + 1600 * m) + g_doubtful * 240 * m +
                               2 * g_doubtful * g_doubtful * g_doubtful + 800 * m;
  return schur + least_squares;
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
  std::vector<SlippingPair> slipping;
  Eigen::SparseMatrix<double, Eigen::RowMajor, int> shift(a_v.rows(), a_v.cols());
  std::vector<Eigen::Triplet<double>> entries;
  for (std::size_t k = 0; k < p.pairs.size(); ++k) {
    const FrictionPair& pair = p.pairs[k];
    if (modes[k].mode != FrictionMode::Slip || pair.mu == 0.0) continue;
    const double factor = -(pair.mu * modes[k].direction);
    const Eigen::Index at = position[static_cast<std::size_t>(pair.normal_row)];
    slipping.push_back({static_cast<int>(k), at, factor});
    for (SparseJacobian::InnerIterator it(p.sparse_jacobian, pair.tangent_row); it; ++it) {
      entries.emplace_back(static_cast<int>(at), static_cast<int>(it.index()), factor * it.value());
    }
  }
  shift.setFromTriplets(entries.begin(), entries.end());
  SparseJacobian b = a_v + shift;
  b.prune(0.0);
  // λ = G⁺r, r = −(I + E)A_v q̇⁻ − A_v M⁻¹i_u.
  const Vector free_response = p.external_impulse.cwiseQuotient(p.mass);
  const Vector minus_v = a_v * p.qd_minus;
  const Vector e_v = p.row_restitution(rows);
  const Vector rhs = -(minus_v + e_v.cwiseProduct(minus_v)) - a_v * free_response;
  std::optional<Vector> solved = schur_multipliers(p, a_v, b, slipping, rhs, progress, gate);
  if (!solved) solved = least_squares_multipliers(p, a_v, b, rhs, progress, gate);
  if (!solved) return solve_modes_dense(p, modes);
  const Vector& lambda = *solved;
  out.impulse = b.transpose() * lambda;
  out.qd_plus = p.qd_minus + out.impulse.cwiseQuotient(p.mass) + free_response;
  for (std::size_t j = 0; j < rows.size(); ++j) out.multipliers(rows[j]) = lambda(static_cast<Eigen::Index>(j));
  for (const SlippingPair& pair : slipping) {
    const FrictionPair& fp = p.pairs[static_cast<std::size_t>(pair.pair)];
    out.multipliers(fp.tangent_row) = pair.factor * out.multipliers(fp.normal_row);
  }

  // Energies, work, Newton's law on A_v and the flags, as the dense step finishes.
  const Vector momentum_minus = p.mass.cwiseProduct(p.qd_minus);
  const Vector momentum_plus = p.mass.cwiseProduct(out.qd_plus);
  const Vector plus_v = a_v * out.qd_plus;
  finish_attempt(p, rows, lambda, momentum_minus, momentum_plus, minus_v, plus_v, e_v, out);
  return out;
}

}  // namespace oblique::detail
