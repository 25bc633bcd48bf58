// The nearly-resting rule (activation_rule.hpp, simulator.hpp "Zeno rule"): inside a stack, an impact slower
// than v_rest = √(2 ε |g| L) is plastic, where a lone body keeps the scenario's rest speed. Checked against
// closed forms: a touching column dropped as one block lands as one impact, every disk leaving at e·V with
// the impulses its weight above calls for, and bounces as one ball until its speed falls below v_rest; a disk
// dropped on a resting stack bounces with its e above v_rest and stops below it; without gravity nothing
// changes; a settling column comes to rest at its closed-form heights and loads.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "oblique/simulation/activation_rule.hpp"
#include "oblique/simulation/simulator.hpp"
#include "scene_families.hpp"
#include "scenario_builders.hpp"
#include "simulation_runs.hpp"

namespace oblique {
namespace {

using testing::kG;
using testing::run_to;

constexpr double kStackRadius = 0.05;  // every disk of these scenes: radius 5 cm, 1 kg
constexpr double kStackMass = 1.0;

/// A column of `disks` touching disks on the floor y = 0, the lowest `height` above it, all falling at
/// `speed` (a block dropped as one); restitution `e` on every contact.
Scenario stack_falling_column(int disks, double height, double speed, double e) {
  Scenario s;
  s.title = "falling column";
  s.gravity = Vec2(0.0, -kG);
  s.restitution = e;
  s.planes.push_back(testing::plane(Vec2::Zero(), Vec2::UnitY()));
  for (int k = 0; k < disks; ++k) {
    const Vec2 centre(0.0, height + kStackRadius + 2.0 * kStackRadius * k);
    s.bodies.push_back(testing::disk("d" + std::to_string(k), kStackMass, kStackRadius, centre, Vec2(0.0, -speed)));
  }
  s.contacts.push_back(testing::body_plane(0, 0));
  for (int k = 0; k + 1 < disks; ++k) s.contacts.push_back(testing::disk_disk(k, k + 1));
  return s;
}

/// `resting` touching disks at rest on the floor, and one more disk `drop` above the top one's top, at rest.
Scenario stack_with_dropped_disk(int resting, double drop, double e, double gravity = kG) {
  Scenario s = stack_falling_column(resting, 0.0, 0.0, e);
  s.gravity = Vec2(0.0, -gravity);
  const double top = 2.0 * kStackRadius * resting;
  s.bodies.push_back(testing::disk("dropped", kStackMass, kStackRadius, Vec2(0.0, top + drop + kStackRadius)));
  s.contacts.push_back(testing::disk_disk(resting - 1, resting));
  return s;
}

/// v_rest of two of these disks (L: a disk's size, its radius) under g.
double stack_rest_speed() { return std::sqrt(2.0 * kNearlyRestingHeight * kG * kStackRadius); }

/// The index in `record` of the impact point of ContactDef `contact`, or −1.
int stack_point_of(const ImpactRecord& record, int contact) {
  for (std::size_t j = 0; j < record.contacts.size(); ++j) {
    if (record.contacts[j] == contact) return static_cast<int>(j);
  }
  return -1;
}

/// The number of impacts with approach speeds V, eV, e²V, ... at or above v_rest: the bounces before the
/// plastic one. Fails the test when one of them lies within 2 % of v_rest (too close to call).
int stack_bounces_above(double speed, double e, double rest_speed) {
  int bounces = 0;
  for (double u = speed; u >= rest_speed; u *= e) {
    EXPECT_GT(std::abs(u / rest_speed - 1.0), 0.02) << "a bounce too close to v_rest";
    ++bounces;
  }
  EXPECT_GT(std::abs(speed * std::pow(e, bounces) / rest_speed - 1.0), 0.02) << "a bounce too close to v_rest";
  return bounces;
}

TEST(NearlyRestingSpeed, IsTheSpeedOfABounceOfAThousandthOfTheSize) {
  // ½ v_rest² = g · ε L: the bounce rises ε L.
  const double v = nearly_resting_speed(kG, 0.05);
  EXPECT_NEAR(0.5 * v * v / kG, kNearlyRestingHeight * 0.05, 1e-18);
  EXPECT_NEAR(v, 0.0313209, 1e-7);
  // Scaled in length by s (the same g): v_rest by √s, as every speed of the scene.
  EXPECT_NEAR(nearly_resting_speed(kG, 0.05 * 4.0), 2.0 * v, 1e-15);
  // No gravity, no size: 0 (the scenario's rest speed alone).
  EXPECT_EQ(nearly_resting_speed(0.0, 0.05), 0.0);
  EXPECT_EQ(nearly_resting_speed(kG, 0.0), 0.0);
}

TEST(RestingStacks, ATouchingColumnDroppedAsOneBlockLandsAsOneImpact) {
  // 8 touching disks, the lowest 2 cm above the floor, falling at 1 m/s: they meet the floor at
  // V = √(v₀² + 2gh), all together.
  const int disks = 8;
  const double e = 0.6, height = 0.02, v0 = 1.0;
  Simulator sim(stack_falling_column(disks, height, v0, e));
  const double landing = std::sqrt(v0 * v0 + 2.0 * kG * height);
  const double t_land = (landing - v0) / kG;
  ASSERT_TRUE(sim.advance_to_next_impact(1.0));
  ASSERT_EQ(sim.impacts().size(), 1u);
  const ImpactRecord& impact = sim.impacts().front();
  const ImpactResult& r = impact.result;
  EXPECT_NEAR(impact.time, t_land, 1e-9);
  // One impact of every point: the floor's and the seven between the disks.
  ASSERT_EQ(impact.points.size(), static_cast<std::size_t>(disks));
  for (int b = 0; b < disks; ++b) {
    EXPECT_NEAR(r.qd_minus(3 * b + 1), -landing, 1e-9) << "disk " << b;
    // Every disk leaves at e·V, as one block.
    EXPECT_NEAR(r.qd_plus(3 * b + 1), e * landing, 1e-9) << "disk " << b;
    EXPECT_NEAR(r.qd_plus(3 * b), 0.0, 1e-12);
    EXPECT_NEAR(r.qd_plus(3 * b + 2), 0.0, 1e-12);
  }
  EXPECT_NEAR(r.energy_ratio, e * e, 1e-9);
  // Momentum balance: the floor's impulse is the block's change of momentum, and each contact between
  // disks passes on that of the disks above it: i_λ = (disks above) · m (1 + e) V.
  const double per_disk = kStackMass * (1.0 + e) * landing;
  const int floor = stack_point_of(impact, 0);
  ASSERT_GE(floor, 0);
  EXPECT_NEAR(r.impulse_multipliers(impact.normal_rows[static_cast<std::size_t>(floor)]), disks * per_disk, 1e-9);
  for (int c = 1; c < disks; ++c) {
    const int j = stack_point_of(impact, c);
    ASSERT_GE(j, 0) << "contact " << c;
    EXPECT_NEAR(r.impulse_multipliers(impact.normal_rows[static_cast<std::size_t>(j)]), (disks - c) * per_disk, 1e-9)
        << "contact " << c;
  }
  // The floor took its e; it is in a stack, with v_rest as its rest speed (far below V).
  const std::size_t f = static_cast<std::size_t>(floor);
  EXPECT_EQ(r.restitution(impact.normal_rows[f]), e);
  ASSERT_EQ(impact.rest_speeds.size(), impact.points.size());
  EXPECT_NEAR(impact.rest_speeds[f], stack_rest_speed(), 1e-15);
  EXPECT_TRUE(impact.nearly_resting[f]);
}

TEST(RestingStacks, AFallingColumnBouncesAsOneBallUntilItsSpeedFallsBelowTheStacksRestSpeed) {
  // The block bounces at V, eV, e²V, ... and the first impact below v_rest is plastic: the bounces are
  // those at or above v_rest, then one plastic impact, then rest. (With the scenario's rest speed of 1 mm/s
  // alone it would bounce until e^k V < 1 mm/s: 14 bounces instead of 8.)
  const int disks = 4;
  const double e = 0.6, height = 0.02, v0 = 1.0;
  Simulator sim(stack_falling_column(disks, height, v0, e));
  const double landing = std::sqrt(v0 * v0 + 2.0 * kG * height);
  const int bounces = stack_bounces_above(landing, e, stack_rest_speed());
  EXPECT_LT(bounces, stack_bounces_above(landing, e, sim.scenario().integrator.rest_speed));
  run_to(sim, 1.0);
  const auto& impacts = sim.impacts();
  ASSERT_EQ(impacts.size(), static_cast<std::size_t>(bounces + 1));
  double speed = landing;
  for (int k = 0; k <= bounces; ++k) {
    const ImpactRecord& impact = impacts[static_cast<std::size_t>(k)];
    const int floor = stack_point_of(impact, 0);
    ASSERT_GE(floor, 0) << "impact " << k;
    const int row = impact.normal_rows[static_cast<std::size_t>(floor)];
    EXPECT_NEAR(-impact.result.normal_velocity_minus(row), speed, 1e-8 * landing) << "impact " << k;
    const double used = k < bounces ? e : 0.0;
    EXPECT_EQ(impact.result.restitution(row), used) << "impact " << k;
    for (int b = 0; b < disks; ++b) EXPECT_NEAR(impact.result.qd_plus(3 * b + 1), used * speed, 1e-8) << "impact " << k;
    speed *= e;
  }
  // At rest on the floor: every contact active, carrying the weight above it.
  for (const ContactPoint& point : sim.contact_points()) EXPECT_EQ(point.state, ContactState::Active);
  EXPECT_NEAR(sim.contact_points()[0].multiplier, disks * kStackMass * kG, 1e-9);
  EXPECT_NEAR(sim.velocities().norm(), 0.0, 1e-12);
}

TEST(RestingStacks, AFastImpactInsideAStackStillBouncesWithItsRestitution) {
  // A disk dropped 5 cm onto a resting stack of three meets it at u = √(2gh) ≈ 1 m/s ≫ v_rest: it leaves at
  // e·u, the stack held by its plastic resting rows; the floor and every contact below pass on m(1 + e)u.
  const double e = 0.7, drop = 0.05;
  Simulator sim(stack_with_dropped_disk(3, drop, e));
  ASSERT_TRUE(sim.advance_to_next_impact(1.0));
  const ImpactRecord& impact = sim.impacts().back();
  const ImpactResult& r = impact.result;
  const double u = std::sqrt(2.0 * kG * drop);
  const int top = stack_point_of(impact, 3);
  ASSERT_GE(top, 0);
  const std::size_t j = static_cast<std::size_t>(top);
  EXPECT_NEAR(-r.normal_velocity_minus(impact.normal_rows[j]), u, 1e-9);
  EXPECT_EQ(r.restitution(impact.normal_rows[j]), e);
  EXPECT_NEAR(r.qd_plus(3 * 3 + 1), e * u, 1e-9);
  for (int b = 0; b < 3; ++b) EXPECT_NEAR(r.qd_plus(3 * b + 1), 0.0, 1e-12) << "disk " << b;
  EXPECT_NEAR(r.energy_ratio, e * e, 1e-9);
  for (int c = 0; c < 4; ++c) {
    const int k = stack_point_of(impact, c);
    ASSERT_GE(k, 0) << "contact " << c;
    EXPECT_NEAR(r.impulse_multipliers(impact.normal_rows[static_cast<std::size_t>(k)]), kStackMass * (1.0 + e) * u, 1e-9)
        << "contact " << c;
  }
  // Its rest speed was the stack's: the dropped disk lands on a disk that rests on another.
  EXPECT_NEAR(impact.rest_speeds[j], stack_rest_speed(), 1e-15);
  EXPECT_TRUE(impact.nearly_resting[j]);
}

TEST(RestingStacks, ADiskLandingOnAStackBouncesAboveTheRestSpeedAndStopsBelowIt) {
  // Dropped from the height whose landing speed u is 1.25·v_rest, the disk bounces once (e·u < v_rest) and
  // stops at its second landing; from 0.8·v_rest it stops at once. The scenario's rest speed (1 mm/s)
  // alone would let both bounce.
  const double e = 0.5, v_rest = stack_rest_speed();
  for (const double ratio : {1.25, 0.8}) {
    const double u = ratio * v_rest;
    Simulator sim(stack_with_dropped_disk(2, u * u / (2.0 * kG), e));
    run_to(sim, 0.2);
    const auto& impacts = sim.impacts();
    ASSERT_EQ(impacts.size(), ratio > 1.0 ? 2u : 1u) << "u = " << ratio << " v_rest";
    double speed = u;
    for (std::size_t k = 0; k < impacts.size(); ++k) {
      const ImpactRecord& impact = impacts[k];
      const int top = stack_point_of(impact, 2);
      ASSERT_GE(top, 0);
      const std::size_t j = static_cast<std::size_t>(top);
      const int row = impact.normal_rows[j];
      EXPECT_NEAR(-impact.result.normal_velocity_minus(row), speed, 1e-6 * v_rest) << "impact " << k;
      const double used = speed >= v_rest ? e : 0.0;
      EXPECT_EQ(impact.result.restitution(row), used) << "impact " << k;
      EXPECT_NEAR(impact.result.qd_plus(3 * 2 + 1), used * speed, 1e-9) << "impact " << k;
      EXPECT_NEAR(impact.rest_speeds[j], v_rest, 1e-15);
      EXPECT_TRUE(impact.nearly_resting[j]);
      speed *= e;
    }
    EXPECT_NEAR(sim.velocities().norm(), 0.0, 1e-12);
    EXPECT_EQ(sim.contact_points()[2].state, ContactState::Active);
  }
}

TEST(RestingStacks, ALoneBallKeepsTheScenariosRestSpeed) {
  // A ball bouncing on the floor is in no stack: its impacts use rest_speed, as the bouncing ball's closed
  // form needs (test_simulator.cpp), and its records say so.
  Simulator sim(testing::bouncing_ball(0.001, 0.5));
  ASSERT_TRUE(sim.advance_to_next_impact(1.0));
  const ImpactRecord& impact = sim.impacts().front();
  ASSERT_EQ(impact.rest_speeds.size(), 1u);
  EXPECT_EQ(impact.rest_speeds[0], sim.scenario().integrator.rest_speed);
  EXPECT_FALSE(impact.nearly_resting[0]);
  // It approached at √(2g·1 mm) = 0.14 m/s, above v_rest of its size too, and bounced with its e.
  EXPECT_EQ(impact.result.restitution(impact.normal_rows[0]), 0.5);
}

TEST(RestingStacks, WithoutGravityTheRuleIsTheScenariosRestSpeed) {
  // The same stack without gravity: a disk at 5 mm/s (far below v_rest under g, above rest_speed) meets a
  // touching pair at rest and bounces with its e, and the record's rest speed is the scenario's.
  const double e = 0.5, speed = 0.005;
  ASSERT_LT(speed, stack_rest_speed());
  Scenario s = stack_with_dropped_disk(2, 0.001, e, 0.0);
  s.bodies.back().velocity = Vec2(0.0, -speed);
  Simulator sim(s);
  ASSERT_TRUE(sim.advance_to_next_impact(1.0));
  const ImpactRecord& impact = sim.impacts().back();
  const int top = stack_point_of(impact, 2);
  ASSERT_GE(top, 0);
  const std::size_t j = static_cast<std::size_t>(top);
  EXPECT_EQ(impact.result.restitution(impact.normal_rows[j]), e);
  EXPECT_EQ(impact.rest_speeds[j], sim.scenario().integrator.rest_speed);
  EXPECT_FALSE(impact.nearly_resting[j]);
  // Momentum: the three disks, free in space, keep theirs (the floor only touches the lowest, at rest).
  double before = 0.0, after = 0.0;
  for (int b = 0; b < 3; ++b) {
    before += kStackMass * impact.result.qd_minus(3 * b + 1);
    after += kStackMass * impact.result.qd_plus(3 * b + 1);
  }
  const int floor = stack_point_of(impact, 0);
  const double floor_impulse =
      floor >= 0 ? impact.result.impulse_multipliers(impact.normal_rows[static_cast<std::size_t>(floor)]) : 0.0;
  EXPECT_NEAR(after - before, floor_impulse, 1e-12);
}

TEST(RestingStacks, ASettlingColumnComesToRestAtItsClosedFormHeightsAndLoads) {
  // The bench's column of 8 disks with 1 cm gaps, falling at 1 m/s onto the floor (e = 0.8): bounces run
  // up and down the column; it ends at rest, disk k centred at (2k + 1)·r, contact k carrying the weight of
  // the disks above it, (8 − k)·m·g, within 3 s.
  Scenario s = scenes::disk_column(8);
  const double r = s.bodies[0].shape.radius, m = s.bodies[0].mass;
  Simulator sim(s);
  run_to(sim, 3.0);
  for (int k = 0; k < 8; ++k) {
    EXPECT_NEAR(sim.positions()(3 * k + 1), (2 * k + 1) * r, 1e-9) << "disk " << k;
    const ContactPoint& point = sim.contact_points()[static_cast<std::size_t>(k)];
    EXPECT_EQ(point.state, ContactState::Active) << "contact " << k;
    EXPECT_NEAR(point.multiplier, (8 - k) * m * std::abs(s.gravity.y()), 1e-8) << "contact " << k;
  }
  EXPECT_NEAR(sim.velocities().norm(), 0.0, 1e-12);
}

TEST(RestingStacks, AFrictionalPilesPointsAtRestJoinInsteadOfChattering) {
  // The pour of 64 disks with μ = 0.5 (bench/scenes): at 0.115 s a disk's point that its set pulls on is
  // released, its neighbours re-stick one after another, and the set then drives it back into its partner.
  // The settle must take it in again (as without friction); else it is released and struck again, a
  // plastic impact every 0.7 µs without end. Bounded: the impacts of the 5 ms around that instant.
  Simulator sim(scenes::disk_pile(64, 0.5));
  run_to(sim, 0.113);
  const std::size_t before = sim.impacts().size() + sim.dropped_impacts();
  const auto impacts_since = [&] { return sim.impacts().size() + sim.dropped_impacts() - before; };
  do {
    sim.advance_to(0.118);
  } while (sim.work_limit_hit() && impacts_since() < 200u);
  EXPECT_LT(impacts_since(), 200u) << "still chattering at t = " << sim.time();
  EXPECT_EQ(sim.time(), 0.118);
  // Every active point is at rest on its partner (the set's projection left no approach).
  for (const ContactPoint& point : sim.contact_points()) {
    if (point.state == ContactState::Active) EXPECT_GT(point.normal_velocity, -1e-6);
  }
}

}  // namespace
}  // namespace oblique
