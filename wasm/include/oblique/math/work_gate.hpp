// A gate that long computations ask before each of their pieces, so that a caller's work budget can stop
// them between two pieces and take them up later where they stopped (the simulator's WorkBudget::piece).
#pragma once

#include <functional>

namespace oblique {

/// Asked before each piece of a long computation with the flops the piece is expected to spend: returns to
/// let the piece run, or throws to stop the computation there, to be taken up again later
/// (DelassusFactorization::factorize_as_new, FrictionalImpactSearch::step).
using WorkGate = std::function<void(double flops)>;

}  // namespace oblique
