// Whether a generalized constraint force (or impulse) can be carried by the constraint rows without any
// unilateral row pulling: min ‖Aᵀλ − f‖ subject to λ_i ≥ 0 on the unilateral rows, the other rows free
// (Lawson–Hanson non-negative least squares, with free variables kept in the passive set).
//
// The paper's multipliers λ = A⁺ᵀf are the minimum-norm split of f. With redundant contacts (A rank
// deficient: a row of touching disks between two walls, a box corner on two planes) that split can show a
// negative entry although another split, equally valid, has none: a contact must only be released when
// no split is free of pulling. Internal to the simulator.
//
// Each step solves least squares on the passive rows P, for the minimum-norm z_P of A_Pᵀz_P ≈ f: densely, by
// a complete orthogonal decomposition of the n×|P| block of Aᵀ; or, for the large sparse systems of the
// simulator's sparse path, through the Delassus factorisation of the passive rows with W = I (delassus.hpp),
// z_P = (A_P A_Pᵀ)⁺ A_P f, the same solution at the cost of a sparse LDLᵀ instead of a dense QR (a pile of
// 30 bodies at rest: 90 coordinates, about 96 rows). Where that factorisation is not accurate
// (sparse_solve_accurate, sparse_path.hpp: rows nearly but not exactly dependent) the dense one is used.
#pragma once

#include <algorithm>
#include <cmath>
#include <functional>
#include <set>
#include <vector>

#include <Eigen/QR>

#include "oblique/sparse/delassus.hpp"
#include "oblique/math/projection.hpp"
#include "oblique/sparse/sparse_path.hpp"
#include "oblique/simulation/work_budget.hpp"
#include "math/thread_local_storage.hpp"

namespace oblique::detail {

/// The sparse solves' factorisations, kept by the caller between calls so that their symbolic analyses
/// (a function of the pattern alone, delassus.hpp) are reused: one for the first solve, on every row (its
/// pattern is A's), one for the passive sets after it (at rest, the same from one call to the next).
struct SparseSplitWorkspace {
  DelassusFactorization* all_rows;
  DelassusFactorization* passive_rows;
  const SparseJacobian* jacobian = nullptr;  ///< A in compressed rows when the caller has it (else made here)
  /// Asked before each piece of a factorisation (its dependent rows' searches, its null basis) and before
  /// a dense solve that replaces a factorisation not accurate; it may throw to stop the split there, and
  /// the factorisation, kept in progress, goes on when the split runs again with the same passive rows
  /// (delassus.hpp).
  WorkGate gate = {};
};

/// The size n·m of A from which the simulator gives the split compressed rows only (nonnegative_split of a
/// SparseJacobian): there a dense A costs more to make, hash and multiply at each split than the split's
/// sparse factorisations (a wall of 256 touching boxes: 768 coordinates, 500 rows); below, the dense A's
/// products, whose bits the smaller scenes' runs keep.
inline constexpr double kDenseSplitEntries = 1e5;

/// What one split did (for tests and profiles).
struct SplitStats {
  int passive_solves = 0;      ///< least-squares solves on a passive set made here (not recalled)
  bool cycle_stopped = false;  ///< the outer loop met a passive set again and stopped (below)
};

/// The caller's memory of a split's passive solves, so that a split stopped between two of them (the
/// simulator's work budget throws from `recall`) can run again from its start and take the solves made
/// before from memory: the split is a function of its inputs, so its k-th passive solve has the same
/// passive set and result each time, and with the same results the split goes the same way, bit for bit.
struct PassiveSolveMemory {
  /// Before passive solve `index` (0, 1, … in the split's order) on `passive` rows: writes z and returns
  /// true when that solve is remembered; otherwise returns false, and may throw to stop the split before it.
  std::function<bool(int index, int passive, Vector& z)> recall;
  /// After passive solve `index` was made, `dense` when by a COD.
  std::function<void(int index, const Vector& z, bool dense)> keep;
};

namespace split {

/// A's rows as the split reads them: Aᵀλ, A r and ‖A‖, and the n×|P| block of Aᵀ for a dense solve. Given a
/// dense A, through its dense transpose (Eigen's dense products, whose bits every small scene's run keeps);
/// given compressed rows, through them alone, so that a large system's split costs its entries, not m·n.
class SplitRows {
 public:
  explicit SplitRows(const Matrix& a) : transposed_(a.transpose()), rows_(static_cast<int>(a.rows())),
                                        cols_(static_cast<int>(a.cols())) {}
  explicit SplitRows(const SparseJacobian& a) : sparse_(&a), rows_(static_cast<int>(a.rows())),
                                                cols_(static_cast<int>(a.cols())) {}
  int rows() const { return rows_; }
  int cols() const { return cols_; }
  /// Aᵀλ (n).
  Vector combine(const Vector& lambda) const {
    if (sparse_) return sparse_->transpose() * lambda;
    return transposed_ * lambda;
  }
  /// A r (m).
  Vector apply(const Vector& r) const {
    if (sparse_) return *sparse_ * r;
    return transposed_.transpose() * r;
  }
  double norm() const { return sparse_ ? sparse_->norm() : transposed_.norm(); }
  /// The columns `columns` of Aᵀ, dense (n × |columns|).
  Matrix block(const std::vector<int>& columns) const {
    Matrix out(cols_, static_cast<Eigen::Index>(columns.size()));
    if (sparse_) {
      out.setZero();
      for (std::size_t j = 0; j < columns.size(); ++j) {
        for (SparseJacobian::InnerIterator entry(*sparse_, columns[j]); entry; ++entry) {
          out(entry.col(), static_cast<Eigen::Index>(j)) = entry.value();
        }
      }
      return out;
    }
    for (std::size_t j = 0; j < columns.size(); ++j) out.col(static_cast<Eigen::Index>(j)) = transposed_.col(columns[j]);
    return out;
  }

 private:
  Matrix transposed_;                      ///< Aᵀ (n × m), when A came dense
  const SparseJacobian* sparse_ = nullptr;  ///< A, when it came compressed
  int rows_ = 0;
  int cols_ = 0;
};

/// nonnegative_split (below) on A as SplitRows; `dense_a` when A came dense (for its compressed copy).
inline bool nonnegative_split(const SplitRows& a, const Matrix* dense_a, const Vector& f,
                              const std::vector<bool>& unilateral, double tolerance, Vector& lambda,
                              const SparseSplitWorkspace* sparse, SplitStats* stats, const PassiveSolveMemory* memory) {
  const int m = a.rows();
  const SparseJacobian converted = sparse && !sparse->jacobian ? to_sparse(*dense_a) : SparseJacobian();
  const SparseJacobian& sparse_a = sparse && sparse->jacobian ? *sparse->jacobian : converted;
  const Vector unit_weights = Vector::Ones(a.cols());
  // Scratch kept from call to call (a split runs to its end before the next starts on its thread): the
  // passive rows as compressed rows, and the list of the passive rows.
  static OBLIQUE_THREAD_LOCAL SparseRowsBuilder passive_rows;
  static OBLIQUE_THREAD_LOCAL std::vector<int> passive_columns;
  bool first_solve = true;
  int solve_index = 0;  // passive solves so far, made or recalled
  lambda = Vector::Zero(m);
  std::vector<char> passive(static_cast<std::size_t>(m), 0);
  std::vector<char> excluded(static_cast<std::size_t>(m), 0);  // dependent columns that cannot enter

  // Sparse: (A_P A_Pᵀ)⁺ A_P f from the Delassus factorisation of the passive rows; false when not accurate.
  auto solve_sparse = [&](const std::vector<int>& columns, Vector& z) {
    if (!sparse) return false;
    DelassusFactorization& delassus = first_solve ? *sparse->all_rows : *sparse->passive_rows;
    first_solve = false;
    // Every row passive: A itself (the rows copied one by one would be A again, entry for entry).
    if (columns.size() == static_cast<std::size_t>(m) && sparse_a.isCompressed()) {
      delassus.factorize_as_new(sparse_a, unit_weights, sparse->gate);
    } else {
      passive_rows.start(static_cast<int>(a.cols()));
      for (int row : columns) {
        passive_rows.new_row();
        for (SparseJacobian::InnerIterator entry(sparse_a, row); entry; ++entry) {
          passive_rows.add(static_cast<int>(entry.col()), entry.value());
        }
      }
      delassus.factorize_as_new(passive_rows.finish(), unit_weights, sparse->gate);
    }
    if (!sparse_solve_accurate(delassus)) return false;
    const Vector x = delassus.pseudo_solve(delassus.apply_jacobian(f));
    for (std::size_t j = 0; j < columns.size(); ++j) z(columns[j]) = x(static_cast<Eigen::Index>(j));
    return true;
  };
  // Dense: a complete orthogonal decomposition of the passive columns of Aᵀ.
  auto solve_dense = [&](const std::vector<int>& columns, Vector& z) {
    const Matrix sub = a.block(columns);
    const Vector x = Eigen::CompleteOrthogonalDecomposition<Matrix>(sub).solve(f);
    for (std::size_t j = 0; j < columns.size(); ++j) z(columns[j]) = x(static_cast<Eigen::Index>(j));
  };
  // Least squares on the passive columns (minimum norm), the others held at zero.
  auto solve_passive = [&](Vector& z) {
    std::vector<int>& columns = passive_columns;
    columns.clear();
    for (int i = 0; i < m; ++i) {
      if (passive[static_cast<std::size_t>(i)]) columns.push_back(i);
    }
    z = Vector::Zero(m);
    if (columns.empty()) return;
    // Made before the split was stopped: the same z.
    const int index = solve_index++;
    if (memory && memory->recall(index, static_cast<int>(columns.size()), z)) {
      first_solve = false;
      return;
    }
    if (stats) ++stats->passive_solves;
    const bool dense = !solve_sparse(columns, z);
    if (dense) {
      // A COD of the passive block instead, told to the gate before it runs (taken up, the split finds the
      // factorisation as it left it and comes straight back here).
      if (sparse && sparse->gate) {
        sparse->gate(work::passive_solve(static_cast<double>(a.cols()), static_cast<double>(columns.size())));
      }
      solve_dense(columns, z);
    }
    if (memory) memory->keep(index, z, dense);
  };

  Vector z;
  // Warm start: the unilateral columns where the minimum-norm split is positive join the free ones, and
  // those whose least-squares value is not positive leave again, until every value is: a feasible λ that
  // is the least-squares solution on its passive set, as the outer loop requires. Where the minimum-norm
  // split pulls on a few rows of a large system (a statically indeterminate pile) this starts next to the
  // answer; the cold start would bring the columns in one by one, a factorisation each.
  for (int i = 0; i < m; ++i) passive[static_cast<std::size_t>(i)] = 1;
  bool least_squares = false;  // λ is the least-squares solution on the passive set
  for (int shrink = 0; shrink <= m; ++shrink) {  // each pass but the last drops a column: at most m + 1
    solve_passive(z);
    bool feasible = true;
    for (int i = 0; i < m; ++i) {
      if (passive[static_cast<std::size_t>(i)] && unilateral[static_cast<std::size_t>(i)] && !(z(i) > 0.0)) {
        passive[static_cast<std::size_t>(i)] = 0;
        feasible = false;
      }
    }
    if (feasible) {
      lambda = z;
      least_squares = true;
      break;
    }
  }
  const double gradient_tolerance = 1e-12 * std::max(1.0, f.norm()) * std::max(1.0, a.norm());
  // The passive and excluded sets met at the top of the outer loop. There λ is the least-squares solution on
  // the passive set (the warm start's or an inner loop's, which ends with λ = z or leaves λ and the set as
  // they were), so the next entries are a function of the two sets: meeting them again is an exact cycle,
  // which round-off on nearly dependent rows can cause (a pile of 30 went round 66 → 69 → 66 passive rows to
  // the cap, 484 dense solves), and going on would only go round it again.
  std::set<std::vector<char>> met;
  for (int outer = 0; outer < 3 * m + 3; ++outer) {
    if (least_squares) {
      std::vector<char> sets(passive);
      sets.insert(sets.end(), excluded.begin(), excluded.end());
      if (!met.insert(std::move(sets)).second) {
        if (stats) stats->cycle_stopped = true;
        break;
      }
    }
    // The unilateral column at zero whose increase lowers the residual most.
    const Vector gradient = a.apply(f - a.combine(lambda));
    int entering = -1;
    double best = gradient_tolerance;
    for (int i = 0; i < m; ++i) {
      if (!passive[static_cast<std::size_t>(i)] && !excluded[static_cast<std::size_t>(i)] && gradient(i) > best) {
        best = gradient(i);
        entering = i;
      }
    }
    if (entering < 0) break;
    passive[static_cast<std::size_t>(entering)] = 1;
    // Inner loop: step toward the unconstrained solution until no unilateral entry is negative.
    for (int inner = 0; inner < m + 1; ++inner) {
      solve_passive(z);
      if (inner == 0 && !(z(entering) > 0.0)) {
        // A column dependent on the passive ones: it cannot lower the residual; never try it again.
        passive[static_cast<std::size_t>(entering)] = 0;
        excluded[static_cast<std::size_t>(entering)] = 1;
        break;
      }
      double step = 1.0;
      int blocking = -1;
      for (int i = 0; i < m; ++i) {
        if (!passive[static_cast<std::size_t>(i)] || !unilateral[static_cast<std::size_t>(i)] || z(i) > 0.0) continue;
        const double denominator = lambda(i) - z(i);
        const double ratio = denominator > 0.0 ? lambda(i) / denominator : 0.0;
        if (ratio < step) {
          step = ratio;
          blocking = i;
        }
      }
      if (blocking < 0) {
        lambda = z;
        least_squares = true;
        break;
      }
      least_squares = false;  // until the inner loop ends at a least-squares solution
      lambda += step * (z - lambda);
      for (int i = 0; i < m; ++i) {
        if (passive[static_cast<std::size_t>(i)] && unilateral[static_cast<std::size_t>(i)] && lambda(i) <= 0.0) {
          passive[static_cast<std::size_t>(i)] = 0;
          lambda(i) = 0.0;
        }
      }
    }
  }
  return (a.combine(lambda) - f).norm() <= tolerance;
}

}  // namespace split

/// Finds λ with Aᵀλ ≈ f and λ_i ≥ 0 where `unilateral[i]`. Returns true when the residual ‖Aᵀλ − f‖ is at
/// most `tolerance` (then `lambda` is such a split); false when every split has a unilateral row pulling.
/// A dense. With `sparse`, the passive least squares are solved through its Delassus factorisations (header
/// comment); with `memory`, each passive solve is first asked of it and then given to it (PassiveSolveMemory).
/// The outer loop stops at a passive set it has met before (an exact cycle, split::nonnegative_split) or after
/// 3m + 3 entries.
inline bool nonnegative_split(const Matrix& a, const Vector& f, const std::vector<bool>& unilateral,
                              double tolerance, Vector& lambda, const SparseSplitWorkspace* sparse = nullptr,
                              SplitStats* stats = nullptr, const PassiveSolveMemory* memory = nullptr) {
  return split::nonnegative_split(split::SplitRows(a), &a, f, unilateral, tolerance, lambda, sparse, stats, memory);
}

/// The same for A in compressed rows only (`sparse` required; its `jacobian` is `a`), never made dense but for
/// a passive solve the sparse factorisation cannot make accurately: for the large systems whose dense A
/// alone would cost more than the split's factorisations.
inline bool nonnegative_split(const SparseJacobian& a, const Vector& f, const std::vector<bool>& unilateral,
                              double tolerance, Vector& lambda, const SparseSplitWorkspace& sparse,
                              SplitStats* stats = nullptr, const PassiveSolveMemory* memory = nullptr) {
  SparseSplitWorkspace workspace = sparse;
  workspace.jacobian = &a;
  return split::nonnegative_split(split::SplitRows(a), nullptr, f, unilateral, tolerance, lambda, &workspace, stats,
                                  memory);
}

}  // namespace oblique::detail
