// Eigen's LU with partial pivoting of a square matrix, factorised one column panel at a time, so that a
// work gate can stop it between two panels and the next call take it up there. Internal.
//
// The panels, their order and each panel's operations are those of Eigen 3.4's blocked PartialPivLU
// (partial_lu_impl::blocked_lu: panels of size/8 columns rounded down to a multiple of 16, at least 8;
// each panel factorised by Eigen's own routine, its row swaps applied left and right, then
// A12 ← L11⁻¹A12 and A22 ← A22 − A21·A12), so the factors and solutions are Eigen's bit for bit, however
// the factorisation was split. A matrix of at most 16 columns is one piece, as Eigen factorises it unblocked.
#pragma once

#include <Eigen/Core>

#include "oblique/math/work_gate.hpp"

namespace oblique::detail {

class PiecewiseLu {
 public:
  /// Starts the factorisation of the square `matrix`, none of its panels factorised yet.
  void start(Eigen::MatrixXd matrix);

  /// Whether start() was called (and not reset since).
  bool started() const { return started_; }
  /// Whether every panel is factorised: solve() may be called.
  bool done() const { return started_ && next_column_ >= size(); }

  /// Factorises the panels left, asking `gate` (when given) before each with the flops it is expected to
  /// spend. A gate that throws leaves the factorisation at that panel; the next call goes on from there.
  void factorize(const WorkGate& gate = {});

  /// x with A x = b, as Eigen's PartialPivLU::solve gives it (requires done()).
  Eigen::VectorXd solve(const Eigen::VectorXd& b) const;

  /// Drops the factorisation (started() false).
  void reset();

  /// Flops of the panel that starts at column `k` of an n×n factorisation with panels of `block` columns.
  static double panel_flops(Eigen::Index n, Eigen::Index k, Eigen::Index block);
  /// The columns of each panel Eigen takes for an n×n matrix (n itself when it factorises unblocked).
  static Eigen::Index panel_width(Eigen::Index n);

 private:
  Eigen::Index size() const { return lu_.rows(); }

  Eigen::MatrixXd lu_;
  Eigen::VectorXi transpositions_;
  Eigen::Index next_column_ = 0;
  bool started_ = false;
};

}  // namespace oblique::detail
