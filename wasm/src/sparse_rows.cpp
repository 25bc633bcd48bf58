#include "oblique/sparse_rows.hpp"

#include <algorithm>
#include <string>

#include "checks.hpp"

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
  return matrix_;
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

}  // namespace oblique
