// Constants and small helpers shared by the Simulator's source files (simulator.cpp, simulator_*.cpp): the
// Simulator is one class whose parts — construction and state, contact points, the smooth dynamics, events,
// impacts — each have their own file.
#pragma once

#include <limits>

#include "math/max_abs.hpp"
#include "oblique/math/projection.hpp"
#include "oblique/model/model.hpp"
#include "oblique/sparse/sparse_rows.hpp"

namespace oblique::detail {

/// A budget no call reaches: set-up and restores run whole.
inline constexpr double kUnlimitedWork = std::numeric_limits<double>::infinity();

/// Passes of the Gauss–Newton position projection after a step.
inline constexpr int kMaxProjectionPasses = 8;

/// A of `rows` in compressed rows: the one they hold when sparse (by reference, not copied), else
/// to_sparse of the dense A, written into `converted`.
inline const SparseJacobian& compressed_jacobian(const ConstraintRows& rows, SparseJacobian& converted) {
  if (rows.sparse) return rows.sparse_rows.matrix();
  converted = to_sparse(rows.jacobian);
  return converted;
}


}  // namespace oblique::detail
