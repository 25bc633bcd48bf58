// The property test of the simulator (issue 30, item 5): free bodies of every shape pair, against planes and
// in lines, with "collide": "all" and no gravity, set up in exact symmetric configurations and at random
// (property_scenes.hpp), each run checked at every step for momentum, angular momentum, penetration (exact
// signed distance), position jumps, kinetic energy, the first impact's time and the impact times of the
// translated, rotated and mirrored scene (scene_properties.hpp). A fixed seed here; `npm run fuzz` draws new
// scenes (fuzz/properties_fuzzer.cpp), and `npm run sweep` prints the table of every symmetric scene.
//
// First, that the checks can fail: scenes that break each property on purpose.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "oblique/scenario/issues.hpp"
#include "oblique/scenario/scenario_check.hpp"
#include "oblique/io/scenario_json.hpp"
#include "oblique/math/trigonometry.hpp"
#include "property_scenes.hpp"
#include "scene_properties.hpp"

namespace oblique::scenes {
namespace {

/// The names of the properties a report says are broken.
std::vector<std::string> broken(const PropertyReport& report) {
  std::vector<std::string> out;
  for (const PropertyFailure& f : report.failures) out.push_back(name(f.property));
  return out;
}

// ---- the checks fail where they must --------------------------------------------------------------------

TEST(SceneProperties, BodiesThatPassThroughEachOtherPenetrateAndMissTheirFirstImpact) {
  // Without "collide": "all" two disks head on pass through each other: nothing else breaks.
  PropertyScene scene = pair_scene(TestShape::Disk, TestShape::Disk, PairSetup::HeadOnX);
  scene.scenario.collide_all = false;
  const PropertyReport report = check_properties(scene);
  EXPECT_EQ(broken(report), (std::vector<std::string>{"penetration", "first-impact"})) << describe(scene, report);
  const PropertyFailure& first = *report.failure(Property::FirstImpact);
  EXPECT_NE(first.detail.find("free flight meets at t = 0.0625 s"), std::string::npos) << first.detail;
  // Seen at the first step after they meet, 1 mm into each other.
  EXPECT_NEAR(report.failure(Property::Penetration)->time, 0.063, 1e-12);
  EXPECT_NEAR(report.failure(Property::Penetration)->amount, 0.001, 1e-12);
}

TEST(SceneProperties, AnImpulseFromOutsideBreaksMomentumAndEnergy) {
  // A scheduled kick of 1 N s on the first disk at t = 0.03 s: external, so momentum changes, and kinetic
  // energy rises.
  PropertyScene scene = pair_scene(TestShape::Disk, TestShape::Square, PairSetup::HeadOnX);
  ImpulseDef kick;
  kick.time = 0.03;
  kick.body = 0;
  kick.impulse = Vec2(0.0, 1.0);
  scene.scenario.impulses.push_back(kick);
  PropertyOptions options;
  options.transforms.clear();
  const PropertyReport report = check_properties(scene, options);
  ASSERT_NE(report.failure(Property::LinearMomentum), nullptr) << describe(scene, report);
  EXPECT_NEAR(report.failure(Property::LinearMomentum)->time, 0.0305, 0.0006);
  EXPECT_NE(report.failure(Property::AngularMomentum), nullptr);
  EXPECT_NE(report.failure(Property::KineticEnergy), nullptr);
}

TEST(SceneProperties, TransformsAreExactAndMoveEveryImpact) {
  // Rotating four times by 90° (a box by swapping its sides twice) and mirroring twice give the scene back
  // bit for bit, but for a rod's angle, which takes 2π.
  const PropertyScene scene = line_scene(LineSetup::Mixed);
  Scenario turned = scene.scenario;
  for (int k = 0; k < 4; ++k) turned = transformed(turned, Transform::Rotate90);
  EXPECT_EQ(scenario_to_json(transformed(transformed(scene.scenario, Transform::Mirror), Transform::Mirror)),
            scenario_to_json(scene.scenario));
  for (std::size_t b = 0; b < scene.scenario.bodies.size(); ++b) {
    EXPECT_EQ(turned.bodies[b].position, scene.scenario.bodies[b].position);
    EXPECT_EQ(turned.bodies[b].shape.width, scene.scenario.bodies[b].shape.width);
  }
  EXPECT_NEAR(turned.bodies[2].angle, 2 * kPi, 1e-15);
  // A scene whose rotated copy is a different scene (gravity is not turned) fails the check.
  PropertyScene falling = plane_scene(TestShape::Disk, PlaneSetup::Floor);
  falling.scenario.gravity = Vec2(0.0, -9.81);
  const PropertyReport report = check_properties(falling);
  EXPECT_NE(report.failure(Property::Rotated), nullptr) << describe(falling, report);
  EXPECT_EQ(report.failure(Property::Translated), nullptr) << describe(falling, report);
  EXPECT_EQ(report.failure(Property::Mirrored), nullptr) << describe(falling, report);
}

TEST(SceneProperties, TheScenesStartAsTheirSetUpsSay) {
  // Exactly touching along an axis: binary sizes, so the gap is exactly zero.
  const Scenario touching = pair_scene(TestShape::Square, TestShape::ThinRod, PairSetup::Touching).scenario;
  EXPECT_EQ(touching.bodies[1].position.x() - touching.bodies[0].position.x(), 0.125 + 0.25);
  // Every symmetric scene is a valid scenario: no overlap beyond the initial tolerance, no bad value.
  const std::vector<PropertyScene> scenes = symmetric_scenes();
  EXPECT_GE(scenes.size(), 400u);
  for (const PropertyScene& scene : scenes) {
    EXPECT_TRUE(check_scenario_values(scene.scenario).empty()) << scene.name << ": "
                                                               << issue_text(check_scenario_values(scene.scenario).at(0));
  }
  // Random scenes too, from any seed.
  SeededChoices choices(7);
  for (int i = 0; i < 200; ++i) {
    const PropertyScene random = i % 2 ? random_symmetric_scene(choices) : random_scene(choices);
    const auto issues = check_scenario_values(random.scenario);
    EXPECT_TRUE(issues.empty()) << random.name << ": " << (issues.empty() ? "" : issue_text(issues[0]));
  }
}

// ---- the properties ---------------------------------------------------------------------------------------

/// Checks every scene, one expectation per scene with every failure listed; with `one_transform`, one
/// transformed run per scene, each transform in turn (transforms_for), as `npm run sweep` runs them all.
void expect_properties(const std::vector<PropertyScene>& scenes, bool one_transform) {
  for (std::size_t i = 0; i < scenes.size(); ++i) {
    PropertyOptions options;
    options.transforms = transforms_for(i, one_transform);
    const PropertyReport report = check_properties(scenes[i], options);
    EXPECT_TRUE(report.holds()) << describe(scenes[i], report);
  }
}

TEST(SceneProperties, EveryShapePairInEverySymmetricSetUp) {
  std::vector<PropertyScene> pairs;
  for (PropertyScene& scene : symmetric_scenes()) {
    if (scene.scenario.planes.empty() && scene.scenario.bodies.size() == 2) pairs.push_back(std::move(scene));
  }
  expect_properties(pairs, true);
}

TEST(SceneProperties, EveryShapeAgainstPlanesAndEveryLine) {
  std::vector<PropertyScene> others;
  for (PropertyScene& scene : symmetric_scenes()) {
    if (!scene.scenario.planes.empty() || scene.scenario.bodies.size() != 2) others.push_back(std::move(scene));
  }
  expect_properties(others, true);
}

TEST(SceneProperties, RandomScenesFromAFixedSeed) {
  SeededChoices choices(20260530);
  std::vector<PropertyScene> scenes;
  for (int i = 0; i < 24; ++i) {
    PropertyScene scene = random_scene(choices);
    scene.name = "random " + std::to_string(i);
    scenes.push_back(std::move(scene));
    PropertyScene symmetric = random_symmetric_scene(choices);
    symmetric.name = "random symmetric " + std::to_string(i) + " (" + symmetric.name + ")";
    scenes.push_back(std::move(symmetric));
  }
  expect_properties(scenes, false);
}

}  // namespace
}  // namespace oblique::scenes
