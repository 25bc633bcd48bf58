// The initial state of touching points at rest (Simulator::activate_at_rest): every one is active, and the
// frictional ones take their stick/slip modes in the order the load reaches them. Two stacked rows of
// touching disks sliding on a floor are eight identical columns side by side: each moves as the first, the
// neighbours carry no force between them, no impact comes, and friction only takes energy away. Starting
// every point sticking instead made the rows a train of gears whose switches, one at a time, pressed the
// columns together differently and chattered in impacts at no approach speed from t = 0.
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>

#include "oblique/simulation/simulator.hpp"
#include "scenario_builders.hpp"
#include "simulation_runs.hpp"

namespace oblique {
namespace {

constexpr int kColumns = 8;
constexpr double kMu = 0.3, kGravity = 9.81, kMass = 1.0;

/// Two rows of kColumns touching disks of 1 kg, one on the other, on a floor with μ = 0.3, all moving at
/// 1 m/s along it.
Scenario sliding_rows() {
  Scenario s = testing::disk_rows_on_floor(2, kColumns, 0.0, kMu);
  for (BodyDef& body : s.bodies) body.velocity = Vec2(1.0, 0.0);
  return s;
}

/// The largest difference between the velocities of column `column` (its bottom and top disk) and
/// column 0's.
double column_difference(const Simulator& sim, int column) {
  double most = 0.0;
  for (int row = 0; row < 2; ++row) {
    const Eigen::Index first = 3 * (row * kColumns), other = 3 * (row * kColumns + column);
    most = std::max(most, (sim.velocities().segment<3>(other) - sim.velocities().segment<3>(first)).cwiseAbs().maxCoeff());
  }
  return most;
}

TEST(InitialModes, StackedRowsSlidingOnAFloorMoveAsIdenticalColumnsWithoutImpact) {
  const Scenario s = sliding_rows();
  Simulator sim(s);
  double energy = sim.energy().total;
  for (int sample = 1; sample <= 6; ++sample) {
    testing::run_to(sim, 0.005 * sample);
    SCOPED_TRACE(sim.time());
    EXPECT_TRUE(sim.impacts().empty());
    // Every column moves as the first: the scene is the same column repeated.
    for (int column = 1; column < kColumns; ++column) EXPECT_LE(column_difference(sim, column), 1e-12) << column;
    // Every touching point is active; the neighbours side by side carry no force, the floor slides.
    int floor_points = 0, neighbours = 0;
    for (const ContactPoint& p : sim.contact_points()) {
      ASSERT_NE(p.state, ContactState::Inactive);
      if (p.body_a == kWorld || p.body_b == kWorld) {
        ++floor_points;
        EXPECT_NE(p.slip, 0);
        EXPECT_NEAR(std::abs(p.friction), kMu * p.multiplier, 1e-9 * p.multiplier);
      } else if (std::abs(p.normal.x()) > 0.99) {
        ++neighbours;
        EXPECT_LE(std::abs(p.multiplier), 1e-9 * kMass * kGravity);
      }
    }
    EXPECT_EQ(floor_points, kColumns);
    EXPECT_EQ(neighbours, 2 * (kColumns - 1));
    // Friction takes energy; nothing gives it.
    EXPECT_LE(sim.energy().total, energy + 1e-12);
    energy = sim.energy().total;
  }
}

TEST(InitialModes, ASingleSlidingRowFollowsTheLoneDiskUntilItRolls) {
  // One row: each disk slides as a lone disk, v = v₀ − μgt and ω = −2μgt/r (I = ½mr²), rolling from
  // t* = v₀/(3μg) = 0.113 s; the neighbours carry nothing.
  Scenario s = testing::disk_rows_on_floor(1, kColumns, 0.0, kMu);
  for (BodyDef& body : s.bodies) body.velocity = Vec2(1.0, 0.0);
  Simulator sim(s);
  const double t = 0.05, r = 0.05;
  testing::run_to(sim, t);
  EXPECT_TRUE(sim.impacts().empty());
  for (int b = 0; b < kColumns; ++b) {
    EXPECT_NEAR(sim.velocities()(3 * b), 1.0 - kMu * kGravity * t, 1e-9) << b;
    EXPECT_NEAR(sim.velocities()(3 * b + 2), -2.0 * kMu * kGravity * t / r, 1e-8) << b;
  }
}

}  // namespace
}  // namespace oblique
