// A sparse LDLᵀ factorisation of a symmetric positive semi-definite matrix K = B Bᵀ that reveals its rank
// by leaving out the rows that depend on the rows before them: the factor behind DelassusFactorization
// (delassus.hpp). Internal.
//
// The algorithm is the up-looking one of T. A. Davis's LDL package (also that of Eigen's SimplicialLDLT):
// the pattern of row k of L is the reach of the pattern of column k of the upper triangle in the
// elimination tree, and its values come from one sparse triangular solve. What Eigen's SimplicialLDLT
// does not do, and this does, is rank deficiency. Eigen stops at an exactly zero pivot and divides by a
// round-off one, which turns the rest of the factor into noise; and a pivot of K cannot tell a round-off
// one from a small true one, because it carries the squared condition of B: the pivot of a dependent row
// is noise of order ε·K_kk/(the smallest relative pivot before it), which random test systems push to
// 1e-10 while their smallest true pivots are 1e-7.
//
// So a pivot is trusted only when it is large: d_k ≥ max(1e-6, 1000 ε / ρ_min)·K_kk, with ρ_min the
// smallest relative pivot kept so far. A smaller one is decided by the row's distance from the span of
// the rows before it, computed the accurate way: the coefficients c of the nearest combination solve the
// leading block K_<k c = K_<k,k (the factor so far, then corrected up to twice by the semi-normal equations
// with the residual formed from B, unless the distance is already decisively small and the rows before k
// well-conditioned), and the caller measures |b_k − Σ c_j b_j|² from B itself, not from K (the
// `Distance` callback). A row at most max(`tolerance` times its own length, `floor`) from that span is
// dependent: d_k = 0, column k of L stays empty — the factor is exactly the
// LDLᵀ of K with row and column k removed — and c is kept as the dependency (a null vector of K).
// Otherwise the accurate squared distance is its pivot. The combination a row was found to equal is tried
// first in the next factorisation of the same pattern: in a smooth phase the same rows stay redundant.
//
// Determinism: plain loops in a fixed order, no threads, no unordered containers.
#pragma once

#include <functional>
#include <vector>

namespace oblique::detail {

class RankRevealingLdlt {
 public:
  /// Coefficients c_j of a combination of rows, as (j, c_j) in elimination order.
  using Combination = std::vector<std::pair<int, double>>;
  /// Row k (in elimination order) found dependent: b_k = Σ_j c_j b_j over rows j < k kept before it (the
  /// coefficients below 1e-15 of the largest left out: round-off of a solve where the exact c is sparse).
  struct Dependency {
    int row = 0;
    Combination coefficients;
  };
  /// The squared length |r|² of r = b_k − Σ_j c_j b_j for a row k and coefficients c; when `product` is not
  /// null, also writes B r there (the inner products b_j·r for j < k).
  using Distance = std::function<double(int k, const Combination& c, double* product)>;

  /// Symbolic analysis of an n×n pattern given as the upper triangle in compressed columns: column k holds
  /// rows i ≤ k (sorted, the diagonal included), `column_start` has n + 1 entries.
  void analyze(int n, const std::vector<int>& column_start, const std::vector<int>& row_index);

  /// Numeric factorisation of the matrix with that pattern and `values` (aligned with row_index). A row
  /// whose distance from the span of the rows before it is at most max(`tolerance` × its length (a sine),
  /// `floor` (a length)) is left out. Returns the rank.
  ///
  /// `before_search`, when given, is called before each row's search for its nearest combination (the
  /// costly part of a rank-deficient factorisation). It may throw to stop the factorisation there: it then
  /// stays in_progress(), and the next factorize — which must be given the same values, tolerance and floor
  /// — goes on from that search, with the bits an uninterrupted factorisation gives.
  int factorize(const std::vector<double>& values, double tolerance, double floor, const Distance& distance,
                const std::function<void()>& before_search = {});
  /// Whether the last factorize was stopped by its before_search and waits to be taken up again.
  bool in_progress() const { return progress_.started; }
  /// The row the factorisation in progress stopped at (0 when none is).
  int row_in_progress() const { return progress_.row; }
  /// Drops a factorisation in progress: the next factorize starts anew.
  void abandon();
  /// Forgets the combinations remembered from earlier factorisations, so that the next one is that of a
  /// fresh analysis of the same pattern.
  void forget_dependencies();

  /// x ← L⁻ᵀ D⁺ L⁻¹ x, D⁺ inverting the kept pivots and zero on the dropped ones.
  void solve_in_place(double* x) const;

  int size() const { return n_; }
  /// Entries of L the analysis allows for (the factor's size), and the flops of a factorisation without a
  /// doubtful pivot, 2 Σ_k c_k² over the column counts c_k of L (over k ≥ `from`): both known once
  /// analysed.
  long long factor_entries() const { return n_ > 0 ? column_start_[static_cast<std::size_t>(n_)] : 0; }
  double factor_flops(int from = 0) const;
  /// Flops the last factorize spent (each multiply-add two), its solves for doubtful pivots included, and
  /// the rows whose nearest combination it looked for.
  double operations() const { return operations_; }
  int doubtful_rows() const { return doubtful_rows_; }
  bool dropped(int k) const { return dropped_[static_cast<std::size_t>(k)] != 0; }
  /// d_k/K_kk of a kept row k (0 for a dropped one), and the smallest over the kept rows (1 if none).
  double ratio(int k) const { return ratio_[static_cast<std::size_t>(k)]; }
  double smallest_ratio() const { return smallest_ratio_; }
  /// The largest distance from the span of the rows before it measured for a dropped row (0 if none).
  double largest_dropped_distance() const { return largest_dropped_; }
  /// The dependent rows of the last factorisation, in elimination order.
  const std::vector<Dependency>& dependencies() const { return dependencies_; }

 private:
  /// x ← the basic solution of K_<k x = x on the leading block of rows 0..k−1 (x from k on is ignored and
  /// left zero).
  void solve_leading(int k, double* x) const;
  /// The coefficients c of the combination of the rows before k nearest to row k, and its squared distance
  /// (the corrections stop once it is at most `decisive`).
  double nearest_combination(int k, const std::vector<double>& values, const Distance& distance, double decisive,
                             Combination& c);

  // Where a factorisation stopped by before_search stands: the next row, whether its search is what is
  // left of it (row k of L made, its diagonal and pivot kept), and what the rows before it gave.
  struct Progress {
    bool started = false;
    int row = 0;
    bool search_pending = false;
    double diagonal = 0.0, pivot = 0.0;
    double smallest_ratio = 1.0;   // the smallest d_k/K_kk kept so far
    double largest_dropped = 0.0;  // the largest squared distance of a dropped row
    int rank = 0;
  };

  int n_ = 0;
  Progress progress_;
  mutable double operations_ = 0.0;  // the flops of the last factorize (the solves it made count in)
  int doubtful_rows_ = 0;
  // The pattern of the upper triangle.
  std::vector<int> upper_start_, upper_row_;
  // Elimination tree and the columns of L (row indices and values, column_count_ used per column).
  std::vector<int> parent_, column_start_, column_count_, l_row_;
  std::vector<double> l_value_, pivot_, ratio_;
  double smallest_ratio_ = 1.0;
  double largest_dropped_ = 0.0;
  std::vector<char> dropped_;
  std::vector<Dependency> dependencies_;
  // The combination each row was found to equal in the previous factorisation (same analysis), tried
  // first: a dependency that holds whatever the configuration (two rod ends at one pin) is found again at
  // the cost of one distance.
  std::vector<Combination> previous_;
  std::vector<char> has_previous_;
  // Workspaces of the factorisation: no allocation per row once a pattern's dependencies were met (the
  // combinations of the last factorisation's dependencies are kept as spare storage for the next one's).
  std::vector<double> work_, residual_, dense_combination_;
  std::vector<int> pattern_, flag_;
  Combination row_combination_, candidate_combination_;
  std::vector<Combination> spare_;
};

}  // namespace oblique::detail
