// The smooth phase with sliding friction on compressed rows (Simulator::sliding_dynamics from
// kSparseFrictionCoordinates, oblique_multipliers.hpp): a row of touching disks sliding on its floor, its
// floor points all sliding. Its horizontal momentum falls at μ·(the weight), Coulomb's law summed over the
// floor; the dense oblique dynamics gives the same motion to round-off; and the solve, stopped by the work
// budget before each of its pieces and taken up by the next call, changes no bit of the run.
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <limits>
#include <vector>

#include "comparisons.hpp"
#include "oblique/simulation/simulator.hpp"
#include "scenario_builders.hpp"
#include "simulation_runs.hpp"

namespace oblique {
namespace {

using testing::same_bits;

/// `count` touching disks of 1 kg in a row on a floor with μ = 0.3, all moving at 1 m/s along the floor.
Scenario sliding_row(int count) {
  Scenario s = testing::disk_rows_on_floor(1, count, 0.0, 0.3);
  for (BodyDef& body : s.bodies) body.velocity = Vec2(1.0, 0.0);
  return s;
}

double momentum_x(const Simulator& sim, const Scenario& s) {
  double p = 0.0;
  for (std::size_t b = 0; b < s.bodies.size(); ++b) p += s.bodies[b].mass * sim.velocities()(3 * static_cast<Eigen::Index>(b));
  return p;
}

TEST(SparseSliding, ARowSlidingOnItsFloorLosesMomentumAtMuTimesItsWeightAsOnTheDensePath) {
  const Scenario s = sliding_row(12);
  Simulator sparse(s), dense(s);
  dense.set_sparse_friction_threshold(INT_MAX);
  dense.reset();
  const double t = 0.004;
  testing::run_to(sparse, t);
  testing::run_to(dense, t);
  ASSERT_TRUE(sparse.impacts().empty());
  // Every floor point slides forward, its friction −μλ_n.
  int floor_points = 0;
  for (const ContactPoint& p : sparse.contact_points()) {
    if (p.state == ContactState::Inactive || (p.body_a != kWorld && p.body_b != kWorld)) continue;
    ++floor_points;
    EXPECT_NE(p.slip, 0);
    EXPECT_NEAR(std::abs(p.friction), 0.3 * p.multiplier, 1e-9 * p.multiplier);
    EXPECT_NEAR(p.multiplier, 9.81, 1e-9);
  }
  EXPECT_EQ(floor_points, 12);
  // The floor carries the weight, so the friction takes μ M g t of the momentum.
  const double mass = 12.0, g = 9.81;
  EXPECT_NEAR(momentum_x(sparse, s), mass * (1.0 - 0.3 * g * t), 1e-9 * mass);
  // The dense solve of the same dynamics: the same motion to round-off.
  EXPECT_LE((sparse.positions() - dense.positions()).cwiseAbs().maxCoeff(), 1e-12);
  EXPECT_LE((sparse.velocities() - dense.velocities()).cwiseAbs().maxCoeff(), 1e-9);
}

TEST(SparseSliding, TheSolveStoppedBeforeEachOfItsPiecesAndTakenUpKeepsTheRunsBits) {
  // 30 disks: the factorisations, each slipping row's column and the LU of their system are pieces. A
  // budget of one flop stops every call after its first piece; the run is that of calls that never stop.
  const Scenario s = sliding_row(30);
  const double step = s.integrator.step;
  Simulator cut(s), whole(s);
  whole.set_work_budget(std::numeric_limits<double>::max());
  whole.reset();
  cut.set_work_budget(1.0);
  cut.reset();
  std::vector<double> seen_cut, seen_whole;
  long calls = 0;
  for (int k = 1; k <= 2; ++k) {
    do {
      cut.advance_to(k * step);
      ++calls;
    } while (cut.work_limit_hit());
    whole.advance_to(k * step);
    seen_cut.insert(seen_cut.end(), cut.velocities().data(), cut.velocities().data() + cut.velocities().size());
    seen_whole.insert(seen_whole.end(), whole.velocities().data(), whole.velocities().data() + whole.velocities().size());
  }
  EXPECT_TRUE(whole.impacts().empty());
  EXPECT_TRUE(same_bits(seen_cut, seen_whole));
  // Each step's evaluations, each solve's 30 columns and more: many calls a step.
  EXPECT_GT(calls, 60);
}

}  // namespace
}  // namespace oblique
