#include "oblique/sparse/delassus.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include <Eigen/OrderingMethods>
#include <Eigen/SparseCholesky>

#include "math/checks.hpp"
#include "math/rank_revealing_ldlt.hpp"
#include "math/same_bits.hpp"

namespace oblique {

using detail::fail;

// ---------------------------------------------------------------------------------------------------------
// DelassusFactorization
// ---------------------------------------------------------------------------------------------------------

DelassusFactorization::DelassusFactorization(double dependency_tolerance, int refinement_steps)
    : dependency_tolerance_(dependency_tolerance),
      refinement_steps_(refinement_steps),
      factor_(std::make_unique<detail::RankRevealingLdlt>()) {}

DelassusFactorization::~DelassusFactorization() = default;
DelassusFactorization::DelassusFactorization(DelassusFactorization&&) noexcept = default;
DelassusFactorization& DelassusFactorization::operator=(DelassusFactorization&&) noexcept = default;

void DelassusFactorization::check_inputs(const SparseJacobian& jacobian, const Vector& weights) const {
  if (weights.size() == 0) fail("M", "must be a non-empty diagonal");
  // Every weight finite and positive, every entry of A finite (the case of every evaluation): vectorised
  // tests, then only the column count; else the loops below name the first offending entry.
  const bool weights_valid = detail::all_finite(weights) && (weights.array() > 0.0).all();
  const bool entries_finite =
      jacobian.isCompressed() &&
      detail::all_finite(Eigen::Map<const Vector>(jacobian.valuePtr(), static_cast<Eigen::Index>(jacobian.nonZeros())));
  for (Eigen::Index i = 0; !weights_valid && i < weights.size(); ++i) {
    if (!std::isfinite(weights(i)) || !(weights(i) > 0.0)) {
      fail("M[" + std::to_string(i) + "][" + std::to_string(i) + "]",
           "must be a finite positive number (a diagonal inertia), got " + detail::format_number(weights(i)));
    }
  }
  if (jacobian.rows() > 0 && jacobian.cols() != weights.size()) {
    fail("A", "every row must have " + std::to_string(weights.size()) + " entries (the size of M), got " +
                  std::to_string(jacobian.cols()));
  }
  for (int i = 0; !entries_finite && i < jacobian.outerSize(); ++i) {
    for (SparseJacobian::InnerIterator it(jacobian, i); it; ++it) {
      if (!std::isfinite(it.value())) {
        fail("A[" + std::to_string(i) + "][" + std::to_string(it.col()) + "]", "must be a finite number");
      }
    }
  }
}

bool DelassusFactorization::same_pattern(const SparseJacobian& a) const {
  if (!analyzed_ || a.rows() + 1 != static_cast<Eigen::Index>(pattern_start_.size()) ||
      a.nonZeros() != static_cast<Eigen::Index>(pattern_index_.size()) || a.cols() != weights_.size()) {
    return false;
  }
  return std::equal(pattern_start_.begin(), pattern_start_.end(), a.outerIndexPtr()) &&
         std::equal(pattern_index_.begin(), pattern_index_.end(), a.innerIndexPtr());
}

bool DelassusFactorization::load(const SparseJacobian& jacobian, const Vector& weights) {
  estimated_ = false;
  check_inputs(jacobian, weights);
  // The analysis is kept when A has the pattern (and W the size) of the previous call.
  const bool same = jacobian.isCompressed() && same_pattern(jacobian) && weights.size() == weights_.size();
  jacobian_ = jacobian;
  if (jacobian_.rows() == 0) jacobian_.resize(0, weights.size());
  jacobian_.makeCompressed();
  weights_ = weights;
  inverse_weights_ = weights.cwiseInverse();
  return same;
}

bool DelassusFactorization::same_inputs(const SparseJacobian& jacobian, const Vector& weights) const {
  // No rows: nothing to keep (a matrix without rows need not have its row starts allocated).
  if (jacobian.rows() == 0 || !jacobian.isCompressed() || jacobian.rows() != jacobian_.rows() || jacobian.cols() != jacobian_.cols() ||
      jacobian.nonZeros() != jacobian_.nonZeros() || weights.size() != weights_.size()) {
    return false;
  }
  const std::size_t outer = static_cast<std::size_t>(jacobian.rows()) + 1;
  const std::size_t entries = static_cast<std::size_t>(jacobian.nonZeros());
  return detail::same_bits(jacobian.outerIndexPtr(), jacobian_.outerIndexPtr(), outer) &&
         detail::same_bits(jacobian.innerIndexPtr(), jacobian_.innerIndexPtr(), entries) &&
         detail::same_bits(jacobian.valuePtr(), jacobian_.valuePtr(), entries) &&
         detail::same_bits(weights.data(), weights_.data(), static_cast<std::size_t>(weights.size()));
}

void DelassusFactorization::factorize(const SparseJacobian& jacobian, const Vector& weights) {
  as_new_ = false;
  estimated_ = false;
  abandon_progress();
  if (!load(jacobian, weights)) analyze();
  factorize_numeric({});
}

void DelassusFactorization::abandon_progress() {
  phase_ = Phase::Idle;
  factor_->abandon();
}

void DelassusFactorization::factorize_as_new(const SparseJacobian& jacobian, const Vector& weights,
                                             const WorkGate& gate) {
  // The same inputs as the last factorisation made as new: it is the result already.
  if (as_new_ && same_inputs(jacobian, weights)) {
    operations_ = 0.0;
    return;
  }
  as_new_ = false;
  // A factorisation of these inputs stopped by its gate: taken up where it stopped.
  if (phase_ != Phase::Idle && same_inputs(jacobian, weights)) {
    estimated_ = false;
    factorize_numeric(gate);
    as_new_ = true;
    return;
  }
  abandon_progress();
  // Loaded, checked and analysed by the factorization_estimate of these inputs just before: as load()
  // would find them again (the pattern analysed).
  const bool loaded = estimated_ && same_inputs(jacobian, weights);
  estimated_ = false;
  if (!loaded && !load(jacobian, weights)) {
    analyze();
  } else {
    // The pattern's analysis as analyze() left it: its own ordering, nothing remembered.
    if (old_of_new_ != fill_order_) set_order(fill_order_);
    reorder_tried_ = false;
    factor_->forget_dependencies();
  }
  factorize_numeric(gate);
  as_new_ = true;
}

double DelassusFactorization::unstoppable_estimate(const SparseJacobian& jacobian, const Vector& weights) {
  const long analyses_before = analyses_;
  const double factorization = factorization_estimate(jacobian, weights, true);
  const double analysis = analyses_ != analyses_before ? kSymbolicAnalysisFlopsPerRow * static_cast<double>(rows()) : 0.0;
  return factorization + analysis;
}

double DelassusFactorization::factorization_estimate(const SparseJacobian& jacobian, const Vector& weights,
                                                     bool gated) {
  if (as_new_ && same_inputs(jacobian, weights)) return 0.0;
  // A factorisation of these inputs in progress: what it has left of its rows' own work (its pieces are
  // its gate's).
  if (phase_ != Phase::Idle && same_inputs(jacobian, weights)) {
    if (phase_ == Phase::NullBasis) return 0.0;
    const int from = factor_->in_progress() ? factor_->row_in_progress() : 0;
    return factor_->factor_flops(from) + 4.0 * static_cast<double>(factor_->factor_entries());
  }
  as_new_ = false;
  abandon_progress();
  if (!load(jacobian, weights)) analyze();
  estimated_ = true;
  if (gated) return factor_->factor_flops() + 4.0 * static_cast<double>(factor_->factor_entries());
  const double m = rows();
  double touched = 0.0;
  {
    std::vector<char>& seen = column_seen_;
    seen.assign(static_cast<std::size_t>(cols()), 0);
    for (int p = 0; p < jacobian_.nonZeros(); ++p) {
      const std::size_t c = static_cast<std::size_t>(jacobian_.innerIndexPtr()[p]);
      if (!seen[c] && jacobian_.valuePtr()[p] != 0.0) {
        seen[c] = 1;
        touched += 1.0;
      }
    }
  }
  const double entries = static_cast<double>(factor_->factor_entries());
  const double doubtful = std::max(m - touched, 0.0) + 1.0;
  const double rank = std::min(m, touched);
  return factor_->factor_flops() + 4.0 * entries +
         doubtful * (6.0 * entries + 14.0 * m + 4.0 * static_cast<double>(jacobian_.nonZeros())) +
         2.0 * doubtful * doubtful * (m - rank + 1.0);
}

void DelassusFactorization::factorize_numeric(const WorkGate& gate) {
  // A factorisation stopped by its gate goes on in the phase it stopped in; a new one starts with K's
  // entries (the distances of doubtful rows are measured from A).
  if (phase_ == Phase::Idle) {
    rank_floor_ = rank_floor();
    operations_ = 0.0;
    begin_pass();
    phase_ = Phase::FillOrder;
  }
  const std::function<void()> before_search = gate ? std::function<void()>([&] { gate(search_estimate()); })
                                                   : std::function<void()>();
  // K's factor in the fill order.
  if (phase_ == Phase::FillOrder) {
    finish_pass(before_search);
    // A rank-deficient A whose basis holds a row close to the span of the rows before it: the dependent
    // rows would be written through that ill-conditioned basis. Eliminate such rows last instead, so that
    // they become the dependent ones (tried once per pattern; kept only if the basis is better).
    const double weak = 1e-6;
    phase_ = Phase::NullBasis;
    if (rank_ < rows() && factor_->smallest_ratio() < weak && !reorder_tried_) {
      reorder_tried_ = true;
      previous_order_ = old_of_new_;
      previous_ratio_ = factor_->smallest_ratio();
      std::vector<int> order, last;
      for (int k = 0; k < rows(); ++k) {
        const bool weak_row = !factor_->dropped(k) && factor_->ratio(k) < weak;
        (weak_row ? last : order).push_back(old_of_new_[static_cast<std::size_t>(k)]);
      }
      order.insert(order.end(), last.begin(), last.end());
      set_order(order);
      begin_pass();
      phase_ = Phase::WeakRowsLast;
    }
  }
  // The weak rows last; back to the fill order when that is no better.
  if (phase_ == Phase::WeakRowsLast) {
    finish_pass(before_search);
    phase_ = Phase::NullBasis;
    if (!(factor_->smallest_ratio() > previous_ratio_)) {
      set_order(previous_order_);
      begin_pass();
      phase_ = Phase::FillOrderAgain;
    }
  }
  if (phase_ == Phase::FillOrderAgain) {
    finish_pass(before_search);
    phase_ = Phase::NullBasis;
  }
  // The null basis and its Gram matrix, a piece of its own when A is rank-deficient.
  if (gate && !factor_->dependencies().empty()) gate(null_basis_estimate());
  build_null_basis();
  phase_ = Phase::Idle;
}

double DelassusFactorization::search_estimate() const {
  // A doubtful pivot's nearest combination: three solves of the leading block and its distances from A.
  return 6.0 * static_cast<double>(factor_->factor_entries()) + 14.0 * rows() +
         4.0 * static_cast<double>(jacobian_.nonZeros());
}

double DelassusFactorization::null_basis_estimate() const {
  // Z written (four flops an entry), ZᵀZ (each entry of Z meets the entries of its row), and the Gram
  // matrix's Cholesky factor, dense at worst.
  const auto& dependencies = factor_->dependencies();
  if (dependencies.empty()) return 0.0;
  std::vector<double> per_row(static_cast<std::size_t>(rows()), 0.0);
  double entries = 0.0;
  for (const auto& dependency : dependencies) {
    per_row[static_cast<std::size_t>(old_of_new_[static_cast<std::size_t>(dependency.row)])] += 1.0;
    for (const auto& entry : dependency.coefficients) per_row[static_cast<std::size_t>(old_of_new_[static_cast<std::size_t>(entry.first)])] += 1.0;
    entries += static_cast<double>(dependency.coefficients.size()) + 1.0;
  }
  double product = 0.0;
  for (double count : per_row) product += 2.0 * count * count;
  const double d = static_cast<double>(dependencies.size());
  return 4.0 * entries + product + 2.0 / 3.0 * d * d * d;
}

double DelassusFactorization::rank_floor() const {
  // The dense rule (projection.cpp's pseudo_inverse on the mass-scaled A that ScaledProjection factorises):
  // max(m, t)·ε times the longest row, lengths in the W⁻¹ metric, t the columns some row touches.
  const int* columns = jacobian_.innerIndexPtr();
  const double* values = jacobian_.valuePtr();
  double longest2 = 0.0;
  std::vector<char>& touched = column_seen_;
  touched.assign(static_cast<std::size_t>(cols()), 0);
  int touched_count = 0;
  for (int i = 0; i < rows(); ++i) {
    double length2 = 0.0;
    for (int p = jacobian_.outerIndexPtr()[i]; p < jacobian_.outerIndexPtr()[i + 1]; ++p) {
      length2 += values[p] * values[p] * inverse_weights_(columns[p]);
      if (values[p] != 0.0 && !touched[static_cast<std::size_t>(columns[p])]) {
        touched[static_cast<std::size_t>(columns[p])] = 1;
        ++touched_count;
      }
    }
    longest2 = std::max(longest2, length2);
  }
  return static_cast<double>(std::max(rows(), touched_count)) * std::numeric_limits<double>::epsilon() *
         std::sqrt(longest2);
}

void DelassusFactorization::begin_pass() {
  assemble_values();
  operations_ += 2.0 * static_cast<double>(plan_.size());
}

void DelassusFactorization::finish_pass(const std::function<void()>& before_search) {
  rank_ = factor_->factorize(
      upper_values_, dependency_tolerance_, rank_floor_,
      [this](int k, const detail::RankRevealingLdlt::Combination& c, double* product) {
        return distance_from_combination(k, c, product);
      },
      before_search);
  operations_ += factor_->operations();
}

double DelassusFactorization::distance_from_combination(int k, const detail::RankRevealingLdlt::Combination& c,
                                                        double* product) {
  // r = A_k − Σ_j c_j A_j over rows in elimination order, gathered in the workspace on the columns it
  // touches; |W^(−1/2) rᵀ|², and A_j W⁻¹ rᵀ for j < k.
  if (distance_work_.size() != cols()) {
    distance_work_.setZero(cols());
    touched_mark_.assign(static_cast<std::size_t>(cols()), 0);
  }
  const int* start = jacobian_.outerIndexPtr();
  const int* columns = jacobian_.innerIndexPtr();
  const double* values = jacobian_.valuePtr();
  touched_.clear();
  auto add_row = [&](int new_index, double factor) {
    const int i = old_of_new_[static_cast<std::size_t>(new_index)];
    operations_ += 2.0 * (start[i + 1] - start[i]);
    for (int p = start[i]; p < start[i + 1]; ++p) {
      if (!touched_mark_[static_cast<std::size_t>(columns[p])]) {
        touched_mark_[static_cast<std::size_t>(columns[p])] = 1;
        touched_.push_back(columns[p]);
      }
      distance_work_(columns[p]) += factor * values[p];
    }
  };
  add_row(k, 1.0);
  for (const auto& [j, coefficient] : c) add_row(j, -coefficient);
  // |W^(−1/2) r|² over the touched columns (in the order they were first touched), and W⁻¹ r.
  double distance2 = 0.0;
  for (int column : touched_) {
    const double r = distance_work_(column);
    distance2 += r * r * inverse_weights_(column);
    distance_work_(column) = r * inverse_weights_(column);
  }
  if (product) {
    // Only the rows before k that share a column with r can have a non-zero product: the others' sums
    // are of zeros only, +0 from 0.0, which is what they are given.
    if (row_mark_.size() != static_cast<std::size_t>(rows())) row_mark_.assign(static_cast<std::size_t>(rows()), 0);
    const auto mark_rows_of_touched = [&](char value) {
      for (int column : touched_) {
        const std::size_t c = static_cast<std::size_t>(column);
        for (int p = column_start_[c]; p < column_start_[c + 1]; ++p) {
          row_mark_[static_cast<std::size_t>(column_row_[static_cast<std::size_t>(p)])] = value;
        }
      }
    };
    mark_rows_of_touched(1);
    operations_ += 2.0 * k;
    for (int j = 0; j < k; ++j) {
      const int i = old_of_new_[static_cast<std::size_t>(j)];
      double sum = 0.0;
      if (row_mark_[static_cast<std::size_t>(i)]) {
        for (int p = start[i]; p < start[i + 1]; ++p) sum += values[p] * distance_work_(columns[p]);
        operations_ += 2.0 * (start[i + 1] - start[i]);
      }
      product[j] = sum;
    }
    mark_rows_of_touched(0);
  }
  for (int column : touched_) {
    distance_work_(column) = 0.0;
    touched_mark_[static_cast<std::size_t>(column)] = 0;
  }
  return distance2;
}

void DelassusFactorization::build_null_basis() {
  // One column e_d − c_d per dependent row d, in A's row indices (ascending d). The combinations are sparse
  // (a dependency involves a few rows; the factor left out the round-off of its solve), and so are Z and
  // its Gram matrix ZᵀZ, positive definite (each column has its own unit entry).
  const auto& dependencies = factor_->dependencies();
  std::vector<int>& order = null_order_;
  order.resize(dependencies.size());
  for (std::size_t j = 0; j < order.size(); ++j) order[j] = static_cast<int>(j);
  std::sort(order.begin(), order.end(), [&](int x, int y) {
    return old_of_new_[static_cast<std::size_t>(dependencies[static_cast<std::size_t>(x)].row)] <
           old_of_new_[static_cast<std::size_t>(dependencies[static_cast<std::size_t>(y)].row)];
  });
  // Written column by column in its own storage, each column's rows ascending: a combination holds each
  // row once and never its own, so nothing is summed (as setFromTriplets would, with a copy).
  std::size_t entries = 0;
  for (const auto& dependency : dependencies) entries += dependency.coefficients.size() + 1;
  null_basis_.resize(rows(), static_cast<Eigen::Index>(dependencies.size()));
  null_basis_.reserve(static_cast<Eigen::Index>(entries));
  std::vector<std::pair<int, double>>& column = null_column_;
  for (std::size_t j = 0; j < order.size(); ++j) {
    const auto& dependency = dependencies[static_cast<std::size_t>(order[j])];
    column.clear();
    for (const auto& [i, c] : dependency.coefficients) column.emplace_back(old_of_new_[static_cast<std::size_t>(i)], -c);
    column.emplace_back(old_of_new_[static_cast<std::size_t>(dependency.row)], 1.0);
    std::sort(column.begin(), column.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    null_basis_.startVec(static_cast<Eigen::Index>(j));
    for (const auto& [row, value] : column) null_basis_.insertBack(row, static_cast<Eigen::Index>(j)) = value;
  }
  null_basis_.finalize();
  operations_ += 4.0 * static_cast<double>(entries);
  if (dependencies.empty()) return;
  // ZᵀZ, its symbolic analysis reused while its pattern holds (the same rows stay redundant).
  const Eigen::SparseMatrix<double> gram = null_basis_.transpose() * null_basis_;
  // Its product: each entry of a column of Z meets every column of Z with an entry in that row (then
  // the sparse Cholesky factor of the Gram matrix, at most its size times its largest column).
  {
    std::vector<double> per_row(static_cast<std::size_t>(rows()), 0.0);
    for (int p = 0; p < null_basis_.nonZeros(); ++p) per_row[static_cast<std::size_t>(null_basis_.innerIndexPtr()[p])] += 1.0;
    for (double count : per_row) operations_ += 2.0 * count * count;
    const double size = static_cast<double>(gram.nonZeros());
    operations_ += 2.0 * size * std::min(size, static_cast<double>(gram.rows()));
  }
  const bool same = gram_ && gram.rows() + 1 == static_cast<Eigen::Index>(gram_start_.size()) &&
                    std::equal(gram_start_.begin(), gram_start_.end(), gram.outerIndexPtr()) &&
                    gram.nonZeros() == static_cast<Eigen::Index>(gram_index_.size()) &&
                    std::equal(gram_index_.begin(), gram_index_.end(), gram.innerIndexPtr());
  if (!same) {
    gram_ = std::make_unique<Eigen::SimplicialLLT<Eigen::SparseMatrix<double>>>();
    gram_->analyzePattern(gram);
    gram_start_.assign(gram.outerIndexPtr(), gram.outerIndexPtr() + gram.rows() + 1);
    gram_index_.assign(gram.innerIndexPtr(), gram.innerIndexPtr() + gram.nonZeros());
  }
  gram_->factorize(gram);
}

void DelassusFactorization::keep_analysis() {
  // The current pattern's analysis joins the kept ones, first; the oldest beyond the limit goes.
  PatternAnalysis kept{std::move(pattern_start_), std::move(pattern_index_), std::move(column_start_),
                       std::move(column_row_), std::move(column_position_), std::move(coupled_start_),
                       std::move(coupled_row_), std::move(fill_order_), std::move(ordered_plans_)};
  earlier_patterns_.insert(earlier_patterns_.begin(), std::move(kept));
  if (earlier_patterns_.size() > kRememberedPatterns) earlier_patterns_.pop_back();
}

bool DelassusFactorization::recall_analysis() {
  // A kept analysis of A's pattern (and W's size), taken back: the members as analyze() would set them.
  const SparseJacobian& a = jacobian_;
  for (auto known = earlier_patterns_.begin(); known != earlier_patterns_.end(); ++known) {
    if (known->column_start.size() != static_cast<std::size_t>(cols()) + 1 ||
        known->pattern_start.size() != static_cast<std::size_t>(a.rows()) + 1 ||
        known->pattern_index.size() != static_cast<std::size_t>(a.nonZeros()) ||
        !std::equal(known->pattern_start.begin(), known->pattern_start.end(), a.outerIndexPtr()) ||
        !std::equal(known->pattern_index.begin(), known->pattern_index.end(), a.innerIndexPtr())) {
      continue;
    }
    pattern_start_ = std::move(known->pattern_start);
    pattern_index_ = std::move(known->pattern_index);
    column_start_ = std::move(known->column_start);
    column_row_ = std::move(known->column_row);
    column_position_ = std::move(known->column_position);
    coupled_start_ = std::move(known->coupled_start);
    coupled_row_ = std::move(known->coupled_row);
    fill_order_ = std::move(known->fill_order);
    ordered_plans_ = std::move(known->ordered_plans);
    earlier_patterns_.erase(known);
    return true;
  }
  return false;
}

void DelassusFactorization::analyze() {
  // The analysis of the previous pattern is kept; one of this pattern kept earlier is taken back, its
  // fill order set (the plan remembered with it, set_order).
  if (analyzed_) keep_analysis();
  analyzed_ = true;
  reorder_tried_ = false;
  if (recall_analysis()) {
    set_order(fill_order_);
    return;
  }
  ++analyses_;
  const int m = rows();
  const int n = cols();
  const SparseJacobian& a = jacobian_;
  pattern_start_.assign(a.outerIndexPtr(), a.outerIndexPtr() + m + 1);
  pattern_index_.assign(a.innerIndexPtr(), a.innerIndexPtr() + a.nonZeros());

  // The columns of A: for each column c, the entries (row, position in A's storage), rows ascending.
  column_start_.assign(static_cast<std::size_t>(n) + 1, 0);
  for (int p = 0; p < a.nonZeros(); ++p) ++column_start_[static_cast<std::size_t>(a.innerIndexPtr()[p]) + 1];
  for (int c = 0; c < n; ++c) column_start_[static_cast<std::size_t>(c) + 1] += column_start_[static_cast<std::size_t>(c)];
  column_row_.assign(static_cast<std::size_t>(a.nonZeros()), 0);
  column_position_.assign(column_row_.size(), 0);
  {
    std::vector<int> fill(column_start_.begin(), column_start_.end() - 1);
    for (int i = 0; i < m; ++i) {
      for (int p = a.outerIndexPtr()[i]; p < a.outerIndexPtr()[i + 1]; ++p) {
        const std::size_t slot = static_cast<std::size_t>(fill[static_cast<std::size_t>(a.innerIndexPtr()[p])]++);
        column_row_[slot] = i;
        column_position_[slot] = p;
      }
    }
  }

  // The symmetric pattern of K, in compressed columns: rows i and j are coupled when they share a column;
  // every row has its diagonal entry, even a zero row.
  coupled_start_.assign(static_cast<std::size_t>(m) + 1, 0);
  coupled_row_.clear();
  std::vector<int> mark(static_cast<std::size_t>(m), -1);
  for (int i = 0; i < m; ++i) {
    const std::size_t first = coupled_row_.size();
    mark[static_cast<std::size_t>(i)] = i;
    coupled_row_.push_back(i);
    for (int p = a.outerIndexPtr()[i]; p < a.outerIndexPtr()[i + 1]; ++p) {
      const int c = a.innerIndexPtr()[p];
      for (int q = column_start_[static_cast<std::size_t>(c)]; q < column_start_[static_cast<std::size_t>(c) + 1]; ++q) {
        const int j = column_row_[static_cast<std::size_t>(q)];
        if (mark[static_cast<std::size_t>(j)] != i) {
          mark[static_cast<std::size_t>(j)] = i;
          coupled_row_.push_back(j);
        }
      }
    }
    std::sort(coupled_row_.begin() + static_cast<std::ptrdiff_t>(first), coupled_row_.end());
    coupled_start_[static_cast<std::size_t>(i) + 1] = static_cast<int>(coupled_row_.size());
  }

  // A fill-reducing ordering of K (approximate minimum degree on its pattern): for each elimination step,
  // the row of A, as Eigen's SimplicialLDLT reads the ordering. Eigen's AMDOrdering first forms the
  // pattern of Kᵀ + K, which is K's own (symmetric, columns sorted, every diagonal entry): its minimum
  // degree routine is called on K's pattern directly, the same input.
  std::vector<int> order(static_cast<std::size_t>(m));
  if (m > 0) {
    Eigen::SparseMatrix<double, Eigen::ColMajor, int> pattern(m, m);
    pattern.resizeNonZeros(static_cast<Eigen::Index>(coupled_row_.size()));
    std::copy(coupled_start_.begin(), coupled_start_.end(), pattern.outerIndexPtr());
    std::copy(coupled_row_.begin(), coupled_row_.end(), pattern.innerIndexPtr());
    std::fill(pattern.valuePtr(), pattern.valuePtr() + coupled_row_.size(), 1.0);
    Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, int> elimination_order;
    Eigen::internal::minimum_degree_ordering(pattern, elimination_order);
    for (int k = 0; k < m; ++k) order[static_cast<std::size_t>(k)] = elimination_order.indices()(k);
  }
  fill_order_ = order;
  ordered_plans_.clear();
  set_order(order);
}

void DelassusFactorization::set_order(const std::vector<int>& order) {
  const int m = rows();
  // An order of this pattern met before (the fill order and a weak-basis re-ordering alternate at every
  // factorize_as_new of a rank-deficient A): its plan as computed then, a pure function of the order.
  for (const OrderedPlan& known : ordered_plans_) {
    if (known.old_of_new == order) {
      old_of_new_ = known.old_of_new;
      new_of_old_ = known.new_of_old;
      plan_ = known.plan;
      upper_values_.assign(known.upper_row.size(), 0.0);
      factor_->analyze(m, known.upper_start, known.upper_row);
      return;
    }
  }
  old_of_new_ = order;
  new_of_old_.resize(static_cast<std::size_t>(m));
  for (int k = 0; k < m; ++k) new_of_old_[static_cast<std::size_t>(order[static_cast<std::size_t>(k)])] = k;

  // The permuted upper triangle: entry (min, max) of the new indices of each coupled pair, in columns.
  std::vector<int> upper_start(static_cast<std::size_t>(m) + 1, 0);
  for (int i = 0; i < m; ++i) {
    const int ni = new_of_old_[static_cast<std::size_t>(i)];
    for (int p = coupled_start_[static_cast<std::size_t>(i)]; p < coupled_start_[static_cast<std::size_t>(i) + 1]; ++p) {
      const int nj = new_of_old_[static_cast<std::size_t>(coupled_row_[static_cast<std::size_t>(p)])];
      if (ni <= nj) ++upper_start[static_cast<std::size_t>(nj) + 1];
    }
  }
  for (int k = 0; k < m; ++k) upper_start[static_cast<std::size_t>(k) + 1] += upper_start[static_cast<std::size_t>(k)];
  // Each column's rows ascending: the rows are visited in their new order, so each column receives them
  // sorted.
  std::vector<int> upper_row(static_cast<std::size_t>(upper_start[static_cast<std::size_t>(m)]));
  {
    std::vector<int>& fill = fill_work_;
    fill.assign(upper_start.begin(), upper_start.end() - 1);
    for (int ni = 0; ni < m; ++ni) {
      const int i = order[static_cast<std::size_t>(ni)];
      for (int p = coupled_start_[static_cast<std::size_t>(i)]; p < coupled_start_[static_cast<std::size_t>(i) + 1]; ++p) {
        const int nj = new_of_old_[static_cast<std::size_t>(coupled_row_[static_cast<std::size_t>(p)])];
        if (ni <= nj) upper_row[static_cast<std::size_t>(fill[static_cast<std::size_t>(nj)]++)] = ni;
      }
    }
  }
  // The plan: each product A_ic A_jc / w_c of a column c, summed into its entry of the upper triangle, in a
  // fixed order (by entry, then column, then positions). Listed column by column of the triangle: for the
  // new index nj of row j, the slot of each entry (ni, nj) marked in `slot_of_row`, then the products of
  // row j's columns with the rows of each column that come before it in the new order (or j itself). An
  // entry's products come in ascending column c (A's rows sorted by column, as compressed storage keeps
  // them), and the positions of rows i and j in column c are
  // (first, second) in the rows' old order: a stable counting sort by entry gives the order (entry,
  // column, first, second) — the one order of these distinct keys.
  std::vector<PlanEntry>& listed = plan_work_;
  listed.clear();
  std::vector<int>& slot_of_row = slot_work_;
  slot_of_row.resize(static_cast<std::size_t>(m));
  std::vector<int>& entry_start = fill_work_;
  entry_start.assign(upper_row.size() + 1, 0);
  for (int nj = 0; nj < m; ++nj) {
    for (int slot = upper_start[static_cast<std::size_t>(nj)]; slot < upper_start[static_cast<std::size_t>(nj) + 1]; ++slot) {
      slot_of_row[static_cast<std::size_t>(upper_row[static_cast<std::size_t>(slot)])] = slot;
    }
    const int j = order[static_cast<std::size_t>(nj)];
    for (int q = pattern_start_[static_cast<std::size_t>(j)]; q < pattern_start_[static_cast<std::size_t>(j) + 1]; ++q) {
      const int c = pattern_index_[static_cast<std::size_t>(q)];
      for (int p = column_start_[static_cast<std::size_t>(c)]; p < column_start_[static_cast<std::size_t>(c) + 1]; ++p) {
        const int i = column_row_[static_cast<std::size_t>(p)];
        const int ni = new_of_old_[static_cast<std::size_t>(i)];
        if (ni > nj) continue;
        const int slot = slot_of_row[static_cast<std::size_t>(ni)];
        const int position = column_position_[static_cast<std::size_t>(p)];
        listed.push_back({slot, std::min(position, q), std::max(position, q), c});
        ++entry_start[static_cast<std::size_t>(slot) + 1];
      }
    }
  }
  for (std::size_t e = 0; e + 1 < entry_start.size(); ++e) entry_start[e + 1] += entry_start[e];
  plan_.resize(listed.size());
  for (const PlanEntry& e : listed) plan_[static_cast<std::size_t>(entry_start[static_cast<std::size_t>(e.slot)]++)] = e;
  upper_values_.assign(upper_row.size(), 0.0);

  // The elimination tree and the storage of L.
  factor_->analyze(m, upper_start, upper_row);
  // Remembered: the fill order and the latest other one.
  if (ordered_plans_.size() == kRememberedOrders) ordered_plans_.pop_back();
  ordered_plans_.insert(ordered_plans_.begin() + (ordered_plans_.empty() ? 0 : 1),
                        OrderedPlan{old_of_new_, new_of_old_, std::move(upper_start), std::move(upper_row), plan_});
}

void DelassusFactorization::assemble_values() {
  std::fill(upper_values_.begin(), upper_values_.end(), 0.0);
  const double* a = jacobian_.valuePtr();
  double* k = upper_values_.data();
  for (const PlanEntry& e : plan_) k[e.slot] += a[e.first] * a[e.second] * inverse_weights_(e.col);
}

double DelassusFactorization::smallest_pivot_ratio() const { return factor_->smallest_ratio(); }

double DelassusFactorization::largest_dropped_distance() const { return factor_->largest_dropped_distance(); }

std::vector<int> DelassusFactorization::dependent_rows() const {
  std::vector<int> rows_out;
  for (int i = 0; i < rows(); ++i) {
    if (factor_->dropped(new_of_old_[static_cast<std::size_t>(i)])) rows_out.push_back(i);
  }
  return rows_out;
}

void DelassusFactorization::solve_once(const Vector& c, Vector& x) const {
  // x = Pᵀ (L D Lᵀ)⁺ P c, in the elimination order.
  const int m = rows();
  work_.resize(m);
  for (int i = 0; i < m; ++i) work_(new_of_old_[static_cast<std::size_t>(i)]) = c(i);
  factor_->solve_in_place(work_.data());
  x.resize(m);
  for (int i = 0; i < m; ++i) x(i) = work_(new_of_old_[static_cast<std::size_t>(i)]);
}

Vector DelassusFactorization::solve(const Vector& c) const {
  if (c.size() != rows()) fail("c", "must have one entry per row of A (" + std::to_string(rows()) + ")");
  Vector x;
  solve_once(c, x);
  // Iterative refinement on the residual c − K x of K itself (A W⁻¹ Aᵀ, not the factor), formed in the
  // workspaces: the same products as multiply().
  for (int step = 0; step < refinement_steps_; ++step) {
    multiply_into(x, residual_);
    residual_ = c - residual_;
    solve_once(residual_, correction_);
    x += correction_;
  }
  return x;
}

void DelassusFactorization::multiply_into(const Vector& x, Vector& out) const {
  // K x = A (W⁻¹ (Aᵀ x)), as multiply() evaluates it.
  transposed_.noalias() = jacobian_.transpose() * x;
  transposed_ = inverse_weights_.cwiseProduct(transposed_);
  out.noalias() = jacobian_ * transposed_;
}

Vector DelassusFactorization::project_to_range(const Vector& v) const {
  if (v.size() != rows()) fail("v", "must have one entry per row of A (" + std::to_string(rows()) + ")");
  if (rank_ == rows()) return v;
  // Π v = v − Z (ZᵀZ)⁻¹ Zᵀ v.
  return v - null_basis_ * gram_->solve(Vector(null_basis_.transpose() * v));
}

Vector DelassusFactorization::pseudo_solve(const Vector& c) const { return project_to_range(solve(project_to_range(c))); }

Vector DelassusFactorization::least_squares(const Vector& y) const {
  return inverse_weights_.cwiseProduct(apply_transpose(solve(project_to_range(y))));
}

Vector DelassusFactorization::apply_jacobian(const Vector& v) const { return jacobian_ * v; }

Vector DelassusFactorization::apply_transpose(const Vector& x) const { return jacobian_.transpose() * x; }

Vector DelassusFactorization::multiply(const Vector& x) const {
  return jacobian_ * inverse_weights_.cwiseProduct(jacobian_.transpose() * x).eval();
}

}  // namespace oblique
