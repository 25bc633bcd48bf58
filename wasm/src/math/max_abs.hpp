// The infinity norm every layer measures residuals and tolerances with.
#pragma once

#include "oblique/math/projection.hpp"

namespace oblique::detail {

/// max |x_i|, 0 for an empty vector.
inline double max_abs(const Vector& x) { return x.size() > 0 ? x.cwiseAbs().maxCoeff() : 0.0; }

}  // namespace oblique::detail
