// The model layer does not depend on JSON (issue #11): a translation unit that includes the headers of the
// scenario structs, their checks, the model and the simulator — and nothing else of Oblique — must not see
// nlohmann-json. The check is at compile time: if any of these headers includes nlohmann/json.hpp (or its
// forward declarations), its include guard is defined here and this file does not compile.
#include "oblique/scenario/issues.hpp"
#include "oblique/model/model.hpp"
#include "oblique/scenario/scenario.hpp"
#include "oblique/scenario/scenario_check.hpp"
#include "oblique/simulation/simulator.hpp"

#if defined(INCLUDE_NLOHMANN_JSON_HPP_) || defined(INCLUDE_NLOHMANN_JSON_FWD_HPP_) || defined(NLOHMANN_JSON_VERSION_MAJOR)
#error "the model layer includes nlohmann-json: keep JSON in the *_json and json_* units"
#endif

#include <gtest/gtest.h>

namespace oblique {
namespace {

TEST(ModelWithoutJson, AScenarioBuiltInCppIsCheckedAndSimulatedWithoutJson) {
  // A ball above a floor, set up field by field.
  Scenario s;
  BodyDef ball;
  ball.position = Vec2(0.0, 1.0);
  s.bodies.push_back(ball);
  s.planes.push_back(PlaneDef{});
  ContactDef floor;
  floor.body_a = 0;
  floor.plane = 0;
  s.contacts.push_back(floor);
  // Unnamed items are fine for simulation (the model refers by index), not for a document.
  EXPECT_TRUE(check_scenario_values(s, ScenarioUse::Simulation).empty());
  EXPECT_EQ(check_scenario_values(s).front().pointer, "/bodies/0/name");
  Simulator sim(s);
  ASSERT_TRUE(sim.advance_to_next_impact(1.0));
  // The drop height 1 − r = 0.9 m, e = 0.5 (the default): the ball leaves at e √(2 g h).
  EXPECT_NEAR(sim.impacts().back().result.qd_plus(1), 0.5 * std::sqrt(2.0 * 9.81 * 0.9), 1e-9);
}

}  // namespace
}  // namespace oblique
