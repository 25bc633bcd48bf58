// A constraint Jacobian in compressed rows, and the builder that assembles it row by row as a model writes
// its constraint rows (model.hpp ConstraintRows, contact_geometry.hpp). Each row of A touches one or two
// bodies: at most six non-zeros.
#pragma once

#include <vector>

#include <Eigen/SparseCore>

#include "oblique/math/projection.hpp"

namespace oblique {

/// A constraint Jacobian in compressed rows.
using SparseJacobian = Eigen::SparseMatrix<double, Eigen::RowMajor, int>;

/// Assembles a SparseJacobian row by row, the way a model writes its constraint rows: entries of a row may
/// come in any column order and the same column twice (they are summed, in the order they came). Storage is
/// reused between assemblies.
class SparseRowsBuilder {
 public:
  /// What finish() does with an entry whose sum is exactly zero.
  enum class Zeros { Keep, Drop };

  /// Starts a new matrix of `cols` columns and no rows.
  void start(int cols);
  /// Begins the next row; returns its index.
  int new_row();
  /// Adds `value` at column `col` of the current row (0 ≤ col < cols; a zero value is kept as an entry).
  /// Inline: the model's row writers call it for every entry.
  void add(int col, double value) {
    if (col < 0 || col >= cols_) column_outside(col);
    if (row_start_.size() == 1) new_row();
    columns_.push_back(col);
    values_.push_back(value);
    ++row_start_.back();
  }
  int rows() const { return static_cast<int>(row_start_.size()) - 1; }
  int cols() const { return cols_; }
  /// The matrix, rows sorted by column and duplicates summed; with Zeros::Drop, entries that sum to exactly
  /// zero are left out, so that the result is to_sparse of the same rows written into a zeroed dense matrix
  /// (bit for bit: a dense entry is the same sum, in the same order, from +0). Valid until the next start();
  /// call it once per assembly.
  ///
  /// When the entries came in the same rows and columns, in the same order, as at the last finish() (a
  /// model writing its rows again at another state), the values are written straight into the stored
  /// matrix, each sum formed in the order its terms came: the same bits as a full compression, without
  /// sorting or copying the structure. Any other pattern, or a sum that is now exactly zero under
  /// Zeros::Drop, takes the full path.
  const SparseJacobian& finish(Zeros zeros = Zeros::Keep);
  /// The matrix of the last finish().
  const SparseJacobian& matrix() const { return matrix_; }
  /// Whether the last finish() wrote the values along the recorded pattern (rather than compressing anew).
  bool refilled() const { return refilled_; }

 private:
  [[noreturn]] void column_outside(int col) const;
  // Sorts, sums and compacts the rows into matrix_, and records the pattern for refill().
  void compress(Zeros zeros);
  // Writes the values into matrix_ along the recorded pattern; false when the result would differ from
  // compress() (under Zeros::Drop, a stored sum that is now zero or a left-out one that is not), matrix_
  // then untouched.
  bool refill(Zeros zeros);

  int cols_ = 0;
  std::vector<int> row_start_{0};
  std::vector<int> columns_;
  std::vector<double> values_;
  std::vector<int> compact_start_;
  SparseJacobian matrix_;
  // The pattern of the last compression: the rows' starts and the columns in the order the entries came,
  // and, for each entry, which sum it goes to (~index for the first term): the sums in matrix_'s order, then
  // those that were exactly zero and left out. pattern_sums_ holds them while refill() forms them.
  bool pattern_valid_ = false;
  bool refilled_ = false;
  Zeros pattern_zeros_ = Zeros::Keep;
  int pattern_cols_ = 0;
  std::vector<int> pattern_row_start_;
  std::vector<int> pattern_columns_;
  std::vector<int> pattern_target_;
  std::vector<double> pattern_sums_;
};

/// A dense matrix as a SparseJacobian, its exact zeros left out.
SparseJacobian to_sparse(const Matrix& dense);

/// The dense m×n matrix of a SparseJacobian (its absent entries +0).
void to_dense(const SparseJacobian& sparse, Matrix& dense);

/// Row 0 of `row` times x: the sum of the terms of its entries in column order, from +0, whatever x holds in
/// the columns the row does not touch. The dense product's value, but for the sign of a zero sum and a
/// non-finite x outside the row: for comparisons and sums with a tolerance, in time of the row's entries.
double row_dot(const SparseJacobian& row, const Vector& x);

/// Row 0 of `row` times x, with the bits of Eigen 3.4's dot product of the same row dense (its terms in
/// column order, summed from the first): the dense zeros change a non-zero sum in nothing, so the sum is that
/// of the row's entries unless it is zero, and a zero sum is −0 only when every term is −0 (x finite;
/// otherwise the dense product). A point's rate from the few entries of its row, as a dense row would give
/// it, for a value that is shown; it reads all of x.
double dense_order_dot(const SparseJacobian& row, const Vector& x);

}  // namespace oblique
