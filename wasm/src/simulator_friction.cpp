// The Simulator's Coulomb friction (docs/friction.md): which points of an impact are frictional pairs.
// Members of Simulator, kept apart from simulator.cpp.
#include <algorithm>
#include <cmath>
#include <limits>

#include "oblique/simulator.hpp"

namespace oblique {

bool Simulator::frictional(int point) const {
  const double mu = friction_of(point);
  return mu > 0.0 && std::isfinite(mu);
}

std::vector<FrictionPair> Simulator::friction_pairs(const std::vector<int>& points, const RowLayout& layout) const {
  // The points with a tangential row and a finite μ > 0 (a `stick` point's row is simply plastic).
  std::vector<FrictionPair> pairs;
  for (std::size_t j = 0; j < points.size(); ++j) {
    const double mu = friction_of(points[j]);
    if (layout.tangent[j] && std::isfinite(mu)) pairs.push_back({layout.normal_rows[j], layout.normal_rows[j] + 1, mu});
  }
  return pairs;
}

}  // namespace oblique
