// The stick/slip search step by step (FrictionalImpactSearch, frictional_impact.hpp), as the simulator runs
// it across calls that the work budget cuts: taken up again from a copy after any step it gives the bits of
// the search run straight, which are solve_frictional_impact's.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <vector>

#include "comparisons.hpp"
#include "friction_systems.hpp"
#include "oblique/friction/frictional_impact.hpp"
#include "oblique/scenario/scenario.hpp"
#include "random_systems.hpp"

namespace oblique {
namespace {

using testing::same_bits;

/// Disks of radius r and mass 1 in the plane (x, y, θ each), some touching each other or the floor y = 0:
/// per contact its normal row (the gap's rate, opening) and its tangential row (the slip of the contact
/// point along t = perp(n)), as the simulator writes them.
struct DiskCluster {
  double radius = 0.05;
  std::vector<Vec2> centres;
  std::vector<std::pair<int, int>> contacts;  // (a, b); b = −1: the floor under a
  Vector mass() const {
    Vector m(3 * static_cast<Eigen::Index>(centres.size()));
    for (std::size_t b = 0; b < centres.size(); ++b) m.segment<3>(3 * static_cast<Eigen::Index>(b)) << 1.0, 1.0, 0.5 * radius * radius;
    return m;
  }
  Matrix jacobian() const {
    Matrix a = Matrix::Zero(2 * static_cast<Eigen::Index>(contacts.size()), 3 * static_cast<Eigen::Index>(centres.size()));
    for (std::size_t k = 0; k < contacts.size(); ++k) {
      const auto [first, second] = contacts[k];
      const Eigen::Index n_row = 2 * static_cast<Eigen::Index>(k), t_row = n_row + 1;
      if (second < 0) {
        // The floor: n = (0, 1); the point r below the centre slips at −(ẋ + rω) along t = (−1, 0).
        a(n_row, 3 * first + 1) = 1.0;
        a(t_row, 3 * first) = -1.0;
        a(t_row, 3 * first + 2) = -radius;
        continue;
      }
      const Vec2 n = (centres[static_cast<std::size_t>(second)] - centres[static_cast<std::size_t>(first)]).normalized();
      const Vec2 t(-n.y(), n.x());
      for (int c = 0; c < 2; ++c) {
        a(n_row, 3 * first + c) = -n(c);
        a(n_row, 3 * second + c) = n(c);
        a(t_row, 3 * first + c) = -t(c);
        a(t_row, 3 * second + c) = t(c);
      }
      a(t_row, 3 * first + 2) = -radius;
      a(t_row, 3 * second + 2) = -radius;
    }
    return a;
  }
  std::vector<FrictionPair> pairs(double mu) const {
    std::vector<FrictionPair> out;
    for (std::size_t k = 0; k < contacts.size(); ++k) out.push_back({2 * static_cast<int>(k), 2 * static_cast<int>(k) + 1, mu});
    return out;
  }
};

/// rows × columns touching disks on the floor, each on the one below and beside it.
DiskCluster touching_grid(int rows, int columns) {
  DiskCluster c;
  const double d = 2 * c.radius;
  for (int i = 0; i < rows; ++i) {
    for (int j = 0; j < columns; ++j) c.centres.emplace_back(j * d, c.radius + i * d);
  }
  for (int i = 0; i < rows; ++i) {
    for (int j = 0; j < columns; ++j) {
      const int b = i * columns + j;
      if (i == 0) c.contacts.emplace_back(b, -1);
      if (j + 1 < columns) c.contacts.emplace_back(b, b + 1);
      if (i + 1 < rows) c.contacts.emplace_back(b, b + columns);
    }
  }
  return c;
}

/// The velocities of a cluster struck from above: the top disks come down at 1 m/s and slide sideways, and
/// every disk has a small random motion of its own.
Vector struck_from_above(const DiskCluster& c, testing::RandomSystems& rng) {
  double top = 0.0;
  for (const Vec2& p : c.centres) top = std::max(top, p.y());
  Vector qd(3 * static_cast<Eigen::Index>(c.centres.size()));
  for (std::size_t b = 0; b < c.centres.size(); ++b) {
    const bool struck = c.centres[b].y() > top - 1e-9;
    qd.segment<3>(3 * static_cast<Eigen::Index>(b)) << (struck ? 0.6 : 0.0) + 0.1 * rng.normal(),
        (struck ? -1.0 : 0.0) + 0.1 * rng.normal(), 2.0 * rng.normal();
  }
  return qd;
}

/// The search stepped to its end.
FrictionalImpactResult search_to_the_end(FrictionalImpactSearch search) {
  while (!search.done()) search.step();
  return search.result();
}

FrictionalImpactResult dense_solve(const DiskCluster& c, const Vector& qd, double e, double mu) {
  const Projection projection(Matrix(c.mass().asDiagonal()), c.jacobian());
  return solve_frictional_impact(projection, qd, Restitution::uniform(e), c.pairs(mu));
}

/// Every number of a result that a run keeps.
std::vector<double> numbers(const FrictionalImpactResult& r) {
  std::vector<double> out(r.qd_plus.data(), r.qd_plus.data() + r.qd_plus.size());
  out.insert(out.end(), r.impulse_multipliers.data(), r.impulse_multipliers.data() + r.impulse_multipliers.size());
  for (const FrictionPairResult& pair : r.pairs) {
    out.insert(out.end(), {static_cast<double>(pair.direction), pair.critical_mu, pair.discriminator, pair.cone_angle});
  }
  out.push_back(static_cast<double>(r.combinations_tried));
  return out;
}

TEST(FrictionalImpactSearch, TakenUpAgainFromACopyAfterAnyStepItGivesTheSameBits) {
  // A 3 × 3 touching grid struck from above (rank-deficient: 30 rows on 27 coordinates): the search copied
  // after step k (the first steps, then every 64th) and the copy stepped to its end give the bits of the
  // search run straight, which are those of solve_frictional_impact; it took several steps, so the copies
  // were taken in the middle of a search.
  testing::RandomSystems rng(41);
  const DiskCluster c = touching_grid(3, 3);
  const Vector qd = struck_from_above(c, rng);
  const auto projection = std::make_shared<const Projection>(Matrix(c.mass().asDiagonal()), c.jacobian());
  const FrictionalImpactSearch fresh(projection, qd, Restitution::uniform(0.5), c.pairs(0.3));
  const std::vector<double> straight = numbers(search_to_the_end(fresh));
  EXPECT_TRUE(same_bits(straight, numbers(dense_solve(c, qd, 0.5, 0.3))));
  FrictionalImpactSearch search = fresh;
  int steps = 0;
  while (!search.done()) {
    if (steps < 6 || steps % 64 == 0) {
      const FrictionalImpactSearch copy = search;
      EXPECT_TRUE(same_bits(numbers(search_to_the_end(copy)), straight)) << "after step " << steps;
    }
    search.step();
    ++steps;
  }
  EXPECT_EQ(search.steps(), steps);
  EXPECT_EQ(steps, 1 + search.result().combinations_tried);
  EXPECT_GE(steps, 3);
}

TEST(FrictionalImpactSearch, TheResultIsRefusedBeforeTheSearchIsDone) {
  testing::RandomSystems rng(5);
  const DiskCluster c = touching_grid(2, 2);
  const auto projection = std::make_shared<const Projection>(Matrix(c.mass().asDiagonal()), c.jacobian());
  FrictionalImpactSearch search(projection, struck_from_above(c, rng), Restitution::uniform(0.5), c.pairs(0.3));
  EXPECT_THROW(search.result(), std::logic_error);
  search.step();
  EXPECT_EQ(search.steps(), 1);
}

}  // namespace
}  // namespace oblique
