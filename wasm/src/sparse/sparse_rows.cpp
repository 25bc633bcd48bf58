#include "oblique/sparse/sparse_rows.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "math/checks.hpp"

namespace oblique {

using detail::fail;

void SparseRowsBuilder::start(int cols) {
  cols_ = cols;
  row_start_.assign(1, 0);
  columns_.clear();
  values_.clear();
}

int SparseRowsBuilder::new_row() {
  row_start_.push_back(static_cast<int>(columns_.size()));
  return rows() - 1;
}

void SparseRowsBuilder::column_outside(int col) const {
  fail("A", "column " + std::to_string(col) + " is outside 0.." + std::to_string(cols_ - 1));
}

const SparseJacobian& SparseRowsBuilder::finish(Zeros zeros) {
  // The same pattern as last time: values only.
  const bool same_pattern = pattern_valid_ && zeros == pattern_zeros_ && cols_ == pattern_cols_ &&
                            row_start_ == pattern_row_start_ && columns_ == pattern_columns_;
  refilled_ = same_pattern && refill(zeros);
  if (!refilled_) compress(zeros);
  return matrix_;
}

bool SparseRowsBuilder::refill(Zeros zeros) {
  // Each sum from its first term, then the others in the order they came (as compress() sums them); the
  // sums compress() left out (exactly zero) after the stored ones.
  const Eigen::Index nonzeros = matrix_.nonZeros();
  double* sums = pattern_sums_.data();
  const std::size_t entries = values_.size();
  for (std::size_t p = 0; p < entries; ++p) {
    const int target = pattern_target_[p];
    if (target < 0) {
      sums[~target] = values_[p];
    } else {
      sums[target] += values_[p];
    }
  }
  // Under Zeros::Drop the structure stays only if the stored sums are non-zero and the others zero.
  if (zeros == Zeros::Drop) {
    for (Eigen::Index k = 0; k < nonzeros; ++k) {
      if (sums[k] == 0.0) return false;
    }
    for (std::size_t k = static_cast<std::size_t>(nonzeros); k < pattern_sums_.size(); ++k) {
      if (sums[k] != 0.0) return false;
    }
  }
  std::copy(sums, sums + nonzeros, matrix_.valuePtr());
  return true;
}

void SparseRowsBuilder::compress(Zeros zeros) {
  // The pattern as the entries came, before sorting.
  pattern_row_start_ = row_start_;
  pattern_columns_ = columns_;
  pattern_zeros_ = zeros;
  pattern_cols_ = cols_;
  // Sort each row by column (insertion sort, stable: a row has a handful of entries) and sum duplicates in
  // place, in the order they came.
  const bool drop = zeros == Zeros::Drop;
  const int m = rows();
  int write = 0;
  compact_start_.assign(static_cast<std::size_t>(m) + 1, 0);
  for (int i = 0; i < m; ++i) {
    const int begin = row_start_[static_cast<std::size_t>(i)];
    const int end = row_start_[static_cast<std::size_t>(i) + 1];
    for (int p = begin + 1; p < end; ++p) {
      const int col = columns_[static_cast<std::size_t>(p)];
      const double value = values_[static_cast<std::size_t>(p)];
      int q = p;
      for (; q > begin && columns_[static_cast<std::size_t>(q) - 1] > col; --q) {
        columns_[static_cast<std::size_t>(q)] = columns_[static_cast<std::size_t>(q) - 1];
        values_[static_cast<std::size_t>(q)] = values_[static_cast<std::size_t>(q) - 1];
      }
      columns_[static_cast<std::size_t>(q)] = col;
      values_[static_cast<std::size_t>(q)] = value;
    }
    const int row_begin = write;
    // With Zeros::Drop, an entry whose sum is exactly zero is overwritten by the next column's.
    auto ends_in_zero = [&]() {
      return drop && write > row_begin && values_[static_cast<std::size_t>(write) - 1] == 0.0;
    };
    for (int p = begin; p < end; ++p) {
      const int col = columns_[static_cast<std::size_t>(p)];
      if (write > row_begin && columns_[static_cast<std::size_t>(write) - 1] == col) {
        values_[static_cast<std::size_t>(write) - 1] += values_[static_cast<std::size_t>(p)];
      } else {
        if (ends_in_zero()) --write;
        columns_[static_cast<std::size_t>(write)] = col;
        values_[static_cast<std::size_t>(write)] = values_[static_cast<std::size_t>(p)];
        ++write;
      }
    }
    if (ends_in_zero()) --write;
    compact_start_[static_cast<std::size_t>(i) + 1] = write;
  }
  // Into Eigen's compressed row storage.
  matrix_.resize(m, cols_);
  matrix_.resizeNonZeros(write);
  std::copy(compact_start_.begin(), compact_start_.end(), matrix_.outerIndexPtr());
  std::copy(columns_.begin(), columns_.begin() + write, matrix_.innerIndexPtr());
  std::copy(values_.begin(), values_.begin() + write, matrix_.valuePtr());
  // Where each entry's value goes: the first term of each sum is marked (~index); a sum that was left out
  // gets a place after the stored ones.
  int left_out = write;
  pattern_target_.resize(pattern_columns_.size());
  for (int i = 0; i < m; ++i) {
    const int begin = row_start_[static_cast<std::size_t>(i)];
    const int end = row_start_[static_cast<std::size_t>(i) + 1];
    const int compact_begin = compact_start_[static_cast<std::size_t>(i)];
    const int compact_end = compact_start_[static_cast<std::size_t>(i) + 1];
    for (int p = begin; p < end; ++p) {
      const int col = pattern_columns_[static_cast<std::size_t>(p)];
      int first = begin;
      while (pattern_columns_[static_cast<std::size_t>(first)] != col) ++first;
      if (first < p) {
        pattern_target_[static_cast<std::size_t>(p)] = ~pattern_target_[static_cast<std::size_t>(first)];
        continue;
      }
      int k = compact_begin;
      while (k < compact_end && columns_[static_cast<std::size_t>(k)] != col) ++k;
      pattern_target_[static_cast<std::size_t>(p)] = ~(k < compact_end ? k : left_out++);
    }
  }
  pattern_sums_.resize(static_cast<std::size_t>(left_out));
  pattern_valid_ = true;
}

SparseJacobian to_sparse(const Matrix& dense) {
  SparseRowsBuilder builder;
  builder.start(static_cast<int>(dense.cols()));
  for (Eigen::Index i = 0; i < dense.rows(); ++i) {
    builder.new_row();
    for (Eigen::Index j = 0; j < dense.cols(); ++j) {
      if (dense(i, j) != 0.0) builder.add(static_cast<int>(j), dense(i, j));
    }
  }
  return builder.finish();
}

void to_dense(const SparseJacobian& sparse, Matrix& dense) {
  dense.setZero(sparse.rows(), sparse.cols());
  for (int i = 0; i < sparse.outerSize(); ++i) {
    for (SparseJacobian::InnerIterator it(sparse, i); it; ++it) dense(i, it.col()) = it.value();
  }
}

double row_dot(const SparseJacobian& row, const Vector& x) {
  double sum = 0.0;
  for (SparseJacobian::InnerIterator entry(row, 0); entry; ++entry) sum = sum + entry.value() * x(entry.index());
  return sum;
}

double dense_order_dot(const SparseJacobian& row, const Vector& x) {
  // x not finite: 0 · ∞ is NaN, so the dense product itself.
  if (!x.allFinite()) return Matrix(row).row(0).dot(x);
  // The entries' sum in column order: the dense sum's bits unless it is zero.
  double sum = 0.0;
  for (SparseJacobian::InnerIterator entry(row, 0); entry; ++entry) sum = sum + entry.value() * x(entry.index());
  if (sum != 0.0) return sum;
  // A zero sum: −0 only when every dense term is −0.
  SparseJacobian::InnerIterator entry(row, 0);
  for (Eigen::Index c = 0; c < x.size(); ++c) {
    double value = 0.0;
    if (entry && entry.index() == c) {
      value = entry.value();
      ++entry;
    }
    const double term = value * x(c);
    if (term != 0.0 || !std::signbit(term)) return 0.0;
  }
  return x.size() > 0 ? -0.0 : 0.0;
}

}  // namespace oblique
