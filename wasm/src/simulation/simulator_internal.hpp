// Constants and small helpers shared by the Simulator's source files (simulator.cpp, simulator_*.cpp): the
// Simulator is one class whose parts — construction and state, contact points, the smooth dynamics, events,
// impacts — each have their own file.
#pragma once

#include <limits>

#include "math/max_abs.hpp"
#include "oblique/math/projection.hpp"

namespace oblique::detail {

/// A budget no call reaches: set-up and restores run whole.
inline constexpr double kUnlimitedWork = std::numeric_limits<double>::infinity();

/// Passes of the Gauss–Newton position projection after a step.
inline constexpr int kMaxProjectionPasses = 8;


}  // namespace oblique::detail
