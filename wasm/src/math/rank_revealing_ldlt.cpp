#include "math/rank_revealing_ldlt.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace oblique::detail {

// Indices are ints throughout (the storage index of Eigen's sparse matrices); the loops read the arrays
// through their data pointers.

void RankRevealingLdlt::analyze(int n, const std::vector<int>& column_start, const std::vector<int>& row_index) {
  progress_ = Progress();
  n_ = n;
  upper_start_ = column_start;
  upper_row_ = row_index;
  const std::size_t size = static_cast<std::size_t>(n);
  parent_.assign(size, -1);
  column_count_.assign(size, 0);
  flag_.assign(size, 0);
  const int* start = upper_start_.data();
  const int* rows = upper_row_.data();
  int* parent = parent_.data();
  int* count = column_count_.data();
  int* flag = flag_.data();
  // Elimination tree and column counts of L: row k of L is the set of nodes reached from the entries of
  // column k of the upper triangle by walking up the tree (stopping at nodes already visited for k).
  for (int k = 0; k < n; ++k) {
    flag[k] = k;
    for (int p = start[k]; p < start[k + 1]; ++p) {
      for (int i = rows[p]; i < k && flag[i] != k; i = parent[i]) {
        if (parent[i] == -1) parent[i] = k;
        ++count[i];
        flag[i] = k;
      }
    }
  }
  // Column pointers of L, and its storage.
  column_start_.assign(size + 1, 0);
  for (std::size_t k = 0; k < size; ++k) column_start_[k + 1] = column_start_[k] + column_count_[k];
  l_row_.assign(static_cast<std::size_t>(column_start_[size]), 0);
  l_value_.assign(static_cast<std::size_t>(column_start_[size]), 0.0);
  pivot_.assign(size, 0.0);
  ratio_.assign(size, 0.0);
  dropped_.assign(size, 0);
  work_.assign(size, 0.0);
  residual_.assign(size, 0.0);
  dense_combination_.assign(size, 0.0);
  pattern_.assign(size, 0);
  previous_.assign(size, Combination());
  has_previous_.assign(size, 0);
}

double RankRevealingLdlt::factor_flops(int from) const {
  double flops = 0.0;
  for (int k = std::max(from, 0); k < n_; ++k) {
    const double count = static_cast<double>(column_count_[static_cast<std::size_t>(k)]);
    flops += 2.0 * count * count + 4.0 * count + 2.0;
  }
  return flops;
}

void RankRevealingLdlt::forget_dependencies() {
  for (Combination& c : previous_) c.clear();
  std::fill(has_previous_.begin(), has_previous_.end(), 0);
}

namespace {

/// The entries of a dense combination above 1e-15 of its largest (at least 1): round-off left out.
void to_combination(const std::vector<double>& dense, int k, RankRevealingLdlt::Combination& out) {
  // One pass with the largest so far: an entry under 1e-15 of it is under 1e-15 of the largest too, so
  // only those kept are compared again with the largest at the end (most entries are round-off).
  double largest = 1.0;
  out.clear();
  for (int j = 0; j < k; ++j) {
    const double value = dense[static_cast<std::size_t>(j)];
    largest = std::max(largest, std::abs(value));
    if (std::abs(value) > 1e-15 * largest) out.emplace_back(j, value);
  }
  const double threshold = 1e-15 * largest;
  out.erase(std::remove_if(out.begin(), out.end(), [threshold](const auto& entry) {
              return !(std::abs(entry.second) > threshold);
            }), out.end());
}

}  // namespace

void RankRevealingLdlt::abandon() { progress_ = Progress(); }

int RankRevealingLdlt::factorize(const std::vector<double>& values, double tolerance, double floor,
                                 const Distance& distance, const std::function<void()>& before_search) {
  const int* start = upper_start_.data();
  const int* rows = upper_row_.data();
  const int* parent = parent_.data();
  const int* l_start = column_start_.data();
  int* count = column_count_.data();
  int* flag = flag_.data();
  int* pattern = pattern_.data();
  int* l_row = l_row_.data();
  double* l_value = l_value_.data();
  double* pivots = pivot_.data();
  double* work = work_.data();
  char* dropped = dropped_.data();
  const double* a = values.data();
  const double epsilon = std::numeric_limits<double>::epsilon();
  // A factorisation stopped before a row's search goes on from that search; otherwise a new one starts.
  Progress& at = progress_;
  if (!at.started) {
    // The last factorisation's combinations lend their storage to this one's (no allocation per dependent
    // row once the pattern's dependencies have been met).
    for (Dependency& dependency : dependencies_) spare_.push_back(std::move(dependency.coefficients));
    dependencies_.clear();
    operations_ = 0.0;
    doubtful_rows_ = 0;
    at = Progress();
    at.started = true;
  }
  Combination& coefficients = row_combination_;
  for (int k = at.row; k < n_; ++k) {
    at.row = k;
    double diagonal = at.diagonal;
    double pivot = at.pivot;
    if (!at.search_pending) {
      // Scatter column k of the upper triangle into the work vector and find the pattern of row k of L, in
      // topological order (pattern[top..n)).
      work[k] = 0.0;
      int top = n_;
      flag[k] = k;
      count[k] = 0;
      for (int p = start[k]; p < start[k + 1]; ++p) {
        int i = rows[p];
        work[i] += a[p];
        int length = 0;
        for (; flag[i] != k; i = parent[i]) {
          pattern[length++] = i;
          flag[i] = k;
        }
        while (length > 0) pattern[--top] = pattern[--length];
      }
      // Row k of L by a sparse triangular solve, and the pivot d_k = K_kk − Σ L_ki² d_i.
      diagonal = work[k];
      pivot = diagonal;
      work[k] = 0.0;
      for (; top < n_; ++top) {
        const int i = pattern[top];
        const double yi = work[i];
        work[i] = 0.0;
        const int end = l_start[i] + count[i];
        for (int p = l_start[i]; p < end; ++p) work[l_row[p]] -= l_value[p] * yi;
        operations_ += 2.0 * (end - l_start[i]) + 4.0;
        // A dropped row takes no part: its column of L stays empty.
        if (dropped[i]) continue;
        const double l_ki = yi / pivots[i];
        pivot -= l_ki * yi;
        l_row[end] = k;
        l_value[end] = l_ki;
        ++count[i];
      }
    }
    // Keep a pivot well above its noise and above the floor; decide a smaller one by the row's accurate
    // distance from the rows before it (a zero row is dependent at once).
    bool drop = !(diagonal > 0.0);
    coefficients.clear();
    const double threshold2 = std::max(tolerance * tolerance * diagonal, floor * floor);  // squared distance
    if (!drop && !(pivot >= std::max(1e-6, 1e3 * epsilon / at.smallest_ratio) * diagonal && pivot >= 1e4 * threshold2)) {
      // The search may stop here, before it starts (row k of L made): the next call takes it from here,
      // asking again.
      if (before_search) {
        at.search_pending = true;
        at.diagonal = diagonal;
        at.pivot = pivot;
        before_search();
      }
      at.search_pending = false;
      // A distance decisively small (round-off of an exact dependency, within a quarter of the floor) needs
      // no refinement when the rows before k are well-conditioned (its combination is then accurate enough
      // as a null vector).
      const double decisive = at.smallest_ratio < 1e-4 ? 0.0 : std::min(1e-4 * threshold2, 0.0625 * floor * floor);
      ++doubtful_rows_;
      // The combination of the previous factorisation first, then the nearest one.
      double distance2 = -1.0;
      if (has_previous_[static_cast<std::size_t>(k)]) {
        const double reused = distance(k, previous_[static_cast<std::size_t>(k)], nullptr);
        if (reused <= decisive) {
          distance2 = reused;
          coefficients = previous_[static_cast<std::size_t>(k)];
        }
      }
      if (distance2 < 0.0) distance2 = nearest_combination(k, values, distance, decisive, coefficients);
      drop = !(distance2 > threshold2);
      pivot = distance2;
      if (drop) at.largest_dropped = std::max(at.largest_dropped, distance2);
    }
    at.search_pending = false;
    dropped[k] = drop ? 1 : 0;
    pivots[k] = drop ? 0.0 : pivot;
    ratio_[static_cast<std::size_t>(k)] = drop ? 0.0 : pivot / diagonal;
    has_previous_[static_cast<std::size_t>(k)] = drop ? 1 : 0;
    if (drop) {
      previous_[static_cast<std::size_t>(k)] = coefficients;
      Combination kept;
      if (!spare_.empty()) {
        kept = std::move(spare_.back());
        spare_.pop_back();
      }
      kept.assign(coefficients.begin(), coefficients.end());
      dependencies_.push_back({k, std::move(kept)});
    } else {
      ++at.rank;
      at.smallest_ratio = std::min(at.smallest_ratio, pivot / diagonal);
    }
  }
  smallest_ratio_ = at.smallest_ratio;
  largest_dropped_ = std::sqrt(at.largest_dropped);
  const int rank = at.rank;
  at = Progress();
  return rank;
}

void RankRevealingLdlt::solve_leading(int k, double* x) const {
  const int* l_start = column_start_.data();
  const int* count = column_count_.data();
  const int* l_row = l_row_.data();
  const double* l_value = l_value_.data();
  // The columns of L hold rows up to k at this point of the factorisation, in increasing order: row k, if
  // there, is a column's last entry, left out.
  const auto leading_end = [&](int j) {
    const int end = l_start[j] + count[j];
    return end > l_start[j] && l_row[end - 1] >= k ? end - 1 : end;
  };
  // L y = x. A zero x_j would only subtract zeros, which can change no entry but a zero's sign (and no
  // combination keeps a zero): skipped, so that a right-hand side with a few non-zeros near k (a row's
  // column of K) costs only the columns it reaches.
  double flops = 3.0 * k;
  for (int j = 0; j < k; ++j) {
    const double xj = x[j];
    if (xj == 0.0) continue;
    const int end = leading_end(j);
    for (int p = l_start[j]; p < end; ++p) x[l_row[p]] -= l_value[p] * xj;
    flops += 2.0 * (end - l_start[j]);
  }
  for (int j = 0; j < k; ++j) x[j] = dropped_[static_cast<std::size_t>(j)] ? 0.0 : x[j] / pivot_[static_cast<std::size_t>(j)];
  // Lᵀ x = z.
  for (int j = k - 1; j >= 0; --j) {
    double sum = x[j];
    const int end = leading_end(j);
    for (int p = l_start[j]; p < end; ++p) sum -= l_value[p] * x[l_row[p]];
    x[j] = sum;
    flops += 2.0 * (end - l_start[j]);
  }
  operations_ += flops;
}

double RankRevealingLdlt::nearest_combination(int k, const std::vector<double>& values, const Distance& distance,
                                              double decisive, Combination& best_combination) {
  const int* start = upper_start_.data();
  const int* rows = upper_row_.data();
  const double* a = values.data();
  // The normal equations K_<k c = K_<k,k (column k of the upper triangle above the diagonal); only the
  // entries before k are read or written.
  std::vector<double>& c = dense_combination_;
  std::fill(c.begin(), c.begin() + k, 0.0);
  for (int p = start[k]; p < start[k + 1]; ++p) {
    if (rows[p] < k) c[static_cast<std::size_t>(rows[p])] += a[p];
  }
  solve_leading(k, c.data());
  // Corrected semi-normal equations: the residual r = b_k − Σ c_j b_j is formed from B (by the caller), and
  // c += K_<k⁺ (B_<k r). Every c gives an upper bound |r|² of the squared distance: keep the smallest.
  to_combination(c, k, best_combination);
  operations_ += 4.0 * k;
  // Its distance, and B_<k r only when a correction needs it: not when the distance is already decisive
  // (then asked again with the product: the same distance).
  double best = distance(k, best_combination, nullptr);
  if (best <= decisive) return best;
  std::fill(residual_.begin(), residual_.end(), 0.0);
  distance(k, best_combination, residual_.data());
  Combination& candidate_combination = candidate_combination_;
  for (int round = 0; round < 2 && !(best <= decisive); ++round) {
    solve_leading(k, residual_.data());
    for (int j = 0; j < k; ++j) c[static_cast<std::size_t>(j)] += residual_[static_cast<std::size_t>(j)];
    to_combination(c, k, candidate_combination);
    operations_ += 6.0 * k;
    std::fill(residual_.begin(), residual_.end(), 0.0);
    const double candidate = distance(k, candidate_combination, residual_.data());
    if (!(candidate < best)) break;
    best = candidate;
    best_combination.swap(candidate_combination);
  }
  return best;
}

void RankRevealingLdlt::solve_in_place(double* x) const {
  const int* l_start = column_start_.data();
  const int* count = column_count_.data();
  const int* l_row = l_row_.data();
  const double* l_value = l_value_.data();
  // L y = x.
  for (int j = 0; j < n_; ++j) {
    const double xj = x[j];
    for (int p = l_start[j]; p < l_start[j] + count[j]; ++p) x[l_row[p]] -= l_value[p] * xj;
  }
  // z = D⁺ y.
  for (int j = 0; j < n_; ++j) x[j] = dropped_[static_cast<std::size_t>(j)] ? 0.0 : x[j] / pivot_[static_cast<std::size_t>(j)];
  // Lᵀ x = z.
  for (int j = n_ - 1; j >= 0; --j) {
    double sum = x[j];
    for (int p = l_start[j]; p < l_start[j] + count[j]; ++p) sum -= l_value[p] * x[l_row[p]];
    x[j] = sum;
  }
}

}  // namespace oblique::detail
