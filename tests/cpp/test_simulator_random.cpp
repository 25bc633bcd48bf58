// Random scenes of every shape in a bin with tilted walls — sticking and frictionless contacts, disk–disk
// contacts, ropes, distance and pin joints, restitution from plastic to elastic — through the simulator:
// no error, nothing penetrating beyond the event slack, the constraints held, and the
// energy changing only at impacts, by their W_loss (the smooth phases conserve it), and every scene
// getting through with a bounded number of calls (no cascade of events that never ends).
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>

#include <Eigen/Geometry>

#include "oblique/simulation/simulator.hpp"
#include "scenario_builders.hpp"

namespace oblique {
namespace {

using testing::body_plane;
using testing::disk;
using testing::disk_disk;
using testing::joint;
using testing::make_body;
using testing::plane;

Scenario random_scene(unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  Scenario s;
  s.gravity = Vec2(0.0, -9.81);
  s.restitution = uniform(rng) < 0.3 ? 1.0 : uniform(rng);
  s.planes.push_back(plane(Vec2(0.0, 0.0), Vec2(0.4 * uniform(rng) - 0.2, 1.0)));
  s.planes.push_back(plane(Vec2(-1.0, 0.0), Vec2(1.0, 0.1)));
  s.planes.push_back(plane(Vec2(1.0, 0.0), Vec2(-1.0, 0.2)));
  const int bodies = 2 + static_cast<int>(seed % 4);
  for (int i = 0; i < bodies; ++i) {
    // One body per 0.6 m slot in height, all of them smaller than 0.25 m in reach: no initial overlap.
    const Vec2 position(-0.5 + uniform(rng), 0.6 + 0.6 * i);
    const double angle = 6.0 * uniform(rng);
    BodyDef body;
    switch (rng() % 5) {
      case 0: body = disk("disk", 1.0, 0.05 + 0.15 * uniform(rng), position, Vec2(uniform(rng) - 0.5, 0.0)); break;
      case 1:
        body = make_body("box", Shape::Type::Box, 1.0, position, angle);
        body.shape.width = 0.1 + 0.2 * uniform(rng);
        body.shape.height = 0.1 + 0.1 * uniform(rng);
        break;
      case 2:
        body = make_body("rod", Shape::Type::Rod, 0.5, position, angle);
        body.shape.length = 0.2 + 0.25 * uniform(rng);
        body.shape.radius = 0.02;
        break;
      case 3:
        body = make_body("wheel", Shape::Type::Wheel, 1.0, position, angle);
        body.shape.radius = 0.2;
        body.shape.spokes = 3 + static_cast<int>(rng() % 8);
        body.angular_velocity = 4.0 * uniform(rng) - 2.0;
        break;
      default:
        body = make_body("point", Shape::Type::Point, 0.2, position);
        body.shape.radius = 0.03;
        break;
    }
    s.bodies.push_back(body);
    for (int p = 0; p < 3; ++p) s.contacts.push_back(body_plane(i, p, std::nullopt, uniform(rng) < 0.2));
  }
  for (int a = 0; a < bodies; ++a) {
    for (int b = a + 1; b < bodies; ++b) {
      const auto round = [&](int i) {
        return s.bodies[i].shape.type == Shape::Type::Disk || s.bodies[i].shape.type == Shape::Type::Point;
      };
      if (round(a) && round(b)) {
        ContactDef c = disk_disk(a, b);
        c.stick = uniform(rng) < 0.2;
        s.contacts.push_back(c);
      }
    }
  }
  if (uniform(rng) < 0.5) s.joints.push_back(joint(JointDef::Type::Distance, 0, Vec2::Zero(), 1, Vec2::Zero()));
  if (uniform(rng) < 0.3) {
    // A pin to the world at a point of body 0 (its anchor, turned by the body's angle, in world frame).
    const Vec2 local(0.05, 0.05);
    const Vec2 world = s.bodies[0].position + Eigen::Rotation2Dd(s.bodies[0].angle) * local;
    s.joints.push_back(joint(JointDef::Type::Pin, kWorld, world, 0, local));
  }
  if (uniform(rng) < 0.5) {
    ContactDef rope;
    rope.type = ContactDef::Type::Rope;
    rope.body_a = kWorld;
    rope.anchor_a = Vec2(0.0, 4.0);
    rope.body_b = bodies - 1;
    rope.length = (s.bodies[bodies - 1].position - rope.anchor_a).norm() + 0.3;
    s.contacts.push_back(rope);
  }
  return s;
}

class RandomScene : public ::testing::TestWithParam<unsigned> {};

TEST_P(RandomScene, RunsWithEnergyChangingOnlyAtImpacts) {
  const Scenario scenario = random_scene(GetParam());
  Simulator sim(scenario);
  double worst_smooth = 0.0, worst_violation = 0.0, scale = std::abs(sim.energy().total) + sim.energy().kinetic;
  int calls = 0;
  while (sim.time() < 1.5 || sim.work_limit_hit()) {
    ASSERT_LT(++calls, 10000) << "t = " << sim.time();
    const double before = sim.energy().total;
    const std::size_t logged_before = sim.impacts().size();
    sim.advance_to_next_impact_before(1.5);  // may return early, at its work budget
    ASSERT_TRUE(sim.positions().allFinite() && sim.velocities().allFinite());
    // The impacts just logged (an impact may be followed by its plastic follow-up) account for the change.
    double impact_change = 0.0;
    for (std::size_t i = logged_before; i < sim.impacts().size(); ++i) {
      const ImpactRecord& impact = sim.impacts()[i];
      impact_change += impact.result.kinetic_energy_change;
      // An energy gain happens only where the paper's consistency test (QMI) fails, and is flagged.
      if (impact.result.kinetic_energy_change > 1e-9 * scale && !impact.scheduled) {
        EXPECT_TRUE(impact.result.flags.energy_gain);
        EXPECT_FALSE(impact.result.energy_consistent);
      }
    }
    worst_smooth = std::max(worst_smooth, std::abs(sim.energy().total - before - impact_change));
    worst_violation = std::max(worst_violation, sim.constraint_violation());
    scale = std::max(scale, sim.energy().kinetic);
    // Never penetrating beyond a point's event slack (which follows its bodies' size, simulator.hpp).
    for (int k = 0; k < sim.contact_point_count(); ++k) {
      ASSERT_GE(sim.contact_points()[static_cast<std::size_t>(k)].gap, -sim.event_slack(k) - 1e-15) << "t = " << sim.time();
    }
  }
  EXPECT_LT(worst_smooth, 1e-7 * scale);
  EXPECT_LT(worst_violation, 1e-9);
}

INSTANTIATE_TEST_SUITE_P(Seeds, RandomScene, ::testing::Range(0u, 16u));

}  // namespace
}  // namespace oblique
