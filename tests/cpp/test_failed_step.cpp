// A step that cannot be taken is undone whole (simulator.hpp, Simulator::advance): when the contact points
// would pass kMaxContactPoints in the middle of a run, the call throws a message that names the limit and
// the bodies that hold the most points, and the simulator is left exactly — bit for bit — at the state
// before that step (a scheduled impulse due at the step's start not applied, no record of it in the log),
// shown as it was; a further call fails the same way, and reset or restore_state go on from elsewhere.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "oblique/geometry/automatic_contacts.hpp"
#include "oblique/io/simulation_state_json.hpp"
#include "oblique/simulation/simulator.hpp"
#include "scenario_builders.hpp"

namespace oblique {
namespace {

using testing::body_plane;
using testing::disk;
using testing::plane;

/// 128 wheels of 64 spokes, far above the floor and out of the automatic contacts, each with a declared
/// contact on the floor: 8192 declared points, the limit. A ball falls toward the floor ("collide": "all"):
/// its first automatic point, found a few steps later, makes one point too many.
Scenario crowded_scene() {
  Scenario s;
  s.collide_all = true;
  s.gravity = Vec2::Zero();
  s.planes.push_back(plane(Vec2::Zero(), Vec2::UnitY()));
  s.planes.back().name = "floor";
  for (int i = 0; i < 128; ++i) {
    BodyDef wheel = testing::make_body("wheel " + std::to_string(i), Shape::Type::Wheel, 1.0, Vec2(0.3 * i, 5.0));
    wheel.shape.radius = 0.1;
    wheel.shape.spokes = 64;
    wheel.collides = false;
    s.bodies.push_back(wheel);
    s.contacts.push_back(body_plane(i, 0));
  }
  s.bodies.push_back(disk("ball", 1.0, 0.1, Vec2(-1.0, 0.11), Vec2(0.0, -1.0)));
  return s;
}

/// Everything that determines the future, as text: equal texts are equal states, to the last bit.
std::string state_text(const Simulator& sim) { return state_to_json(sim.save_state()).dump(); }

/// Advances one grid step per call until a call throws; returns its message ("" if none did in 0.05 s).
std::string run_until_failure(Simulator& sim, std::string& before, Vector& shown_before) {
  const double step = sim.scenario().integrator.step;
  for (int k = 1; k <= 50; ++k) {
    before = state_text(sim);
    shown_before = sim.positions();
    try {
      sim.advance_to(static_cast<double>(k) * step);
    } catch (const std::runtime_error& error) {
      return error.what();
    }
  }
  return "";
}

TEST(FailedStep, TooManyContactPointsUndoesTheStepAndNamesTheLimitAndTheBodies) {
  ASSERT_EQ(kMaxContactPoints, 128 * 64);
  Simulator sim(crowded_scene());
  ASSERT_EQ(sim.contact_point_count(), kMaxContactPoints);
  std::string before;
  Vector shown;
  const std::string message = run_until_failure(sim, before, shown);
  ASSERT_FALSE(message.empty()) << "no step failed";
  EXPECT_NE(message.find("too many contact points"), std::string::npos) << message;
  EXPECT_NE(message.find("8193"), std::string::npos) << message;
  EXPECT_NE(message.find("the limit is 8192"), std::string::npos) << message;
  EXPECT_NE(message.find("8192 declared, 1 found"), std::string::npos) << message;
  EXPECT_NE(message.find("\"wheel 0\" (64)"), std::string::npos) << message;
  // Exactly the state before the call, shown as it was; the next call fails the same way.
  EXPECT_EQ(state_text(sim), before);
  EXPECT_EQ(sim.positions(), shown);
  EXPECT_EQ(sim.contact_point_count(), kMaxContactPoints);
  const double failed_at = sim.time();
  EXPECT_GT(failed_at, 0.0);
  try {
    sim.advance(0.01);
    ADD_FAILURE() << "the step was taken";
  } catch (const std::runtime_error& error) {
    EXPECT_EQ(std::string(error.what()), message);
  }
  EXPECT_EQ(state_text(sim), before);
  // Still usable: reset runs the scenario from its start again, as a new simulator does.
  sim.reset();
  sim.advance_to(failed_at);
  Simulator fresh(crowded_scene());
  fresh.advance_to(failed_at);
  EXPECT_EQ(state_text(sim), state_text(fresh));
}

TEST(FailedStep, AnImpulseDueAtTheFailedStepIsNotAppliedNorLogged) {
  // The same scene with an impulse on a wheel at the instant the failing step starts, reached in one call:
  // the call commits its steps up to that instant, then its last transaction applies the impulse (a logged
  // impact) before it finds the points. Undone, neither the velocity nor the log nor the count of impulses
  // applied shows it: the state is the one the scene without the impulse fails at.
  Simulator probe(crowded_scene());
  std::string before;
  Vector shown;
  ASSERT_FALSE(run_until_failure(probe, before, shown).empty());
  Scenario s = crowded_scene();
  ImpulseDef kick;
  kick.body = 3;
  kick.time = probe.time();
  kick.impulse = Vec2(0.5, 0.0);
  s.impulses.push_back(kick);
  Simulator sim(s);
  // Calls stopped by the work budget are called again, up to the failing step.
  EXPECT_THROW(
      {
        do sim.advance_to(probe.time() + 0.01);
        while (sim.work_limit_hit());
      },
      std::runtime_error);
  EXPECT_EQ(sim.time(), probe.time());
  EXPECT_EQ(state_text(sim), state_text(probe));
  EXPECT_EQ(sim.save_state().next_impulse, 0u);
  EXPECT_EQ(sim.velocities()(9), 0.0);
  EXPECT_TRUE(sim.impacts().empty());
}

}  // namespace
}  // namespace oblique
