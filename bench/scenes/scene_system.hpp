// The constraint system of a scene with every row active — the joints and the normal row of every contact
// point at the initial state — in the two forms the solvers take: the inputs of the dense and the sparse
// kernels of the benchmarks, and of the tests that check the two agree at the families' sizes.
#pragma once

#include "oblique/sparse/delassus.hpp"
#include "oblique/scenario/scenario.hpp"

namespace oblique::scenes {

struct ConstraintSystem {
  Vector masses;            ///< diag M
  Matrix jacobian;          ///< A: the joint rows, then the normal row of every contact point
  SparseJacobian sparse;    ///< the same A in compressed rows
  Vector adot_qd;           ///< Ȧq̇
  Vector bias, applied;     ///< h and u
  Vector velocity;          ///< q̇ of the initial state
};

/// The system of `scenario` at its initial state (throws as Model does for an invalid scenario).
ConstraintSystem every_row_active(const Scenario& scenario);

}  // namespace oblique::scenes
