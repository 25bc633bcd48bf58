// The multipliers of an oblique system on compressed rows (oblique_multipliers.hpp): the Schur complement
// over the slipping rows, else the least squares of G's Delassus factorisation.
#include "friction/oblique_multipliers.hpp"

#include <algorithm>
#include <limits>
#include <utility>

#include "math/max_abs.hpp"
#include "math/same_bits.hpp"
#include "oblique/sparse/sparse_path.hpp"

namespace oblique::detail {

namespace {

/// The solves of a least squares on the Delassus factorisation of G's m rows (about four times K's entries:
/// G has some 20 entries a row).
double least_squares_solve_flops(double m) { return 3 * (4000 + 160 * m + 1600 * m) + 800 * m; }

/// One pseudo-solve (or projection onto the range) of a Delassus factorisation of m rows with `dependent`
/// rows dropped: two triangular solves and the null basis's products.
double pseudo_solve_flops(double m, double dependent) { return 4000 + 60 * m + 4 * dependent * m; }

/// λ = G⁺r through the Schur complement over the slipping rows (header comment), or nothing when a check
/// fails: both factorisations accurate, A and B of one rank, y finite and G λ meeting r′ to 1e-8.
std::optional<Vector> schur_multipliers(const Vector& mass, const SparseJacobian& a, const SparseJacobian& b,
                                        const SparseJacobian& tangents, const std::vector<SlippingRow>& slipping,
                                        const Vector& rhs, SparseStepProgress& progress, const WorkGate& gate) {
  DelassusFactorization& f = progress.rows;
  DelassusFactorization& fb = progress.oblique;
  f.factorize_as_new(a, mass, gate);
  fb.factorize_as_new(b, mass, gate);
  if (!sparse_solve_accurate(f) || !sparse_solve_accurate(fb) || f.rank() != fb.rank()) return std::nullopt;
  const Vector inverse_mass = mass.cwiseInverse();
  const Eigen::Index s = static_cast<Eigen::Index>(slipping.size());
  const double m = static_cast<double>(a.rows());
  const double dependent = static_cast<double>(f.rows() - f.rank());
  // r′ = Π_A r and F⁺r′, kept with their r: a piece told to the gate before it runs, with what follows the
  // columns (Π_B x and the products with A, B and the slipping rows).
  if (!same_bits(progress.solved_rhs, rhs)) {
    if (gate) {
      gate(3 * pseudo_solve_flops(m, dependent) + 4 * static_cast<double>(a.nonZeros() + b.nonZeros()) +
           2 * static_cast<double>(s) * m);
    }
    progress.target = f.project_to_range(rhs);
    progress.base = f.pseudo_solve(progress.target);
    progress.solved_rhs = rhs;
  }
  const Vector& target = progress.target;
  const Vector& base = progress.base;
  // F⁺u_j, u_j = A M⁻¹t_jᵀ, one row a piece (those solved kept).
  Matrix& w = progress.columns;
  if (progress.columns_done == 0) w.resize(a.rows(), s);
  for (Eigen::Index k = progress.columns_done; k < s; ++k) {
    if (gate) gate(pseudo_solve_flops(m, dependent));
    const Eigen::Index tangent = slipping[static_cast<std::size_t>(k)].tangent;
    const Vector column = tangents.row(tangent).transpose().cwiseProduct(inverse_mass);
    w.col(k) = f.pseudo_solve(a * column);
    progress.columns_done = static_cast<int>(k) + 1;
  }
  // (I + V F⁺U) y = V F⁺r′, its matrix made once and factorised a column panel a piece; then
  // x = F⁺r′ − F⁺U y and λ = Π_B x.
  Vector right(s);
  for (Eigen::Index j = 0; j < s; ++j) {
    const SlippingRow& row = slipping[static_cast<std::size_t>(j)];
    right(j) = row.factor * base(row.position);
  }
  PiecewiseLu& lu = progress.system;
  if (!lu.started()) {
    Matrix system = Matrix::Identity(s, s);
    for (Eigen::Index j = 0; j < s; ++j) {
      const SlippingRow& row = slipping[static_cast<std::size_t>(j)];
      system.row(j) += row.factor * w.row(row.position);
    }
    lu.start(std::move(system));
  }
  lu.factorize(gate);
  const Vector y = lu.solve(right);
  if (!y.allFinite()) return std::nullopt;
  const Vector lambda = fb.project_to_range(base - w * y);
  // G λ = A M⁻¹Bᵀλ must meet r′.
  const Vector reached = a * Vector((b.transpose() * lambda).cwiseProduct(inverse_mass));
  const double scale = std::max({target.norm(), rhs.norm(), std::numeric_limits<double>::min()});
  if (!((reached - target).norm() <= 1e-8 * scale)) return std::nullopt;
  return lambda;
}

/// λ = G⁺r from the Delassus factorisation of G with unit weights (header comment), or nothing when it is
/// not accurate (with `trust_met_rows`, a factorisation whose only doubt is a dropped row is accurate when λ
/// meets every row of G λ = r).
std::optional<Vector> least_squares_multipliers(const Vector& mass, const SparseJacobian& a, const SparseJacobian& b,
                                                const Vector& rhs, bool trust_met_rows, SparseStepProgress& progress,
                                                const WorkGate& gate) {
  const Vector inverse_mass = mass.cwiseInverse();
  SparseJacobian g = a * (inverse_mass.asDiagonal() * SparseJacobian(b.transpose()));
  g.prune(0.0);
  DelassusFactorization& delassus = progress.multipliers;
  const Vector unit_weights = Vector::Ones(g.cols());
  // Told to the gate before they run: what of G's factorisation no gate stops (its analysis when new, made
  // here), once; after it, its solves.
  const double unstoppable = delassus.unstoppable_estimate(g, unit_weights);
  if (gate && unstoppable > 0.0) gate(unstoppable);
  delassus.factorize_as_new(g, unit_weights, gate);
  if (gate) gate(least_squares_solve_flops(g.rows()));
  if (sparse_solve_accurate(delassus)) return delassus.least_squares(rhs);
  // A dropped row the dense rule might keep: a λ that meets it too solves the system as the dense one does.
  if (!trust_met_rows || !kept_rows_well_conditioned(delassus)) return std::nullopt;
  Vector lambda = delassus.least_squares(rhs);
  if (!sparse_solution_meets_rows(delassus, lambda, rhs, max_abs(lambda))) return std::nullopt;
  return lambda;
}

}  // namespace

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

SparseJacobian oblique_rows(const SparseJacobian& a, const SparseJacobian& tangents, const std::vector<SlippingRow>& slipping) {
  Eigen::SparseMatrix<double, Eigen::RowMajor, int> shift(a.rows(), a.cols());
  std::vector<Eigen::Triplet<double>> entries;
  for (const SlippingRow& row : slipping) {
    for (SparseJacobian::InnerIterator it(tangents, row.tangent); it; ++it) {
      entries.emplace_back(static_cast<int>(row.position), static_cast<int>(it.index()), row.factor * it.value());
    }
  }
  shift.setFromTriplets(entries.begin(), entries.end());
  SparseJacobian b = a + shift;
  b.prune(0.0);
  return b;
}

std::optional<Vector> oblique_multipliers(const Vector& mass, const SparseJacobian& a, const SparseJacobian& b,
                                          const SparseJacobian& tangents, const std::vector<SlippingRow>& slipping,
                                          const Vector& rhs, SparseStepProgress& progress, const WorkGate& gate,
                                          bool trust_met_rows) {
  std::optional<Vector> solved = schur_multipliers(mass, a, b, tangents, slipping, rhs, progress, gate);
  if (!solved) solved = least_squares_multipliers(mass, a, b, rhs, trust_met_rows, progress, gate);
  return solved;
}

double delassus_flops(double n, double m, bool gated) {
  // A Delassus factorisation of m rows on n coordinates: its analysis and solves (work_budget.hpp's sparse
  // impact solve) and, without a gate, the search of the rows beyond n, d = max(m − n, 0) + 1 of them, each
  // a few solves of the leading block (about 60m) and a column of the null basis with its Gram matrix
  // (2d(m − n) in all).
  const double solves = kSymbolicAnalysisFlopsPerRow * m + 3 * (4000 + 2 * n * m + 400 * (n + m));
  if (gated) return solves;
  const double doubtful = std::max(m - n, 0.0) + 1.0;
  return solves + doubtful * 60 * m + 2 * doubtful * doubtful * std::max(m - n, 0.0);
}

double oblique_multipliers_flops(double n, double m, double slipping, bool gated) {
  // With a gate, only what it cannot stop: the factorisations' analyses and solves, the pseudo-solve of r′
  // and the products over the slipping rows, and G's factorisation's solves.
  if (gated) {
    const double least_squares = kSymbolicAnalysisFlopsPerRow * m + least_squares_solve_flops(m);
    return 2 * delassus_flops(n, m, true) + 4000 + 60 * m + 2 * slipping * m + least_squares;
  }
  // The Schur complement first: the factorisations of A and B, a pseudo-solve per slipping row and one more
  // (two solves and two projections each: about 4000 + 60m, and the null basis's 4dm), the dense system
  // over the rows (LU, (2/3)s³) and its products (2sm).
  const double doubtful = std::max(m - n, 0.0) + 1.0;
  const double pseudo_solve = 4000 + 60 * m + 4 * doubtful * m;
  const double schur = 2 * delassus_flops(n, m, false) + (slipping + 1) * pseudo_solve +
                       2.0 / 3.0 * slipping * slipping * slipping + 2 * slipping * m;
  // Then, should it not apply, G = A M⁻¹Bᵀ (m × m, about 20 entries a row) and the factorisation of G Gᵀ:
  // about four times K's entries, its dependent rows those of G (the rows beyond n and the slipping ones).
  const double g_doubtful = std::max(m - n, 0.0) + slipping + 1.0;
  const double least_squares = kSymbolicAnalysisFlopsPerRow * m + least_squares_solve_flops(m) + g_doubtful * 240 * m +
                               2 * g_doubtful * g_doubtful * g_doubtful + 800 * m;
  return schur + least_squares;
}

double oblique_multipliers_estimate(const Vector& mass, const SparseJacobian& a, const SparseJacobian& b,
                                    SparseStepProgress& progress) {
  // A's and B's factorisations as foretold from their patterns, each with its analysis when new.
  return progress.rows.unstoppable_estimate(a, mass) + progress.oblique.unstoppable_estimate(b, mass);
}

}  // namespace oblique::detail
