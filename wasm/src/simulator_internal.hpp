// Constants and small helpers shared by the Simulator's source files (simulator.cpp, simulator_*.cpp): the
// Simulator is one class whose parts — construction and state, contact points, the smooth dynamics, events,
// impacts — each have their own file.
#pragma once

#include <limits>

#include "oblique/projection.hpp"

namespace oblique::detail {

/// A budget no call reaches: set-up and restores run whole.
inline constexpr double kUnlimitedWork = std::numeric_limits<double>::infinity();

/// Passes of the Gauss–Newton position projection after a step.
inline constexpr int kMaxProjectionPasses = 8;

/// max |v_i| (0 for an empty v).
inline double max_abs(const Vector& v) { return v.size() > 0 ? v.cwiseAbs().maxCoeff() : 0.0; }

}  // namespace oblique::detail
