// The Delassus operator K = A W⁻¹ Aᵀ of a sparse constraint Jacobian A (m×n) and a diagonal positive
// metric W: the m×m Schur complement through which the smooth phases and the impacts of a simulation are
// solved without forming any n×n operator (sparse_dynamics.hpp). W is the inertia M in Oblique's
// absolute coordinates (diagonal: m, m, I per body), or the identity for Euclidean least squares.
//
// K is symmetric positive semi-definite, singular exactly when A is rank-deficient (redundant contacts, a
// flat rod on three points, repeated rows). It is factorised as P K Pᵀ = L D Lᵀ with a fill-reducing
// ordering P (approximate minimum degree, Eigen's AMDOrdering) by a sparse LDLᵀ that reveals the rank
// (rank_revealing_ldlt.hpp): a row whose distance from the span of the rows eliminated before it is at most
// `dependency_tolerance` times its own length (both in the W⁻¹ metric: the sine of its angle to that span),
// or at most the dense rule's threshold below (a row much shorter than the others), is dependent and left
// out. Small pivots are not trusted for that decision — a pivot of K carries the
// squared condition of A — the distance is measured from A itself. With B the kept rows, and Z spanning
// N(Aᵀ) = N(K) with one column e_d − c_d per dependent row d (the combination it equals):
//
//   solve(c)            the basic solution of K x = c (x_d = 0 on the dependent rows) for c ∈ range(A)
//   project_to_range(v) Π v, Π = AA⁺ the orthogonal projector of ℝᵐ onto range(A) = range(K) = Z⊥
//   pseudo_solve(c)     K⁺c = Π solve(Π c), the minimum-norm least-squares solution
//   least_squares(y)    W⁻¹ Aᵀ K⁺ y: the δ of least W-norm among the minimisers of ‖Aδ − y‖ (W = I: A⁺y)
//
// Every quantity the paper writes with A⁺ follows exactly (to round-off) whatever the rank, because
// Aᵀ x is the same for every solution x of K x = c, and Π x is the minimum-norm one. Π costs nothing when
// A has full row rank; otherwise a solve with the Gram matrix ZᵀZ, sparse like Z (a dependency involves a
// few rows), factorised with K (Eigen's SimplicialLLT).
//
// The symbolic work — the pattern of K, the ordering, the elimination tree, and the plan that sums
// A_ic A_jc / w_c into each entry of K — depends only on the pattern of A and is redone only when that
// pattern changes (analyses() counts it), so a simulation pays it once per change of the active set.
//
// Rank decisions: the simulator's dense path (ScaledProjection, scaled_projection.hpp) factorises the
// mass-scaled Ã = A W^(−1/2) on the t columns A touches by a QR of Ãᵀ with column pivoting and keeps the
// pivots above max(m, t)·ε·|R₀₀| (`dense_rank_threshold`): |R_kk| is the distance of a row of Ã from the
// span of the rows pivoted before it, |R₀₀| the longest row. Here a row within an angle of 1e-10 rad (the
// default tolerance) of the span of the others is dependent. Both agree on exact dependencies, which
// floating point leaves a few ε·cond(A) away from the span; they can differ for rows between about
// max(m, t)·ε and 1e-10 rad from being redundant (boxes resting face to face), where keeping the row or not
// changes a velocity by O(1). The distances measured for dropped rows (`largest_dropped_distance`) and the
// smallest pivot ratio (`smallest_pivot_ratio`) tell when that can be the case; the simulator then solves
// with the dense path (sparse_path.hpp). No threshold can make the two decide alike everywhere: a computed
// distance carries round-off of order ε·Σ|c_j|·|row j| from the combination it is measured through, which
// for random systems of more rows than columns exceeds max(m, t)·ε.
//
// Determinism: every sum is taken in an order fixed by the pattern of A (no threads, no unordered
// containers), so native and wasm builds give the same bits.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>

#include "oblique/math/projection.hpp"
#include "oblique/math/work_gate.hpp"
#include "oblique/sparse/sparse_rows.hpp"

namespace oblique {

namespace detail {
class RankRevealingLdlt;
}

/// The flops charged for the symbolic analysis of a new pattern of A, per row (AMD ordering, elimination
/// tree, the plan of K's products; measured at 0.2–1.1 times this, natively).
inline constexpr double kSymbolicAnalysisFlopsPerRow = 2000.0;

/// The factorised Delassus operator of one (A, W); see the header comment.
class DelassusFactorization {
 public:
  /// Sine of the angle to the span of the other rows below which a row is dependent (header comment).
  static constexpr double kDefaultDependencyTolerance = 1e-10;

  /// `refinement_steps` rounds of iterative refinement follow every solve (the residual from A and W, not
  /// from the factor), which brings the accuracy of K's squared condition back to that of A's.
  explicit DelassusFactorization(double dependency_tolerance = kDefaultDependencyTolerance, int refinement_steps = 1);
  ~DelassusFactorization();
  DelassusFactorization(DelassusFactorization&&) noexcept;
  DelassusFactorization& operator=(DelassusFactorization&&) noexcept;

  /// Factorises K = A W⁻¹ Aᵀ with W = diag(`weights`). Throws std::invalid_argument naming "M" (weights
  /// empty, not finite or not positive) or "A" (a column count other than the size of W, a non-finite
  /// entry). The symbolic analysis is reused when A has the pattern of the previous call.
  void factorize(const SparseJacobian& jacobian, const Vector& weights);
  /// The same, giving exactly (bit for bit) what a newly constructed DelassusFactorization gives for
  /// (A, W): only the symbolic analysis of A's pattern — a pure function of the pattern, kept while the
  /// pattern holds — is reused; the dependencies remembered from earlier calls and a weak-basis re-ordering
  /// are not. For callers whose results must depend on their inputs alone (the simulator: a restored state,
  /// a step taken again after the work budget stopped a call). When the last call was this one and A and W
  /// are bit for bit the same as then, the factorisation it left is kept as it is (it is that result).
  ///
  /// With a `gate`, a rank-deficient A's factorisation asks it before each doubtful row's search for its
  /// nearest combination and before the null basis, the pieces that make it long (a touching grid of disks:
  /// hundreds of dependent rows). A gate that throws leaves the factorisation in progress, its exception
  /// passed on; the next factorize_as_new of the same (A, W), bit for bit, goes on from where it stopped and
  /// gives the bits of an uninterrupted one. Any other factorisation or estimate of other inputs drops it.
  /// Nothing may be solved with a factorisation in progress.
  void factorize_as_new(const SparseJacobian& jacobian, const Vector& weights, const WorkGate& gate = {});

  /// The flops a factorize_as_new of (A, W) is expected to spend, known before it runs: the analysis of A's
  /// pattern is made (or taken back) here, so that the factor's column counts c_k are known; then
  ///   2 Σ c_k² + 4 nnz(L)                          the factorisation and its pivots
  ///   + d (6 nnz(L) + 14 m + 4 nnz(A))            a doubtful pivot's nearest combination (three solves of
  ///                                                the leading block) and its distances from A, for d rows
  ///   + 2 d² (m − r)                               the null basis, its Gram matrix and Cholesky factor
  /// with d = max(m − t, 0) + 1 the rows expected doubtful (t the columns A touches: so many at least are
  /// dependent), r = min(m, t). The same inputs as the last factorize_as_new: 0 (it is kept). With `gated`,
  /// only what a gate cannot stop (the first line: its searches and null basis are told to the gate as they
  /// come). For a factorisation of these inputs in progress, gated or not, what is left of the first line
  /// (its remaining pieces go to its gate; the estimate leaves the progress as it is). Throws as factorize
  /// does.
  double factorization_estimate(const SparseJacobian& jacobian, const Vector& weights, bool gated = false);
  /// What of a gated factorize_as_new of (A, W) no gate can stop, to be charged before it runs:
  /// factorization_estimate(A, W, true) and, when A's pattern is not among those kept (analysed here), the
  /// symbolic analysis, kSymbolicAnalysisFlopsPerRow · m.
  double unstoppable_estimate(const SparseJacobian& jacobian, const Vector& weights);
  /// Flops the last factorisation spent, counted as it ran (each multiply-add two): what
  /// factorization_estimate foretells, to be checked against it.
  double operations() const { return operations_; }

  int rows() const { return static_cast<int>(jacobian_.rows()); }  ///< m
  int cols() const { return static_cast<int>(weights_.size()); }    ///< n
  int rank() const { return rank_; }                                 ///< r = rank A
  const SparseJacobian& jacobian() const { return jacobian_; }       ///< A
  const Vector& weights() const { return weights_; }                 ///< diag(W)
  const Vector& inverse_weights() const { return inverse_weights_; }  ///< diag(W⁻¹), each 1/w_c
  /// Symbolic analyses done since construction (one per change of A's pattern, but none for a pattern among
  /// the last few analysed, whose analysis is kept).
  long analyses() const { return analyses_; }
  /// Rows of A (in A's order) found dependent on the others; empty when A has full row rank.
  std::vector<int> dependent_rows() const;
  /// The smallest d_k/K_kk of a kept row (1 when none): the squared sine of the angle between a kept row
  /// and the span of the kept rows eliminated before it. Its inverse bounds the condition of K on its
  /// range from below; a solve loses about log₁₀ of it in digits (one refinement step wins back half).
  double smallest_pivot_ratio() const;
  /// max(m, t)·ε times the longest row of A (W⁻¹ metric; t the columns A touches): the distance below which
  /// the dense path's QR takes a row as dependent (header comment). Rows closer than this are dropped here
  /// too.
  double dense_rank_threshold() const { return rank_floor_; }
  /// The largest distance from the span of the rows eliminated before it measured for a dropped row (W⁻¹
  /// metric; 0 when A has full row rank or only zero rows were dropped).
  double largest_dropped_distance() const;

  /// Basic solution of K x = c, zero on the dependent rows; `c` must lie in range(A) (as A v does).
  Vector solve(const Vector& c) const;
  /// Π v: the orthogonal projection of v ∈ ℝᵐ onto range(A).
  Vector project_to_range(const Vector& v) const;
  /// K⁺ c, for any c ∈ ℝᵐ.
  Vector pseudo_solve(const Vector& c) const;
  /// W⁻¹ Aᵀ K⁺ y: the least-W-norm minimiser of ‖A δ − y‖ (A⁺y when W = I).
  Vector least_squares(const Vector& y) const;

  Vector multiply(const Vector& x) const;             ///< K x = A W⁻¹ Aᵀ x
  Vector apply_jacobian(const Vector& v) const;       ///< A v
  Vector apply_transpose(const Vector& x) const;      ///< Aᵀ x
  /// A basis Z (m×(m−r), sparse) of N(Aᵀ): column j is e_d − c_d for the j-th dependent row d, where c_d
  /// holds the coefficients of the combination of the rows eliminated before d that equals row d (entries
  /// below 1e-15 of its largest left out).
  const Eigen::SparseMatrix<double>& null_basis() const { return null_basis_; }

 private:
  void check_inputs(const SparseJacobian& jacobian, const Vector& weights) const;
  double rank_floor() const;
  bool same_pattern(const SparseJacobian& jacobian) const;
  // Whether A and W are bit for bit those of the current factorisation.
  bool same_inputs(const SparseJacobian& jacobian, const Vector& weights) const;
  // Checks and stores (A, W); true when A has the pattern of the analysis already made.
  bool load(const SparseJacobian& jacobian, const Vector& weights);
  void analyze();
  void factorize_numeric(const WorkGate& gate);
  void abandon_progress();
  void set_order(const std::vector<int>& order);
  // One factorisation of K in the current order: its entries, then its factor (which may stop before a
  // search, to be finished by finish_pass again).
  void begin_pass();
  void finish_pass(const std::function<void()>& before_search);
  double search_estimate() const;
  double null_basis_estimate() const;
  void assemble_values();
  void solve_once(const Vector& c, Vector& x) const;
  double distance_from_combination(int k, const std::vector<std::pair<int, double>>& coefficients, double* product);
  void build_null_basis();

  /// One product A_ic A_jc / w_c summed into the stored entry `slot` of K.
  struct PlanEntry {
    int slot, first, second, col;
  };

  double dependency_tolerance_;
  double operations_ = 0.0;  // operations()
  double rank_floor_ = 0.0;  // dense_rank_threshold()
  int refinement_steps_;
  SparseJacobian jacobian_;
  Vector weights_, inverse_weights_;
  int rank_ = 0;
  long analyses_ = 0;
  bool analyzed_ = false;
  bool reorder_tried_ = false;  // the weak-basis re-ordering of this pattern (delassus.cpp)
  bool as_new_ = false;         // the factorisation is what a new one gives for (jacobian_, weights_)
  bool estimated_ = false;      // (jacobian_, weights_) loaded and analysed by factorization_estimate, since
                                // untouched
  // Where a factorisation stands between calls (factorize_numeric): idle (done, or none), in a pass of the
  // factor (the fill order; the weak rows last; the fill order again), or before its null basis.
  enum class Phase { Idle, FillOrder, WeakRowsLast, FillOrderAgain, NullBasis };
  Phase phase_ = Phase::Idle;
  std::vector<int> previous_order_;  // the weak-rows-last pass: the order and smallest ratio it competes with
  double previous_ratio_ = 0.0;
  // The analysis: the pattern it was made for, the ordering (new index of each row and back), the plan
  // and the values of the permuted upper triangle of K, and the factor.
  std::vector<int> pattern_start_, pattern_index_;
  std::vector<int> column_start_, column_row_, column_position_;  // A by columns: rows, positions in A
  std::vector<int> coupled_start_, coupled_row_;                   // the symmetric pattern of K
  std::vector<int> new_of_old_, old_of_new_;
  std::vector<int> fill_order_;  // the ordering analyze() chose for the pattern (before any re-ordering)
  std::vector<PlanEntry> plan_;
  std::vector<double> upper_values_;
  std::vector<PlanEntry> plan_work_;  // set_order's workspaces: the plan as listed, counts or fills, and
  std::vector<int> fill_work_, slot_work_;  // the slot of each row in a column of the triangle
  // Orders of the current pattern set_order has planned (the fill order first), with their plans.
  struct OrderedPlan {
    std::vector<int> old_of_new, new_of_old, upper_start, upper_row;
    std::vector<PlanEntry> plan;
  };
  static constexpr std::size_t kRememberedOrders = 2;
  std::vector<OrderedPlan> ordered_plans_;
  // Analyses of earlier patterns, the most recent first (the passive sets of the non-negative split come
  // back at every step of a resting pile): everything analyze() computes, a pure function of the pattern.
  struct PatternAnalysis {
    std::vector<int> pattern_start, pattern_index, column_start, column_row, column_position, coupled_start,
        coupled_row, fill_order;
    std::vector<OrderedPlan> ordered_plans;
  };
  static constexpr std::size_t kRememberedPatterns = 6;
  std::vector<PatternAnalysis> earlier_patterns_;
  void keep_analysis();
  bool recall_analysis();
  std::unique_ptr<detail::RankRevealingLdlt> factor_;
  // The null basis of a rank-deficient A and the Cholesky factor of its Gram matrix; workspaces.
  Eigen::SparseMatrix<double> null_basis_;
  std::vector<int> null_order_;                       // its columns in order, and one column, as it is written
  std::vector<std::pair<int, double>> null_column_;
  std::unique_ptr<Eigen::SimplicialLLT<Eigen::SparseMatrix<double>>> gram_;  // (not movable itself)
  std::vector<int> gram_start_, gram_index_;  // the pattern its analysis was made for
  Vector distance_work_;                      // zero between uses
  std::vector<int> touched_;                  // the columns a distance touched, and their marks
  std::vector<char> touched_mark_;
  std::vector<char> row_mark_;                // the rows of A that share a column with a distance's r
  mutable std::vector<char> column_seen_;     // the columns A touches (rank_floor, factorization_estimate)
  mutable Vector work_;
  // solve()'s refinement: K x into `out` (multiply's products), and its workspaces.
  void multiply_into(const Vector& x, Vector& out) const;
  mutable Vector transposed_, residual_, correction_;
};

namespace detail {

/// A DelassusFactorization kept as a workspace inside an object that may be copied (the simulator): used
/// only through factorize_as_new, it holds nothing but the analysis of a pattern, so a copy starts without
/// one and an assignment keeps its own.
class DelassusWorkspace {
 public:
  DelassusWorkspace() = default;
  DelassusWorkspace(const DelassusWorkspace&) {}
  DelassusWorkspace& operator=(const DelassusWorkspace&) { return *this; }
  DelassusWorkspace(DelassusWorkspace&&) noexcept = default;
  DelassusWorkspace& operator=(DelassusWorkspace&&) noexcept = default;
  DelassusFactorization& get() { return factorization_; }

 private:
  DelassusFactorization factorization_;
};

}  // namespace detail

}  // namespace oblique
