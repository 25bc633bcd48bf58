// PiecewiseLu (piecewise_lu.hpp): Eigen 3.4's blocked LU with partial pivoting, a panel a piece.
#include "math/piecewise_lu.hpp"

#include <Eigen/LU>
#include <algorithm>
#include <stdexcept>
#include <utility>

namespace oblique::detail {

namespace {

using Lu = Eigen::internal::partial_lu_impl<double, Eigen::ColMajor, int>;
using Block = Eigen::Ref<Eigen::MatrixXd>;

/// Eigen's bound up to which it factorises without panels.
constexpr Eigen::Index kUnblockedBound = Lu::UnBlockedBound;

}  // namespace

Eigen::Index PiecewiseLu::panel_width(Eigen::Index n) {
  if (n <= kUnblockedBound) return n;
  // size/8, rounded down to a multiple of 16, within [8, 256] (Eigen's default largest panel).
  const Eigen::Index width = (n / 8 / 16) * 16;
  return std::min(std::max(width, Eigen::Index(8)), Eigen::Index(256));
}

double PiecewiseLu::panel_flops(Eigen::Index n, Eigen::Index k, Eigen::Index block) {
  const double bs = static_cast<double>(std::min(n - k, block));
  const double trailing = static_cast<double>(n - k) - bs;
  // The panel's own LU, the triangular solve of A12 and the product A21·A12.
  return (trailing + bs) * bs * bs + bs * bs * trailing + 2.0 * trailing * bs * trailing;
}

void PiecewiseLu::start(Eigen::MatrixXd matrix) {
  if (matrix.rows() != matrix.cols()) throw std::invalid_argument("PiecewiseLu: the matrix must be square");
  lu_ = std::move(matrix);
  transpositions_.resize(lu_.rows());
  next_column_ = 0;
  started_ = true;
}

void PiecewiseLu::reset() {
  lu_.resize(0, 0);
  transpositions_.resize(0);
  next_column_ = 0;
  started_ = false;
}

void PiecewiseLu::factorize(const WorkGate& gate) {
  if (!started_) throw std::logic_error("PiecewiseLu: factorize before start");
  const Eigen::Index n = size();
  const Eigen::Index block = panel_width(n);
  // A small matrix: Eigen's unblocked factorisation, one piece.
  if (n <= kUnblockedBound) {
    if (next_column_ >= n) return;
    if (gate) gate(2.0 / 3.0 * static_cast<double>(n * n * n));
    int count = 0;
    Lu::blocked_lu(n, n, lu_.data(), lu_.outerStride(), transpositions_.data(), count);
    next_column_ = n;
    return;
  }
  const Eigen::Index stride = lu_.outerStride();
  while (next_column_ < n) {
    const Eigen::Index k = next_column_;
    if (gate) gate(panel_flops(n, k, block));
    const Eigen::Index bs = std::min(n - k, block);
    const Eigen::Index trailing = n - k - bs;
    // The panel [A11; A21], by Eigen's routine with its small panels of 16.
    int in_panel = 0;
    Lu::blocked_lu(trailing + bs, bs, &lu_.coeffRef(k, k), stride, transpositions_.data() + k, in_panel, 16);
    // Its row swaps, made global and applied to the columns left of it.
    Block left = lu_.block(0, 0, n, k);
    for (Eigen::Index i = k; i < k + bs; ++i) {
      const Eigen::Index pivot = (transpositions_[i] += static_cast<int>(k));
      left.row(i).swap(left.row(pivot));
    }
    if (trailing > 0) {
      // And to the columns right of it; then A12 ← L11⁻¹A12 and A22 ← A22 − A21·A12.
      Block right = lu_.block(0, k + bs, n, trailing);
      for (Eigen::Index i = k; i < k + bs; ++i) right.row(i).swap(right.row(transpositions_[i]));
      Block a11 = lu_.block(k, k, bs, bs);
      Block a12 = lu_.block(k, k + bs, bs, trailing);
      Block a21 = lu_.block(k + bs, k, trailing, bs);
      Block a22 = lu_.block(k + bs, k + bs, trailing, trailing);
      a11.triangularView<Eigen::UnitLower>().solveInPlace(a12);
      a22.noalias() -= a21 * a12;
    }
    next_column_ = k + bs;
  }
}

Eigen::VectorXd PiecewiseLu::solve(const Eigen::VectorXd& b) const {
  if (!done()) throw std::logic_error("PiecewiseLu: solve before the factorisation is done");
  if (b.size() != size()) throw std::invalid_argument("PiecewiseLu: the right-hand side has the wrong size");
  // P b, then the unit lower and the upper triangular solves.
  Eigen::Transpositions<Eigen::Dynamic, Eigen::Dynamic, int> swaps(transpositions_);
  const Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, int> permutation(swaps);
  Eigen::VectorXd x = permutation * b;
  lu_.triangularView<Eigen::UnitLower>().solveInPlace(x);
  lu_.triangularView<Eigen::Upper>().solveInPlace(x);
  return x;
}

}  // namespace oblique::detail
